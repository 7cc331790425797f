// @ts-check
// The open game of the game page: its board, moves to step through, polls, offers, resignation, rematch,
// review and moves kept offline. mchezo.js fetches this script (and board.js beside it) only once a game is
// opened, so a first visit to the create form does without them (docs/offline.md, "Numbers").
// Every move goes to the server, which checks it with the rules layer; the page only draws what it is told.
import { ApiError, call, player, storedPlayer } from "./api.js";
import { Board } from "./board.js";
import {
  againstComputer, colourName, daysLeft, failureText, inCheck, playerName, refusalOf, resultText,
} from "../modules/game_text.js";
import { setUpInviteButtons } from "../modules/invite_buttons.js";
import { plural } from "../modules/i18n.js";
import { awaitsRematch, blockOpponent, opponentIsPerson, rematchBody, rematchControls, rematchNote } from "../modules/rematch.js";
import { captureHops } from "../modules/capture_hops.js";
import { moveTexts, withAllMoves } from "../modules/move_list.js";
import { MoveSteps } from "../modules/move_steps.js";
import { PositionCache } from "../modules/positions.js";
import { boardMoves, lastMoveSquares, moveText } from "../modules/notation.js";
import { config } from "../modules/page_config.js";
import { onFirstUse } from "../modules/first_use.js";
import { setUpReview } from "../modules/review_view.js";
import { setUpReactions } from "../modules/reaction_panel.js";
import { setUpOfflineMoves } from "../modules/offline_moves.js";
import { inviteUrl, mySeat, rememberSeat, showGameInAddress, unwrap } from "../modules/seats.js";
import { say } from "../modules/status_line.js";
import { LIVE_POLL_MS, TurnClock, isLive } from "../modules/turn_clock.js";
import { LiveFeed, messageAction } from "../modules/live_feed.js";

const cfg = config();
const m = cfg.messages;
/** @type {import("../types").Colour[]} the two sides, as the builder spells them (shared_rules/names.py) */
const COLOURS = cfg.colours;
const POLL_MS = 5000;
// While the opponent may move, offer or answer a draw, or resign: any of them shows within 5 s. A poll
// that finds nothing new is a 304 of a few hundred bytes (the ETag).
const OPPONENT_POLL_MS = 2500;
const LEGAL_KEY = "ubao.showLegal";

const $ = (selector, root = document) => root.querySelector(selector);
const gameBox = $("#game");
const createForm = $("#create-form");
const status = $(".status", gameBox);
// A live table's countdown on the board; the server's clock decides, this only shows it (turn_clock.js).
const turnClock = new TurnClock($(".turn-clock", gameBox), (n, mine) => plural(m, mine ? "seconds_left_you" : "seconds_left", n));

let state = null; // the game as GET /v1/games/{id} returns it
let etag = null;
let board = null;
let pollTimer = null;
let pollEvery = POLL_MS;
let positions = null; // the game's positions by ply, for stepping through its moves (positions.js)
const reviewBox = $(".review", gameBox);
const review = setUpReview(reviewBox, { messages: m, api: { call, player }, board: () => board, backToGame: () => render(state) });

