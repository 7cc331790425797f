// @ts-check
// What a player does offline: a correspondence move, kept with the ply it was made at, and the
// moves of a puzzle attempt, kept until the server can judge them. They live in IndexedDB, which the
// service worker reads too: where the browser has Background Sync, the worker sends them as soon as the
// connection returns, even with the page closed (site/offline/sw.js, "Background Sync"); everywhere, the
// page sends them on the `online` event and when it is opened again. The server stays the judge: a move
// the opponent overtook comes back as a 409 and is shown as such, never replayed at another ply.
//
// The records and their IndexedDB are outbox_store.js, shared with the service worker.

import { ApiError, call, player, storedPlayer } from "./api.js";
import { ATTEMPTS, MOVES, OUTBOX, inStore, moveOutcome, openOutbox } from "../modules/outbox_store.js";

/** @type {Promise<IDBDatabase> | null} */
let opened = null;

/** The outbox database, opened once per page. */
function database() {
  if (!opened) {
    opened = openOutbox();
    opened.catch(() => {
      opened = null; // a private window may refuse IndexedDB now and allow it later
    });
  }
  return opened;
}

/**
 * @param {string} store
 * @param {string} id
 */
const read = async (store, id) => (await inStore(await database(), store, "readonly", (s) => s.get(id))) || null;
/**
 * @param {string} store
 * @param {object} record
 */
const write = async (store, record) => inStore(await database(), store, "readwrite", (s) => s.put(record));
/**
 * @param {string} store
 * @param {string} id
 */
const remove = async (store, id) => inStore(await database(), store, "readwrite", (s) => s.delete(id));

/** Ask the service worker to send the outbox when the connection returns (Background Sync, where it exists). */
function requestSync() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.ready
    // Background Sync is not in every browser, nor in TypeScript's DOM types: hence `any`.
    .then((/** @type {any} */ registration) => registration.sync && registration.sync.register(OUTBOX))
    .catch(() => undefined); // no Background Sync: the page sends on `online` and on the next open
}

/** Run ``work`` while holding the outbox lock, so the page and the worker never send one record twice. */
export function withOutbox(work) {
  return navigator.locks ? navigator.locks.request(OUTBOX, work) : work();
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

/**
 * Send a kept move now; what the server said, as the worker records it, or null when the network failed.
 * @param {string} id
 * @param {{move: string, ply: number}} queued
 */
export async function deliverMove(id, queued) {
  try {
    const me = await player();
    const body = { move: queued.move, ply: queued.ply };
    await call("POST", `/v1/games/${encodeURIComponent(id)}/moves`, { body, token: me.token });
    return moveOutcome(200, null);
  } catch (error) {
    // A network failure (no ApiError) or a 5xx: null, kept, since the server may answer later.
    return error instanceof ApiError ? moveOutcome(error.status, error.body) : null;
  }
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
