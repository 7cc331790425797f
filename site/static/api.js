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
  let data = null;
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

/** The player of this browser, created on first use: {player_id, token}. */
export async function player() {
  const known = storedPlayer();
  if (known && known.token) return known;
  const created = await call("POST", "/v1/players", { body: {} });
  const saved = { player_id: created.player_id, token: created.token };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(saved));
  return saved;
}

/** The rules layer on the server: the canonical move, the position after it, and the next legal moves. */
export function validate(game, fen, moves, move, options) {
  return call("POST", "/v1/validate", { body: { game, fen, moves, move, options: options || {} } });
}

/** Draughts notation ("22x15x6", "c3-d4") as squares; null for chess SAN. */
export function draughtsSquares(text) {
  const parts = String(text).split(/[-x:]/);
  return parts.length >= 2 && parts.every((p) => /^[a-h]?\d{1,2}$/i.test(p)) ? parts.map((p) => p.toLowerCase()) : null;
}

/** Legal moves from the server as the board wants them ({from, to, path, san}); chess SAN has no squares. */
export function boardMoves(game, legal) {
  if (!Array.isArray(legal)) return null;
  if (game === "chess") {
    // Only moves given by their squares (UCI such as "e7e8q") can be shown; SAN needs the rules.
    if (!legal.length || !legal.every((m) => typeof m === "string" && /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m))) return null;
    return legal.map((uci) => ({ from: uci.slice(0, 2), to: uci.slice(2, 4), path: [uci.slice(2, 4)], promotion: uci[4] || null, san: uci }));
  }
  const moves = [];
  for (const text of legal) {
    const squares = typeof text === "string" ? draughtsSquares(text) : null;
    if (!squares) return null;
    moves.push({ from: squares[0], to: squares[squares.length - 1], path: squares.slice(1), san: text });
  }
  return moves;
}

/** The text to send for a move picked on the board: the notation when known, else from-to (UCI for chess). */
export function moveText(game, move) {
  if (move.san) return move.san;
  if (game === "chess") return move.from + move.to + (move.promotion || "");
  return [move.from, ...(move.path && move.path.length ? move.path : [move.to])].join("-");
}
