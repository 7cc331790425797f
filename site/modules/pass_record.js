// @ts-check
// A game played on one phone (pass-and-play) as a file, the way the games' export writes a server game
// (functions/games/views/export.py): PGN for chess, PDN for draughts; the Seven Tag Roster, PDN's GameType,
// the moves numbered from the side that starts, how the game ended in a comment, then the result. Also the
// games this phone keeps (localStorage): the one being played, so a closed page carries on, and the finished ones.

const PGN_RESULTS = { white: "1-0", black: "0-1", draw: "1/2-1/2", ongoing: "*" };
const PDN_RESULTS = { white: "2-0", black: "0-2", draw: "1-1", ongoing: "*" };
/** How the record tells an ending (English, as the server's export: a file is read by programs and players alike). */
const REASONS = {
  checkmate: "checkmate",
  stalemate: "stalemate",
  threefold_repetition: "the same position for the third time",
  fifty_moves: "fifty moves each without a capture or a pawn move",
  insufficient_material: "neither side can mate",
  no_pieces: "no pieces left",
  no_moves: "no legal move",
  forty_moves: "forty moves without a capture or a man moving",
  move_limit: "the agreed move limit",
  three_kings_countdown: "three kings could not take the lone king in twelve moves",
  thirty_moves: "thirty moves each with only kings and no capture",
};
export const KEPT_KEY = "ubao.passPlay.games";
export const CURRENT_KEY = "ubao.passPlay.current";
const KEPT_MOST = 30;

/**
 * @typedef {object} PhoneGame
 * @property {string} id  when it began, as a base-36 number of milliseconds
 * @property {string} game
 * @property {Record<string, any>} options
 * @property {string[]} moves  as the board sends them (UCI in chess, the notation in draughts)
 * @property {string[]} notations  as the record writes them (SAN in chess)
 * @property {string} date  YYYY.MM.DD, when it began
 * @property {{result: string, reason: string | null}} status
 */

/** @param {string} result @param {string | null} reason */
function endingComment(result, reason) {
  if (result === "ongoing" || !reason) return null;
  const other = result === "white" ? "Black" : "White";
  if (reason === "resignation") return `${other} resigns.`;
  if (reason === "agreement") return "Draw agreed.";
  const described = REASONS[reason] || reason.replace(/_/g, " ");
  return result === "draw" ? `Draw: ${described}.` : `${result[0].toUpperCase() + result.slice(1)} wins: ${described}.`;
}

/**
 * The game as a PGN or PDN file: its name, type and text.
 * @param {PhoneGame} game
 * @param {{chess: boolean, gameType?: string}} kind  PGN for chess; PDN's GameType otherwise
 */
export function gameRecord(game, kind) {
  const result = (kind.chess ? PGN_RESULTS : PDN_RESULTS)[game.status.result] || "*";
  const tags = [
    ["Event", "ubao game on one phone"], ["Site", "ubao"], ["Date", game.date], ["Round", "-"],
    ["White", "?"], ["Black", "?"], ["Result", result],
  ];
  if (kind.chess) tags.push(["Termination", game.status.result === "ongoing" ? "unterminated" : "normal"]);
  else tags.push(["GameType", kind.gameType || "?"]);
  tags.push(["PlyCount", String(game.notations.length)]);
  const tokens = [];
  game.notations.forEach((move, ply) => {
    if (ply % 2 === 0) tokens.push(`${ply / 2 + 1}.`);
    tokens.push(move);
  });
  const ending = endingComment(game.status.result, game.status.reason);
  if (ending) tokens.push(`{${ending}}`);
  tokens.push(result);
  const lines = [];
  let line = "";
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > 79) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  lines.push(line);
  const header = tags.map(([name, value]) => `[${name} "${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]\n`).join("");
  const extension = kind.chess ? "pgn" : "pdn";
  return {
    filename: `ubao-${game.game}-phone-${game.id}.${extension}`,
    type: kind.chess ? "application/x-chess-pgn" : "text/plain",
    text: `${header}\n${lines.join("\n")}\n`,
  };
}

/** @param {Storage} storage @param {string} key */
function read(storage, key) {
  try {
    return JSON.parse(storage.getItem(key) || "null");
  } catch (error) {
    return null; // a damaged entry is as good as none
  }
}

/** The finished games this phone keeps, newest first. @param {Storage} storage @returns {PhoneGame[]} */
export function keptGames(storage) {
  const games = read(storage, KEPT_KEY);
  return Array.isArray(games) ? games : [];
}

/** The game being played on this phone, if a page was closed during one. @param {Storage} storage @returns {PhoneGame | null} */
export function currentGame(storage) {
  const game = read(storage, CURRENT_KEY);
  return game && Array.isArray(game.moves) ? game : null;
}

/**
 * Keeps the game: while it goes on as the current one, once over among the finished (the 30 latest).
 * @param {Storage} storage @param {PhoneGame} game
 */
export function keepGame(storage, game) {
  if (game.status.result === "ongoing") {
    storage.setItem(CURRENT_KEY, JSON.stringify(game));
    return;
  }
  storage.removeItem(CURRENT_KEY);
  const others = keptGames(storage).filter((kept) => kept.id !== game.id);
  storage.setItem(KEPT_KEY, JSON.stringify([game, ...others].slice(0, KEPT_MOST)));
}
