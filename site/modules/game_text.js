// @ts-check
// What the game page and the inbox say about a game, in the page's language: the sides' names (Red in
// English draughts), a seat's player, a result with its reason, and a refusal from the server.
import { format, plural, refusalText } from "./i18n.js";
import { gameFacts } from "./game_facts.js";

/** @typedef {import("../types").Messages} Messages */

/**
 * A side's name: White is called Red in English draughts.
 * @param {Messages} m
 * @param {string} game
 * @param {string} colour
 * @returns {string}
 */
export function colourName(m, game, colour) {
  if (colour === "white") return gameFacts(game).light_side === "red" ? m.red : m.white;
  return m.black;
}

/**
 * A seat's player as others see it: their name, the computer and its level, or nobody yet.
 * @param {Messages} m
 * @param {{name?: string, cpu_level?: number, former?: boolean} | null | undefined} seat
 * @returns {string}
 */
export function seatName(m, seat) {
  if (!seat) return m.nobody_yet;
  if (seat.cpu_level) return format(m.computer_level, { level: seat.cpu_level });
  if (seat.former) return m.former_player; // deleted their data: no id, no name
  return seat.name || m.anonymous;
}

/**
 * A seat's name as the game page shows it: the player's display name, "you", the computer, or "waiting".
 * @param {Messages} m
 * @param {{name?: string, cpu_level?: number} | null | undefined} seat
 * @param {boolean} mine
 * @returns {string}
 */
export function playerName(m, seat, mine) {
  if (!seat) return m.nobody_yet;
  if (!mine) return seatName(m, seat);
  return seat.name ? `${seat.name} (${m.you})` : m.you;
}

/**
 * A finished game's result, with its reason when the catalog has one ("White won by checkmate.").
 * @param {Messages} m
 * @param {{game: string, status?: {result?: string, reason?: string}, rating_change?: Record<string, number> | null}} game
 * @returns {string}
 */
export function resultText(m, game) {
  const { result, reason } = game.status || {};
  if (result === "aborted") return reason === "abandoned" ? m.result_abandoned : m.result_aborted;
  let text = result === "draw" ? m.result_draw : result === "white" ? (gameFacts(game.game).light_side === "red" ? m.result_red : m.result_white) : m.result_black;
  if (reason && m["reason_" + reason]) text = text.replace(/\.$/, "") + " " + m["reason_" + reason] + ".";
  const change = ratingChangeText(m, game);
  return change ? text + " " + change : text;
}

/**
 * A rated game's rating change, by the sides' names ("Rating change: White +11, Black −11."), or "".
 * @param {Messages} m
 * @param {{game: string, rating_change?: Record<string, number> | null}} game
 * @returns {string}
 */
export function ratingChangeText(m, game) {
  const change = game.rating_change;
  if (!change || !m.rating_change) return "";
  const signed = (/** @type {number} */ n) => (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + Math.abs(n);
  const sides = ["white", "black"].map((c) => `${colourName(m, game.game, c)} ${signed(change[c])}`);
  return format(m.rating_change, { changes: sides.join(", ") });
}

/**
 * What the server refused, in the page's language: a move by its `reason`, anything else by its `code`
 * (`detail` is the answer's `error`). The server's `message` is English, for developers: never shown.
 * @param {Messages} m
 * @param {{code?: string | null, reason?: string | null} | null | undefined} detail
 * @param {string[]} [legalMoves]
 * @param {string} [game]  names the pieces as this game does
 * @returns {string}
 */
export function refusalOf(m, detail, legalMoves = [], game = "") {
  const { code, reason } = detail || {};
  if (reason) return refusalText(m, reason, { moves: legalMoves, game });
  return m["error_" + code] || m.request_refused;
}

/**
 * What to tell a player whose request failed: the server's refusal (an answer with a status, as api.js's
 * ApiError carries it; this module cannot import it) in the page's language, else that the network failed.
 * @param {Messages} m
 * @param {any} error
 * @returns {string}
 */
export function failureText(m, error) {
  const answered = Boolean(error) && typeof error.status === "number" && "body" in error;
  return answered ? refusalOf(m, error.body && error.body.error) : m.network_error;
}

/**
 * The invitation on the join box: who invites to which game, and the invitee's colour and days per move.
 * @param {Messages} m
 * @param {{game: string, players?: Record<string, {name?: string} | null>, options?: {days_per_move?: number, turn_seconds?: number | null}}} game
 * @param {string[]} colours  the two sides, first to sit first
 * @returns {{invitation: string, terms: string}}
 */
export function invitationText(m, game, colours) {
  const host = colours.find((c) => game.players && game.players[c]);
  const guest = colours.find((c) => c !== host);
  const title = m.game_titles[game.game] || game.game;
  const hostName = host && game.players[host].name;
  const invitation = hostName ? format(m.invited_by, { name: hostName, game: title }) : format(m.invited_anonymous, { game: title });
  const days = game.options && game.options.days_per_move;
  const seconds = game.options && game.options.turn_seconds; // a live table: seconds, not days, for each move
  const time = seconds ? plural(m, "turn_seconds", Number(seconds)) : days ? plural(m, "days_per_move", Number(days)) : "";
  const terms = format(m.invite_you_play, { colour: colourName(m, game.game, guest), days: time });
  return { invitation, terms };
}

/**
 * Whole days left before a deadline (rounded up, never below 0), or null without one.
 * @param {string | null | undefined} deadline
 * @returns {number | null}
 */
export function daysLeft(deadline) {
  if (!deadline) return null;
  const ms = new Date(deadline).getTime() - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.ceil(ms / 86400000)) : null;
}

/**
 * A game against the computer: its moves have no deadline worth a word.
 * @param {{players?: Record<string, {cpu_level?: number} | null>}} game
 * @param {string[]} colours
 * @returns {boolean}
 */
export function againstComputer(game, colours) {
  return colours.some((c) => !!(game.players && game.players[c] && game.players[c].cpu_level));
}

/**
 * The side to move is in check: in chess, the last move's notation ends with "+", or "#" for mate.
 * @param {string} game
 * @param {string[]} moves
 * @returns {boolean}
 */
export function inCheck(game, moves) {
  return gameFacts(game).check && moves.length > 0 && /[+#]$/.test(moves[moves.length - 1] || "");
}
