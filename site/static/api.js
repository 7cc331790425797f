// @ts-check
// The few HTTP calls the pages make, and the player's token kept in this browser (no account).

const PLAYER_KEY = "ubao.player";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || "HTTP " + status);
    this.status = status;
    this.body = body;
    this.code = body && body.error && body.error.code;
  }
}

/**
 * One request to the API; the answer's JSON (with its ETag as ``_etag``), ``{notModified}`` on a 304.
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, token?: string | null, etag?: string | null}} [request]
 * @returns {Promise<any>}
 */
export async function call(method, path, { body, token, etag } = {}) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = "Bearer " + token;
  if (etag) headers["if-none-match"] = etag;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 304) {
    await response.text(); // read the empty body: Chromium cancels a response left unread (net::ERR_ABORTED)
    return { notModified: true, etag };
  }
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  if (data && typeof data === "object") data._etag = response.headers.get("etag");
  return data;
}

export function storedPlayer() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
  } catch {
    return null;
  }
}

/** This browser forgets its player (their data was deleted: the token no longer works). */
export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
}

/** The player of this browser, created on first use: {player_id, token} (``player_id`` the public handle). */
export async function player() {
  const known = storedPlayer();
  if (known && known.token) return known.handles ? known : withHandle(known);
  const created = await call("POST", "/v1/players", { body: {} });
  const saved = { player_id: created.player_id, token: created.token, handles: true };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(saved));
  return saved;
}

/**
 * A player kept before the API showed handles in place of ids (fair play): its handle, asked once.
 * @param {{player_id: string, token: string}} known
 */
async function withHandle(known) {
  try {
    const me = await call("GET", "/v1/players/me", { token: known.token });
    const saved = { ...known, player_id: me.player_id, handles: true };
    localStorage.setItem(PLAYER_KEY, JSON.stringify(saved));
    return saved;
  } catch {
    return known; // offline or refused: asked again next time
  }
}

/** The rules layer on the server: the canonical move, the position after it, and the next legal moves. */
export function validate(game, fen, moves, move, options) {
  return call("POST", "/v1/validate", { body: { game, fen, moves, move, options: options || {} } });
}
