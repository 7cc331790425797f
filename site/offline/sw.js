// @ts-check
// ubao's service worker, served as /sw.js for the whole origin. site/assets.py fills SETTINGS
// at `make site` time: the version (a hash of the shell), the shell to precache, each language's offline page.
//
// Strategies, by what a response is:
//   /static/ (hashed names, never change)     cache first: precached shell, then a runtime cache
//   pages                                      stale-while-revalidate; offline and never seen: the offline page
//   GET /v1/ (game state, puzzles, progress)   network first; the cached answer only when the network fails,
//                                              marked `X-Ubao-Offline: 1` so a page never shows it as fresh
//   anything else (POST, other origins)        the network, untouched
// Messages from pages: {type: "save-pages", urls} caches those pages ("Save all lessons for offline");
// {type: "forget-answers"} drops the cached API answers ("Delete my data").
// Background Sync: `sync` sends the moves and puzzle attempts kept offline (the section of that name below).
// Web Push adds its `push` and `notificationclick` handlers at the end of this file.
//
// A classic worker (a module worker is too new for the browsers the site serves): the build writes the
// text of the module imported below in place of the import (site/assets.py, service_worker).

import { ATTEMPTS, MOVES, OUTBOX, inStore, moveOutcome, openOutbox } from "../modules/outbox_store.js";

const SETTINGS = {};
/** This worker's global scope, typed as a service worker's (TypeScript's worker types name a plain worker). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const SHELL_CACHE = "ubao-shell-" + SETTINGS.version;
const PAGES_CACHE = "ubao-pages";
const ASSETS_CACHE = "ubao-assets";
const API_CACHE = "ubao-api";
const OFFLINE_HEADER = "X-Ubao-Offline";

worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL_CACHE);
      await shell.addAll(SETTINGS.shell.concat(Object.values(SETTINGS.offlinePages)));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await worker.clients.claim();
      // The page that installed the worker was visited before the worker could see it: keep it too
      // (the browser's own cache revalidates it, so this costs a 304, not the page again).
      const open = await worker.clients.matchAll({ type: "window" });
      await savePages(open.map((client) => client.url).filter((address) => sameOriginPage(address)));
      await retireOldShells();
    })(),
  );
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== worker.location.origin) return;
  if (url.pathname.startsWith("/v1/")) event.respondWith(networkFirst(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate" || (request.headers.get("accept") || "").includes("text/html"))
    event.respondWith(staleWhileRevalidate(request, event));
});

worker.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  if (data.type === "save-pages" && Array.isArray(data.urls)) {
    event.waitUntil(savePages(data.urls).then((result) => port && port.postMessage(result)));
  }
  // "Delete my data": the API answers kept for reading offline are the player's; nothing of them stays.
  if (data.type === "forget-answers") event.waitUntil(caches.delete(API_CACHE));
});

// ---------------------------------------------------------------------------------- Background Sync
// Moves and puzzle attempts made offline, kept in IndexedDB by site/static/outbox.js (the records and the
// database are site/modules/outbox_store.js). The page registers the sync when it keeps one; the browser fires
// `sync` when the connection returns, page open or not. Each record is sent once, under the lock the page
// takes too, with the player's token stored beside it; what the server said is written on the record (a
// 409: the opponent moved first) and the open pages are told, so the page shows it, now or when next opened.
// A network failure or a 5xx leaves the record as it was and fails the event: the browser tries again.

// Background Sync is not in TypeScript's worker types: hence `any`.
worker.addEventListener("sync", (/** @type {any} */ event) => {
  if (event.tag === OUTBOX) event.waitUntil(deliverOutbox());
});

