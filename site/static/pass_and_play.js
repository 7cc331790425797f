// @ts-check
// One phone for two (pass-and-play): the whole game in the page, no server and no network. The rules come
// with it: chess from chess.js (rules_chess.js), the draughts variants from our module configured by the
// variant's description in the page's config (rules_draughts.js); each is fetched only when its game opens,
// and the service worker keeps both, so a game starts offline. The board turns to the player to move, an
// optional hand-over screen hides it between turns, the rules decide the end (mate, no moves, the draws),
// and the game is kept on the phone (pass_record.js: the current one, and the finished ones to download).
import { Board } from "./board.js";
import { colourName, resultText } from "../modules/game_text.js";
import { format, refusalText } from "../modules/i18n.js";
import { movePairs } from "../modules/move_list.js";
import { boardMoves, matchTyped, movedSquares } from "../modules/notation.js";
import { config } from "../modules/page_config.js";
import { CURRENT_KEY, currentGame, gameRecord, keepGame, keptGames } from "../modules/pass_record.js";
import { gameFacts } from "../modules/game_facts.js";
import { say } from "../modules/status_line.js";

const cfg = config();
const m = cfg.messages;
const $ = (selector, root = document) => root.querySelector(selector);
const box = $("#pass-game");
const status = $(".status", box);
const handover = $(".handover", box);

/** @typedef {import("../modules/pass_record.js").PhoneGame} PhoneGame */
/** @type {PhoneGame | null} */
let record = null;
/** @type {any} the game's rules and position (ChessMatch or DraughtsMatch) */
let match = null;
/** @type {Board | null} */
let board = null;
let hideBetweenTurns = true;
/** @type {string | null} */
let downloadUrl = null;

/** @param {string} game */
const isDraughts = (game) => gameFacts(game).family === "draughts";

/** The rules of ``game``, fetched when it first opens (precached by the service worker). @param {PhoneGame} game */
async function newMatch(game) {
  if (!isDraughts(game.game)) return new (await import("./rules_chess.js")).ChessMatch();
  const variant = cfg.variants[game.game];
  // The form's choices for this game that are rules (not the server's days per move or colours).
  const options = Object.fromEntries(Object.entries(game.options).filter(([name]) => name in variant.option_defaults));
  return new (await import("./rules_draughts.js")).DraughtsMatch(variant, options);
}

/** The side to move, named as its game names it. */
const sideName = () => colourName(m, record.game, match.turn);
const sayTurn = () => {
  const texts = { white: m.white_to_move, black: m.black_to_move, red: m.red_to_move };
  const side = match.turn === "white" && gameFacts(record.game).light_side === "red" ? "red" : match.turn;
  return match.inCheck() ? format(m.pass_check, { side: sideName() }) : texts[side];
};

function render(slideFrom = null) {
  const over = record.status.result !== "ongoing";
  const { moves, notations } = match.legal();
  const legal = over ? [] : boardMoves(record.game, moves, notations);
  const options = { legal, orientation: match.turn, check: match.inCheck(), last: slideFrom, slide: slideFrom };
  if (!board) {
    board = new Board($(".board-host", box), {
      game: record.game, fen: match.fen(), squares: cfg.squares[record.game], orientation: match.turn, legal, messages: m,
      onMove: (move) => play(move.san),
    });
  }
  board.setInteractive(!over);
  board.setPosition(match.fen(), options);
  const list = $(".moves", box);
  list.replaceChildren(...movePairs(record.game, record.notations, match.turn).map((pair) => {
    const item = document.createElement("li");
    item.textContent = pair;
    return item;
  }));
  list.scrollLeft = list.scrollWidth;
  $(".game-title", box).textContent = m.game_titles[record.game];
  if (over) say(status, resultText(m, { game: record.game, status: record.status }), "ok");
  else say(status, sayTurn(), match.inCheck() ? "bad" : undefined);
  for (const action of ["draw", "resign"]) $(`[data-action="${action}"]`, box).hidden = over;
  $(".move-form", box).hidden = over;
  showDownload(over);
}

function showDownload(over) {
  const link = $(".download", box);
  link.hidden = !over;
  if (!over) return;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = fileLink(record, link);
}