function render(game) {
  const before = state;
  state = game;
  const seat = mySeat(game, COLOURS, storedPlayer());
  // The rematch agreed while this page watched the old game (the opponent accepted): the new game, at once.
  if (seat && game.rematch && before && before.id === game.id && !before.rematch) return void openGame(game.rematch);
  const over = game.status && game.status.result !== "ongoing";
  const both = game.players && game.players.white && game.players.black;
  const takeover = game.cpu_takeover || null; // the computer plays on for a player whose time ran out
  const live = isLive(game); // a turn of 30 or 60 s: the server lets the computer play on, nobody claims
  const myTurn = !over && seat && game.turn === seat && both && !(takeover && takeover.seat === seat);
  showGame();
  // TV (tv.js) follows the game as drawn here, whichever way it came (the live socket or a poll).
  document.dispatchEvent(new CustomEvent("ubao:game", { detail: game }));
  $(".game-title", gameBox).textContent = m.game_titles[game.game] || game.game;
  const names = COLOURS.map((c) => `${colourName(m, game.game, c)}: ${playerName(m, game.players && game.players[c], c === seat)}`);
  $(".players", gameBox).textContent = names.join(" · ");

  const legal = myTurn ? boardMoves(game.game, game.legal_moves_uci || game.legal_moves) : null;
  const last = lastMoveSquares(game);
  const check = inCheck(game.game, moveTexts(game.moves)); // a mated king is marked too; the result says mate
  // The opponent's move, come in by a poll or a push, slides in (board_view.js; none with reduced motion).
  const theirs = before && board && before.id === game.id && game.ply === before.ply + 1 && seat && game.turn === seat;
  // A multi-capture of theirs goes hop by hop, the pieces it takes marked until they go.
  const hops = theirs && game.last_move ? captureHops(game.game, cfg.squares[game.game], before.fen, game.fen, game.last_move) : null;
  // An invitee not yet seated sees the board from the seat the invitation offers, as the invitation says.
  const orientation = seat || (!both && COLOURS.find((c) => !(game.players && game.players[c]))) || "white";
  const options = { legal, last, orientation, check, slide: theirs ? last : null, hops };
  if (!board) {
    board = new Board($(".board-host", gameBox), {
      game: game.game, fen: game.fen, squares: cfg.squares[game.game], orientation,
      legal, messages: m, showLegal: localStorage.getItem(LEGAL_KEY) !== "off", onMove: (move) => send(moveText(game.game, move)),
      whyIdle,
    });
  }
  if (!positions || !before || before.id !== game.id) positions = new PositionCache((older) => positionPage(game.id, older));
  steps.update(game, positions);
  // The same position read again on the player's turn (the other player opened the table, a poll): the board
  // stays as it is, so a piece they have just picked up stays picked up.
  const unchanged = myTurn && before && before.id === game.id && before.ply === game.ply && board.fen === game.fen && board.interactive;
  if (steps.viewing === null && !unchanged) {
    board.setInteractive(!!myTurn); // first: drawing again after the position would cut its animation short
    board.setPosition(game.fen, options); // a past position stays on the board until they go back to the game
  }
  $(".move-form", gameBox).hidden = !myTurn;

  review.update(game, seat); // a finished game offers its review (review_view.js)

  const invite = $(".invite", gameBox);
  const link = inviteUrl(game);
  invite.hidden = !(link && !both);
  if (link) $("#invite-link").value = link;

  if (over) say(status, [resultText(m, game), rematchNote(game, seat, m)].filter(Boolean).join(" "), "ok");
  else if (!both && !seat) say(status, "");
  else if (!both) say(status, m.waiting_opponent);
  else if (!seat) say(status, m.spectating);
  else if (takeover && seat) say(status, takeover.seat === seat ? m.computer_plays_for_you : m.computer_plays_for_opponent);
  else if (check) say(status, myTurn ? m.check_your_turn : m.check_waiting, "bad");
  else if (myTurn) {
    const days = againstComputer(game, COLOURS) || live ? null : daysLeft(game.deadline); // the computer sets no deadline
    say(status, m.your_turn + (days === null ? "" : " " + plural(m, "deadline_days", days)));
  } else say(status, m.waiting_move);

  const offer = game.draw_offer;
  const show = (action, visible) => ($(`[data-action="${action}"]`, gameBox).hidden = !visible);
  show("offer", !over && both && seat && !offer);
  show("accept", !over && seat && offer && offer !== seat);
  show("decline", !over && seat && offer && offer !== seat);
  show("abort", !over && seat && both && !!game.abortable); // before each side's second move (fair play)
  show("resign", !over && seat && both && !(game.rated && game.abortable)); // a rated resignation that early aborts
  const timeUp = !live && !over && seat && both && game.turn !== seat && daysLeft(game.deadline) === 0;
  show("claim-timeout", timeUp);
  show("cpu-takeover", timeUp && !takeover);
  show("resume", !over && seat && takeover && takeover.seat === seat);
  for (const [control, visible] of Object.entries(rematchControls(game, seat))) show(control, visible);
  show("follow", !!seat && opponentIsPerson(game, seat)); // the community: follow the other player
  showReactions(game, seat, !!seat && opponentIsPerson(game, seat));
  if (!over && offer && seat) say(status, offer === seat ? m.draw_offered_by_you : m.draw_offered_to_you);
  else if (!over && seat && game.draw_declined === seat) say(status, `${m.draw_declined} ${status.textContent}`);
  // Asked for rated, played casual (the pair's rated games of the day are played): said before the first move.
  const casual = game.casual_reason && !over ? m["casual_" + game.casual_reason] : null;
  if (casual) say(status, `${casual} ${status.textContent}`);
  const download = $(".download", gameBox);
  download.href = `/v1/games/${encodeURIComponent(game.id)}/export`;

  turnClock.show(game, seat);
  if (live && !over && seat && (game.unopened || []).includes(seat)) sayOpened(game.id);
  // On your own turn only the computer can be heard from, and it answers at once: a slow poll will do.
  // A live table follows the game on the live socket, and then reads it only when the turn's time is up (the
  // read that lets the computer play on); without the socket it polls every second, as before.
  if (live && !over) feed.follow(game.id, (game.moves || []).length);
  else feed.stop();
  const socketed = live && feed.live;
  pollEvery = socketed ? untilTimeIsUp(game) : live ? LIVE_POLL_MS : myTurn && againstComputer(game, COLOURS) ? POLL_MS * 3 : OPPONENT_POLL_MS;
  const rematchPoll = awaitsRematch(game, seat) ? OPPONENT_POLL_MS : null; // an offer or its answer shows
  schedulePoll(over ? rematchPoll : pollEvery);
  dispatchEvent(new Event("ubao:game-changed")); // the inbox and the title count (inbox.js)
}

