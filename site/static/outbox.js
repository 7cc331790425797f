// Moves made offline (issue 12): kept in this browser with the ply they were made at, and sent when the
// connection returns (the `online` event, or the next time the game is opened). The server stays the
// judge: a move the opponent overtook comes back as a 409 and is dropped, never replayed at another ply.

const OUTBOX_KEY = "ubao.outbox";

function read() {
  try {
    return JSON.parse(localStorage.getItem(OUTBOX_KEY) || "{}");
  } catch {
    return {};
  }
}

/** Keep ``move`` (what the page would have sent) for game ``id``; one per game: it is then the opponent's turn. */
export function queueMove(id, move) {
  const all = read();
  all[id] = { move: move.move, ply: move.ply };
  localStorage.setItem(OUTBOX_KEY, JSON.stringify(all));
}

export function queuedMove(id) {
  return read()[id] || null;
}

export function dropMove(id) {
  const all = read();
  delete all[id];
  localStorage.setItem(OUTBOX_KEY, JSON.stringify(all));
}

/** The offline texts of this page, from the catalogs (data attributes of #offline-messages). */
export function offlineText(key, values = {}) {
  const node = document.getElementById("offline-messages");
  const text = (node && node.dataset[key]) || "";
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}

// Puzzle attempts made offline: the solver's moves so far, checked by the server when the connection returns.
const ATTEMPTS_KEY = "ubao.attempts";

function readAttempts() {
  try {
    return JSON.parse(localStorage.getItem(ATTEMPTS_KEY) || "{}");
  } catch {
    return {};
  }
}

export function keepAttempt(puzzleId, moves) {
  const all = readAttempts();
  all[puzzleId] = { moves };
  localStorage.setItem(ATTEMPTS_KEY, JSON.stringify(all));
}

export function keptAttempt(puzzleId) {
  return readAttempts()[puzzleId] || null;
}

export function dropAttempt(puzzleId) {
  const all = readAttempts();
  delete all[puzzleId];
  localStorage.setItem(ATTEMPTS_KEY, JSON.stringify(all));
}