async function deliverOutbox() {
  const deliver = async () => {
    const db = await openOutbox();
    let delivered = 0;
    let pending = 0;
    for (const record of await outboxRecords(db, MOVES)) {
      if (record.outcome || !record.token) continue;
      const response = await postJson(`/v1/games/${encodeURIComponent(record.id)}/moves`, record.token, {
        move: record.move,
        ply: record.ply,
      });
      const refused = response && !response.ok && response.status < 500;
      const outcome = moveOutcome(response && response.status, refused ? await response.json().catch(() => null) : null);
      if (!outcome) {
        pending += 1;
        continue;
      }
      record.outcome = outcome;
      await outboxPut(db, MOVES, record);
      delivered += 1;
    }
    for (const record of await outboxRecords(db, ATTEMPTS)) {
      if (record.outcome || !record.token) continue; // no player yet: the page creates one, then sends
      const path = `/v1/puzzles/${encodeURIComponent(record.id)}/attempt?tz=${encodeURIComponent(record.tz || "UTC")}`;
      const response = await postJson(path, record.token, { moves: record.moves });
      if (!response || response.status >= 500) {
        pending += 1;
        continue;
      }
      // The server has judged it (a replay of the same moves costs nothing there): the page plays the kept
      // moves again to show the verdict on its board, then drops the record.
      const answer = await response.json().catch(() => null);
      // What counted, as the server said it: the page's replay of these moves is answered as not rated.
      const { result = null, rated = null, rating = null, rating_change = null } = answer || {};
      record.outcome = { status: response.status, result, rated, rating, rating_change };
      await outboxPut(db, ATTEMPTS, record);
      delivered += 1;
    }
    db.close();
    if (delivered) {
      const windows = await worker.clients.matchAll({ type: "window" });
      for (const client of windows) client.postMessage({ type: "outbox-delivered" });
    }
    if (pending) throw new Error("the outbox is not sent yet"); // the browser fires `sync` again later
  };
  return worker.navigator.locks ? worker.navigator.locks.request(OUTBOX, deliver) : deliver();
}

/** The response, or null when the network failed. */
async function postJson(path, token, body) {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: "Bearer " + token },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return null;
  }
}

/**
 * @param {IDBDatabase} db
 * @param {string} store
 */
const outboxRecords = (db, store) => inStore(db, store, "readonly", (s) => s.getAll());
/**
 * @param {IDBDatabase} db
 * @param {string} store
 * @param {object} record
 */
const outboxPut = (db, store, record) => inStore(db, store, "readwrite", (s) => s.put(record));

function sameOriginPage(address) {
  const url = new URL(address);
  return url.origin === worker.location.origin && !url.pathname.startsWith("/v1/") && !url.pathname.startsWith("/static/");
}

/**
 * A new build's shell replaces the old one, but a page saved before the update still names the old files
 * until it is revalidated online: those move to the runtime cache, and whatever no saved page (or script
 * kept for one) names any more is deleted, so the caches stay the size of what is saved.
 */