/** Points ``link`` at the game's PGN or PDN file; returns the file's URL. @param {PhoneGame} game @param {HTMLAnchorElement} link */
function fileLink(game, link) {
  const file = gameRecord(game, { chess: !isDraughts(game.game), gameType: (cfg.variants[game.game] || {}).pdn_game_type });
  link.href = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  link.download = file.filename;
  return link.href;
}

/** Plays a move the board or the form gave, keeps the game, and hands the phone over. @param {string} text */
function play(text) {
  const before = match.fen();
  record.notations.push(match.play(text));
  record.moves.push(text);
  record.status = match.status();
  keepGame(localStorage, record);
  const squares = movedSquares(record.game, before, match.fen());
  if (record.status.result === "ongoing" && hideBetweenTurns) showHandover();
  render(squares);
  if (record.status.result !== "ongoing") listKept();
}

function showHandover() {
  $(".handover-text", handover).textContent = format(m.pass_handover, { side: sideName() });
  handover.hidden = false;
  $("button", handover).focus();
}

/** Ends the game by the players' own word: the side to move resigns, or both agree a draw. @param {string} how */
function endByPlayers(how) {
  const loser = match.turn;
  record.status = how === "resign" ? { result: loser === "white" ? "black" : "white", reason: "resignation" } : { result: "draw", reason: "agreement" };
  keepGame(localStorage, record);
  handover.hidden = true;
  render();
  listKept();
}

/** The finished games kept on this phone, newest first, each with its file to download. */
function listKept() {
  const list = $(".kept", box);
  list.replaceChildren(...keptGames(localStorage).map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    fileLink(game, link);
    link.textContent = `${m.game_titles[game.game]} · ${game.date} · ${resultText(m, { game: game.game, status: game.status })}`;
    item.append(link);
    return item;
  }));
}

/** Opens a game: the one kept as current, or a new one of ``game`` with ``options``. */
async function open(/** @type {PhoneGame | null} */ kept, /** @type {string} */ game, /** @type {Record<string, any>} */ options) {
  const now = new Date();
  record = kept || {
    id: now.getTime().toString(36), game, options, moves: [], notations: [],
    date: now.toISOString().slice(0, 10).replace(/-/g, "."), status: { result: "ongoing", reason: null },
  };
  match = await newMatch(record);
  for (const move of record.moves) match.play(move);
  if (board) $(".board-host", box).replaceChildren();
  board = null;
  document.body.classList.add("passing");
  box.hidden = false;
  handover.hidden = true;
  render();
  listKept();
  scrollTo(0, 0);
}

$(".move-form", box).addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("input", event.target);
  const { moves, notations } = match.legal();
  const typed = input.value.trim();
  const bySan = notations.indexOf(typed);
  const found = bySan >= 0 ? [{ san: moves[bySan] }] : matchTyped(typed, boardMoves(record.game, moves, notations) || []);
  if (found.length === 1) {
    input.value = "";
    play(found[0].san);
  } else say(status, refusalText(m, found.length ? "ambiguous" : "unknown_move", { game: record.game }), "bad");
});
box.addEventListener("click", (event) => {
  const action = /** @type {HTMLElement} */ (event.target).closest("[data-action]");
  if (!action) return;
  const name = action.getAttribute("data-action");
  if (name === "ready") {
    handover.hidden = true;
    board.draw();
  } else if (name === "draw" || name === "resign") endByPlayers(name);
  else if (name === "new") void start(null);
  else if (name === "close") {
    box.hidden = true;
    document.body.classList.remove("passing");
  }
});

/**
 * Opens pass-and-play: the game kept as current if a page was closed during one, else a new game of the
 * form's choice. ``chosen`` null: a new game of the same kind as the one on the board.
 * @param {{game: string, options: Record<string, any>, handover: boolean} | null} chosen
 */
export async function start(chosen) {
  if (chosen) hideBetweenTurns = chosen.handover;
  const kept = chosen ? currentGame(localStorage) : null;
  const game = chosen ? chosen.game : record.game;
  const options = chosen ? chosen.options : record.options;
  if (!chosen) localStorage.removeItem(CURRENT_KEY); // a new game on the board: the one there is given up
  await open(kept, game, options);
}