const opened = new Set(); // the live tables this page said it opened (sayOpened)

/**
 * Tell the server this player is at the live table (fair play): its first turn's clock starts once both players
 * have, whether the page follows the game on the socket or polls. Once a game, unless it failed.
 * @param {string} id
 */
function sayOpened(id) {
  if (opened.has(id)) return;
  opened.add(id);
  player()
    .then((me) => call("POST", `/v1/games/${encodeURIComponent(id)}/open`, { token: me.token }))
    .then(() => state && state.id === id && load(id))
    .catch(() => opened.delete(id));
}

/** Show game ``id`` (a rematch) in place of this one. @param {string} id @param {string} [seat] */
async function openGame(id, seat) {
  if (seat) rememberSeat(id, seat);
  board = null;
  showGameInAddress(id);
  await load(id);
  scrollTo(0, 0); // its board at the top, as a game opened from a link
}

/** What a tap on the board says while it takes no move: the computer has the seat, or it is not your turn. */
function whyIdle() {
  const game = state;
  const seat = game && mySeat(game, COLOURS, storedPlayer());
  if (!seat || steps.viewing !== null || $(".board-host", gameBox).classList.contains("sending")) return null;
  if (game.status && game.status.result !== "ongoing") return m.refusal_game_over;
  if (game.cpu_takeover && game.cpu_takeover.seat === seat) return m.computer_plays_for_you;
  return game.turn !== seat ? m.refusal_not_your_turn : null;
}

/** The game in place of the page's introduction and create form: its board at the top of the screen. */
function showGame() {
  gameBox.hidden = false;
  createForm.closest("section").hidden = true;
  document.body.classList.add("game-open");
}


// The move list under the board, to step through (move_steps.js); "back to the game" draws it as it is now.
const steps = new MoveSteps({
  list: $(".moves", gameBox), controls: $(".move-steps", gameBox), board: () => board, live: () => render(state),
  squares: (game) => cfg.squares[game],
});

/** A page of the game's moves with the position after each (GET /v1/games/{id}/moves?positions=true). */
function positionPage(id, older) {
  const before = older ? `&before=${older}` : "";
  return call("GET", `/v1/games/${encodeURIComponent(id)}/moves?positions=true&limit=60${before}`);
}

