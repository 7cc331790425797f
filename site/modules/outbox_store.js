// @ts-check
// The outbox's IndexedDB, shared by the pages (outbox.js) and the service worker (site/offline/sw.js): one
// schema, one way to open it and to run a request, one reading of the server's answer to a kept move.
// A classic service worker cannot import a module, so the build writes this file's text into /sw.js in
// place of the worker's import (site/assets.py, service_worker): keep it to top-level `export`
// declarations, with no imports of its own.
//
// Schema: database "ubao-outbox", version 1, stores "moves" ({id: game id, move, ply, token, outcome}) and
// "attempts" ({id: puzzle id, moves, token, tz, outcome}), both keyed by `id`. `outcome` is null until the
// worker has sent the record; then it is what the server said, for the page to show: moves
// {kind: "sent" | "conflict" | "refused", code, reason}, attempts {status, result, rated, rating, rating_change}.

/** The database's name, which is also the Background Sync tag and the Web Lock the page and worker take. */
export const OUTBOX = "ubao-outbox";
export const MOVES = "moves";
export const ATTEMPTS = "attempts";
const OUTBOX_VERSION = 1;

/**
 * The outbox database, its stores created on first use.
 * @returns {Promise<IDBDatabase>}
 */
export function openOutbox() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(OUTBOX, OUTBOX_VERSION);
    request.onupgradeneeded = () => {
      for (const store of [MOVES, ATTEMPTS]) {
        if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store, { keyPath: "id" });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * One request on one store, as a promise that settles when its transaction has committed.
 * @template T
 * @param {IDBDatabase} db
 * @param {string} store
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} makeRequest
 * @returns {Promise<T>}
 */
export function inStore(db, store, mode, makeRequest) {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(store, mode);
    const request = makeRequest(transaction.objectStore(store));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * What the server said to a kept move, as the record keeps it; null when it has not said yet (the network
 * failed: ``status`` null, or a 5xx), so the move stays kept for the next try. A 409: the opponent moved
 * first. Any other refusal keeps the error's code and reason, for the page to say in its own language.
 * @param {number | null} status
 * @param {{error?: {code?: string | null, reason?: string | null}} | null} body  the answer, when refused
 * @returns {{kind: "sent"} | {kind: "conflict"} | {kind: "refused", code: string | null, reason: string | null} | null}
 */
export function moveOutcome(status, body) {
  if (status === null || status >= 500) return null;
  if (status >= 200 && status < 300) return { kind: "sent" };
  if (status === 409) return { kind: "conflict" };
  const { code = null, reason = null } = (body && body.error) || {};
  return { kind: "refused", code, reason };
}
