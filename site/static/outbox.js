// What a player does offline (issue 12): a correspondence move, kept with the ply it was made at, and the
// moves of a puzzle attempt, kept until the server can judge them. They live in IndexedDB, which the
// service worker reads too: where the browser has Background Sync, the worker sends them as soon as the
// connection returns, even with the page closed (site/offline/sw.js, "Background Sync"); everywhere, the
// page sends them on the `online` event and when it is opened again. The server stays the judge: a move
// the opponent overtook comes back as a 409 and is shown as such, never replayed at another ply.
//
// The schema is shared with sw.js (keep the two in step): database "ubao-outbox", version 1, stores
// "moves" ({id: game id, move, ply, token, outcome}) and "attempts" ({id: puzzle id, moves, token, tz,
// outcome}), both keyed by `id`. `outcome` is null until the worker has sent the record; then it is what
// the server said, for the page to show: moves {kind: "sent" | "conflict" | "refused", code, reason},
// attempts {status, result}.

import { storedPlayer } from "./api.js";

const DATABASE = "ubao-outbox";
const VERSION = 1;
const MOVES = "moves";
const ATTEMPTS = "attempts";
/** The Background Sync tag and the Web Lock the page and the worker take before sending a kept record. */
const SYNC_TAG = "ubao-outbox";
const LOCK = "ubao-outbox";

let opened = null;

function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, VERSION);
      request.onupgradeneeded = () => {
        for (const store of [MOVES, ATTEMPTS]) {
          if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store, { keyPath: "id" });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    opened.catch(() => {
      opened = null; // a private window may refuse IndexedDB now and allow it later
    });
  }
  return opened;
}

/** One request on one store, as a promise that settles when its transaction has committed. */
async function inStore(store, mode, makeRequest) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(store, mode);
    const request = makeRequest(transaction.objectStore(store));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

const read = (store, id) => inStore(store, "readonly", (s) => s.get(id)).then((record) => record || null);
const write = (store, record) => inStore(store, "readwrite", (s) => s.put(record));
const remove = (store, id) => inStore(store, "readwrite", (s) => s.delete(id));

/** Ask the service worker to send the outbox when the connection returns (Background Sync, where it exists). */
function requestSync() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.ready
    .then((registration) => registration.sync && registration.sync.register(SYNC_TAG))
    .catch(() => undefined); // no Background Sync: the page sends on `online` and on the next open
}

/** Run ``work`` while holding the outbox lock, so the page and the worker never send one record twice. */
export function withOutbox(work) {
  return navigator.locks ? navigator.locks.request(LOCK, work) : work();
}

/** Keep ``move`` ({move, ply}) for game ``id``; one per game: it is then the opponent's turn. */
export async function queueMove(id, move) {
  const token = (storedPlayer() || {}).token || null;
  await write(MOVES, { id, move: move.move, ply: move.ply, token, outcome: null });
  requestSync();
}

/** The kept move of game ``id`` ({move, ply, outcome}), or null. */
export function queuedMove(id) {
  return read(MOVES, id);
}

export function dropMove(id) {
  return remove(MOVES, id);
}

/** Keep the solver's moves so far at ``puzzleId``, with what the worker needs to send them. */
export async function keepAttempt(puzzleId, moves) {
  const token = (storedPlayer() || {}).token || null;
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  await write(ATTEMPTS, { id: puzzleId, moves, token, tz, outcome: null });
  if (token) requestSync(); // with no player yet, the page creates one when it is back online, then sends
}

/** The kept attempt at ``puzzleId`` ({moves, outcome}), or null. */
export function keptAttempt(puzzleId) {
  return read(ATTEMPTS, puzzleId);
}

export function dropAttempt(puzzleId) {
  return remove(ATTEMPTS, puzzleId);
}

/** Call ``callback`` when the service worker has sent kept records (the page may be showing one of them). */
export function whenDelivered(callback) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "outbox-delivered") callback();
  });
}

/** The offline texts of this page, from the catalogs (data attributes of #offline-messages). */
export function offlineText(key, values = {}) {
  const node = document.getElementById("offline-messages");
  const text = (node && node.dataset[key]) || "";
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}