/** While the socket carries a live game: one read just after the turn's time is up (at least every 30 s). */
function untilTimeIsUp(game) {
  return Math.min(30000, Math.max(LIVE_POLL_MS, (game.turn_ms_left ?? 30000) + 500));
}

// The live socket (live_feed.js): a newer state of the game on screen is drawn as a poll's answer would be.
const feed = new LiveFeed({
  ticket: () => call("POST", "/v1/live/tickets", { token: storedPlayer()?.token }),
  onMessage: fromSocket,
  onChange: () => state && render(state), // the socket opened or dropped: the polls' pace changes
  origin: location.origin,
});

async function fromSocket(message) {
  const action = messageAction(message, state, etag);
  if (action === "poll") return poll(); // moves are missing between: read them
  if (action !== "apply") return;
  const fresh = await allMoves({ ...message.state, _etag: message.etag }, state.moves || []);
  if (messageAction(message, state, etag) !== "apply") return; // a poll or a load drew it (or newer) meanwhile
  etag = message.etag;
  render(fresh);
}

function schedulePoll(ms) {
  clearTimeout(pollTimer);
  if (ms) pollTimer = setTimeout(poll, ms);
}

async function poll() {
  if (!state) return;
  if (document.hidden) return schedulePoll(POLL_MS);
  try {
    // Only the moves after ours: the answer's size does not grow with the game.
    const known = state.moves || [];
    const asked = state.id;
    const path = `/v1/games/${encodeURIComponent(asked)}?moves_after=${known.length}`;
    const fresh = await call("GET", path, { etag });
    if (state.id !== asked) return; // another game opened meanwhile (a rematch): this answer is old news
    // A poll that crossed a load on the wire brings the version on screen: its notes stay.
    if (fresh.notModified || (fresh._etag && fresh._etag === etag)) return schedulePoll(pollEvery);
    etag = fresh._etag;
    render(await allMoves(fresh, known));
  } catch {
    schedulePoll(POLL_MS * 2);
  }
}

/** The game read again, with its moves, and drawn. @param {string} id @param {Promise<any>} [answer] */
async function load(id, answer) {
  outbox().catch(() => {}); // fetched beside the game: a move made offline needs it
  const fresh = await allMoves(await (answer || call("GET", `/v1/games/${encodeURIComponent(id)}`)), []);
  etag = fresh._etag;
  render(fresh);
  return fresh;
}

/** The game with its whole move list (move_list.js), the older pages from GET /v1/games/{id}/moves. */
function allMoves(fresh, known) {
  const earlierPage = (before) => call("GET", `/v1/games/${encodeURIComponent(fresh.id)}/moves?before=${before}&limit=200`);
  return withAllMoves(fresh, known, earlierPage);
}

// Every action answers with the game's state; the page then reads the whole game (with its moves) again.
async function act(path, body) {
  if (lock.busy) return null;
  lock.busy = true;
  try {
    const me = await player();
    const answer = await call("POST", `/v1/games/${encodeURIComponent(state.id)}/${path}`, { body, token: me.token });
    etag = null;
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.body) {
      await load(state.id).catch(() => {});
      say(status, refusalOf(m, error.body.error, error.body.legal_moves || [], state.game), "bad");
    } else if (path === "moves") {
      await offline.keepOffline(body);
    } else say(status, m.network_error, "bad");
    return null;
  } finally {
    lock.busy = false;
  }
}

// The outbox (outbox.js) matters only once a game is open: the create form's first visit does
// without it, and a game's page fetches it beside the game (load), before a move can be made.
const outbox = onFirstUse(() =>
  import("./outbox.js").then((module) => {
    module.whenDelivered(offline.sendQueued);
    return module;
  }),
);
const lock = { busy: false }; // one action at a time, the offline sender's included
const offline = setUpOfflineMoves({
  messages: m, game: () => state, board: () => board, say: (text, kind) => say(status, text, kind), load, lock, outbox,
});