async function retireOldShells() {
  const assets = await caches.open(ASSETS_CACHE);
  const shell = await caches.open(SHELL_CACHE);
  for (const name of await caches.keys()) {
    if (!name.startsWith("ubao-shell-") || name === SHELL_CACHE) continue;
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      if (!(await shell.match(request))) await assets.put(request, await old.match(request));
    }
    await caches.delete(name);
  }
  const named = new Set();
  const pages = await caches.open(PAGES_CACHE);
  for (const request of await pages.keys()) {
    const text = await (await pages.match(request)).text();
    for (const found of text.matchAll(/\/static\/[\w.-]+/g)) named.add(found[0]);
  }
  const kept = await assets.keys();
  for (const request of kept) {
    const path = new URL(request.url).pathname;
    if (named.has(path) && path.endsWith(".js")) {
      const text = await (await assets.match(request)).text();
      for (const found of text.matchAll(/["']\.\/([\w.-]+\.js)["']/g)) named.add("/static/" + found[1]);
    }
  }
  for (const request of kept) {
    if (!named.has(new URL(request.url).pathname)) await assets.delete(request);
  }
}

/** The page's address without its query: /sw/mchezo/?id=... is the same page for every game. */
function pageKey(request) {
  const url = new URL(request.url);
  return url.origin + url.pathname;
}

function cacheable(response) {
  return response && response.ok && response.type === "basic" && !response.redirected;
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreSearch: false });
  if (cached) return cached;
  const response = await fetch(request);
  if (cacheable(response)) {
    const cache = await caches.open(ASSETS_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function staleWhileRevalidate(request, event) {
  const cache = await caches.open(PAGES_CACHE);
  const key = pageKey(request);
  const cached = await cache.match(key);
  const refresh = fetch(request).then(async (response) => {
    if (cacheable(response)) await cache.put(key, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(refresh.catch(() => undefined)); // offline: the cached page stays as it is
    return cached;
  }
  try {
    return await refresh;
  } catch (error) {
    return (await caches.match(offlinePage(request.url))) || Response.error();
  }
}

function offlinePage(address) {
  const lang = new URL(address).pathname.split("/")[1];
  return SETTINGS.offlinePages[lang] || SETTINGS.offlinePages[SETTINGS.langs[0]];
}

async function networkFirst(request) {
  const cache = await caches.open(API_CACHE);
  try {
    const response = await fetch(request);
    if (cacheable(response)) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (!cached) throw error;
    // The last known answer, said to be one: the page shows it as the last known state, never as fresh.
    const headers = new Headers(cached.headers);
    headers.set(OFFLINE_HEADER, "1");
    headers.delete("etag");
    return new Response(await cached.blob(), { status: cached.status, statusText: cached.statusText, headers });
  }
}

async function savePages(urls) {
  const cache = await caches.open(PAGES_CACHE);
  let saved = 0;
  let failed = 0;
  // One at a time: on a slow link, parallel requests only make every page arrive later.
  for (const address of urls) {
    try {
      const response = await fetch(address, { credentials: "same-origin" });
      if (!cacheable(response)) throw new Error("HTTP " + response.status);
      await cache.put(pageKey(new Request(address)), response);
      saved += 1;
    } catch (error) {
      failed += 1;
    }
  }
  return { saved, failed };
}

// -- Web Push ----------------------------------------------------------------------------------
// The notify function sends {kind, game, url, title, body, tag}, already in the subscription's language
// (docs/notifications.md). `tag` (game:<id>) keeps one notification per game on the phone, the newest.
// A tap opens the game: a window already on it is focused, else a window of ours is taken there, else a
// new one is opened. Open pages are told of each push (`{type: "push"}`) so a game on screen refreshes now.

worker.addEventListener("push", (event) => {
  const notice = pushNotice(event.data);
  event.waitUntil(
    (async () => {
      /** @type {NotificationOptions & {renotify: boolean}} `renotify` is not in TypeScript's types yet */
      const options = {
        body: notice.body,
        tag: notice.tag,
        renotify: Boolean(notice.tag), // a newer move in the same game buzzes again
        data: { url: notice.url, game: notice.game, kind: notice.kind },
      };
      await worker.registration.showNotification(notice.title, options);
      const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) client.postMessage({ type: "push", kind: notice.kind, game: notice.game });
    })(),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opened = openNoticeTarget((event.notification.data && event.notification.data.url) || "/");
  event.waitUntil(opened.catch(() => undefined));
});

function pushNotice(data) {
  let notice;
  try {
    notice = (data && data.json()) || {};
  } catch {
    notice = { body: data ? data.text() : "" }; // not ours, or not JSON: still show what came
  }
  const url = new URL(typeof notice.url === "string" ? notice.url : "/", worker.location.origin);
  return {
    kind: notice.kind || null,
    game: notice.game || null,
    title: String(notice.title || "ubao"),
    body: String(notice.body || ""),
    tag: notice.tag ? String(notice.tag) : undefined,
    url: url.origin === worker.location.origin ? url.href : worker.location.origin + "/", // never another site
  };
}

async function openNoticeTarget(address) {
  const target = new URL(address, worker.location.origin);
  const game = target.searchParams.get("id");
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const ours = windows.filter((client) => new URL(client.url).origin === target.origin);
  const onGame = ours.find((client) => game && gameOfPage(client.url) === game);
  if (onGame) return onGame.focus();
  const other = ours.find((client) => "navigate" in client);
  if (other) {
    const moved = await other.navigate(target.href).catch(() => null);
    if (moved) return moved.focus().catch(() => moved);
  }
  return worker.clients.openWindow(target.href);
}

/** The game a page of ours shows: Mchezo keeps it in `?id=` (a notification's link) or `#game=`. */
function gameOfPage(address) {
  const url = new URL(address);
  return url.searchParams.get("id") || new URLSearchParams(url.hash.slice(1)).get("game");
}