/** A move, shown as being sent (the board still, its status saying so) until the server answers. */
async function send(text) {
  steps.backToGame(); // a move typed while a past position is shown is played on the game as it is now
  const host = $(".board-host", gameBox);
  host.classList.add("sending");
  board.setInteractive(false);
  say(status, m.sending_move);
  try {
    if (await act("moves", { move: text, ply: state.ply })) await load(state.id);
  } finally {
    host.classList.remove("sending");
  }
}

/**
 * Show the game ``id`` from scratch (a new board): ``answer``, when given, is its GET /v1/games/{id} already
 * on the way (mchezo.js asks for it beside this script).
 * @param {string} id
 * @param {Promise<any>} [answer]
 */
export function show(id, answer) {
  board = null;
  return load(id, answer);
}

/** The status line of the game, for the page around it. @param {string} text @param {string} [kind] */
export const sayInGame = (text, kind) => say(status, text, kind);

/**
 * What follows the first showing of a game on this page: its top in view, a move kept offline sent, and back
 * at a live table on the same device, the seat the computer kept taken back at once.
 * @param {any} game
 */
export async function settle(game) {
  scrollTo(0, 0);
  offline.sendQueued();
  const seat = mySeat(game, COLOURS, storedPlayer());
  if (isLive(game) && seat && game.cpu_takeover?.seat === seat && (await act("resume", {}))) await load(game.id);
}

const reactionsPath = () => `/v1/games/${encodeURIComponent(state.id)}/reactions`;
const showReactions = setUpReactions($(".reactions", gameBox), {
  send: (reaction) =>
    player().then((me) => call("POST", reactionsPath(), { body: { reaction }, token: me.token })).then(() => load(state.id)),
  mute: (muted) =>
    player().then((me) => call("POST", reactionsPath() + "/mute", { body: { muted }, token: me.token })).then(() => load(state.id)),
});

setUpInviteButtons(
  m,
  () => m.game_titles[state.game] || state.game,
  (text, kind) => say(status, text, kind),
  async (text) => (await import("./qr.js")).qrSvg(text),
);

gameBox.addEventListener("click", async (event) => {
  const action = event.target.closest("[data-action]")?.dataset.action;
  if (!action) return;
  if (action === "resign" && !confirm(m.confirm_resign)) return;
  let answer;
  if (["offer", "accept", "decline"].includes(action)) answer = await act("draw", { action });
  else if (action === "resign") answer = await act("resign", {});
  else if (action === "abort") answer = await act("abort", {});
  else if (["claim-timeout", "cpu-takeover", "resume"].includes(action)) answer = await act(action, {});
  else if (action === "block") {
    if (!confirm(m.confirm_block)) return;
    const blocked = blockOpponent(state.id, m, { call, player });
    return blocked.then((text) => say(status, text, "ok"), (error) => say(status, failureText(m, error), "bad"));
  } else if (action === "follow") {
    const followed = player().then((me) => call("POST", "/v1/players/me/follows", { body: { game: state.id }, token: me.token }));
    return followed.then(() => say(status, m.player_followed, "ok"), (error) => say(status, failureText(m, error), "bad"));
  } else if (action === "open-rematch") return openGame(state.rematch);
  else if (rematchBody(action)) {
    answer = await act("rematch", rematchBody(action));
    const fresh = answer && unwrap(answer);
    if (fresh && fresh.id !== state.id) return openGame(fresh.id, answer.seat); // agreed: the new game
  }
  if (answer) await load(state.id);
});

$(".move-form", gameBox).addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("input", event.target);
  if (input.value.trim()) send(input.value.trim());
  input.value = "";
});

const legalBox = $("#show-legal");
legalBox.checked = localStorage.getItem(LEGAL_KEY) !== "off";
legalBox.addEventListener("change", () => {
  localStorage.setItem(LEGAL_KEY, legalBox.checked ? "on" : "off");
  if (board) {
    board.showLegal = legalBox.checked;
    board.draw();
  }
});

// A push about the game on screen (push.js, from the service worker): read it now, not at the next poll.
window.addEventListener("ubao:push", (/** @type {CustomEvent} */ event) => state && event.detail.game === state.id && poll());
