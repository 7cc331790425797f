// The game page: create a game, share the invite link, join from it, move, poll, draw, resign, rematch.
// Every move goes to the server, which checks it with the rules layer; the page only draws what it is told.
import { ApiError, boardMoves, call, moveText, player, storedPlayer } from "./api.js";
import { Board, config, format, plural, refusalText } from "./board.js";

const cfg = config();
const m = cfg.messages;
const POLL_MS = 5000;
const OPPONENT_POLL_MS = 2500; // on the opponent's turn a draw offer or resignation shows within 5 s (issue 11)
const LEGAL_KEY = "ubao.showLegal";
const SEATS_KEY = "ubao.seats";
const INVITES_KEY = "ubao.invites";
const NAME_KEY = "ubao.name";

const $ = (selector, root = document) => root.querySelector(selector);
const gameBox = $("#game");
const joinBox = $("#join");
const createForm = $("#create-form");
const nameForm = $("#name-form");
const nameInput = $("input", nameForm);
const status = $(".status", gameBox);

let state = null; // the game as GET /v1/games/{id} returns it
let etag = null;
let board = null;
let pollTimer = null;
let busy = false;

function say(node, text, kind) {
  node.textContent = text;
  node.classList.remove("ok", "bad"); // its own classes stay: the join box finds its text again after a refusal
  node.classList.add("status");
  if (kind) node.classList.add(kind);
}

function colourName(game, colour) {
  if (colour === "white") return game === "english" ? m.red : m.white;
  return m.black;
}

function place() {
  // Invite links look like /game/?id=ID#invite=CODE (the games API) or #game=ID&invite=CODE (this page).
  const params = new URLSearchParams(location.search.slice(1));
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) params.set(key, value);
  return { id: params.get("game") || params.get("id"), invite: params.get("invite") || params.get("code") };
}

function remembered(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

function remember(key, id, value) {
  const all = remembered(key);
  all[id] = value;
  localStorage.setItem(key, JSON.stringify(all));
}

/** The game inside an answer: POST /v1/games and /join and /rematch wrap it as {game, seat, invite}. */
function unwrap(answer) {
  return answer && answer.game && typeof answer.game === "object" ? answer.game : answer;
}

function mySeat(game) {
  const me = storedPlayer();
  if (!game || !me) return null;
  const seat = remembered(SEATS_KEY)[game.id];
  if (seat) return seat;
  for (const colour of ["white", "black"]) {
    const seat = game.players && game.players[colour];
    if (seat && seat.player_id && seat.player_id === me.player_id) return colour;
  }
  return null;
}

function inviteUrl(game) {
  const url = remembered(INVITES_KEY)[game.id];
  return url ? new URL(url, location.origin).href : null;
}

function resultText(game) {
  const { result, reason } = game.status;
  let text = result === "draw" ? m.result_draw : result === "white" ? (game.game === "english" ? m.result_red : m.result_white) : m.result_black;
  if (reason && m["reason_" + reason]) text = text.replace(/\.$/, "") + " " + m["reason_" + reason] + ".";
  return text;
}

function daysLeft(deadline) {
  if (!deadline) return null;
  const ms = new Date(deadline).getTime() - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.ceil(ms / 86400000)) : null;
}

function render(game) {
  state = game;
  const seat = mySeat(game);
  const over = game.status && game.status.result !== "ongoing";
  const both = game.players && game.players.white && game.players.black;
  const takeover = game.cpu_takeover || null; // the computer plays on for a player whose time ran out
  const myTurn = !over && seat && game.turn === seat && both && !(takeover && takeover.seat === seat);
  gameBox.hidden = false;
  createForm.closest("section").hidden = true;
  $(".game-title", gameBox).textContent = m.game_titles[game.game] || game.game;
  const names = ["white", "black"].map((c) => `${colourName(game.game, c)}: ${playerName(game.players && game.players[c], c === seat)}`);
  $(".players", gameBox).textContent = names.join(" · ");

  const legal = myTurn ? boardMoves(game.game, game.legal_moves_uci || game.legal_moves) : null;
  const last = lastSquares(game);
  const options = { legal, last, orientation: seat || "white" };
  if (!board) {
    board = new Board($(".board-host", gameBox), {
      game: game.game, fen: game.fen, squares: cfg.squares[game.game], orientation: seat || "white",
      legal, messages: m, showLegal: localStorage.getItem(LEGAL_KEY) !== "off", onMove: (move) => send(moveText(game.game, move)),
    });
    board.setPosition(game.fen, options);
  } else {
    board.setPosition(game.fen, options);
  }
  board.setInteractive(!!myTurn);
  $(".move-form", gameBox).hidden = !myTurn;

  renderMoves($(".moves", gameBox), game);

  const invite = $(".invite", gameBox);
  const link = inviteUrl(game);
  invite.hidden = !(link && !both);
  if (link) $("#invite-link").value = link;

  if (over) say(status, resultText(game), "ok");
  else if (!both && !seat) say(status, "");
  else if (!both) say(status, m.waiting_opponent);
  else if (!seat) say(status, m.spectating);
  else if (takeover && seat) say(status, takeover.seat === seat ? m.computer_plays_for_you : m.computer_plays_for_opponent);
  else if (myTurn) {
    const days = daysLeft(game.deadline);
    say(status, m.your_turn + (days === null ? "" : " " + plural(m, "deadline_days", days)));
  } else say(status, m.waiting_move);

  const offer = game.draw_offer;
  const show = (action, visible) => ($(`[data-action="${action}"]`, gameBox).hidden = !visible);
  show("offer", !over && both && seat && !offer);
  show("accept", !over && seat && offer && offer !== seat);
  show("decline", !over && seat && offer && offer !== seat);
  show("resign", !over && seat && both);
  const timeUp = !over && seat && both && game.turn !== seat && daysLeft(game.deadline) === 0;
  show("claim-timeout", timeUp);
  show("cpu-takeover", timeUp && !takeover);
  show("resume", !over && seat && takeover && takeover.seat === seat);
  show("rematch", over && seat);
  if (!over && offer && seat) say(status, offer === seat ? m.draw_offered_by_you : m.draw_offered_to_you);
  const download = $(".download", gameBox);
  download.href = `/v1/games/${encodeURIComponent(game.id)}/export`;

  schedulePoll(over ? null : myTurn ? POLL_MS * 3 : OPPONENT_POLL_MS);
  dispatchEvent(new Event("ubao:game-changed")); // the inbox and the title count (inbox.js)
}

/** A seat's name as the page shows it: the player's display name, "you", the computer, or "waiting". */
function playerName(seat, mine) {
  if (!seat) return m.nobody_yet;
  const name = seat.cpu_level ? format(m.computer_level, { level: seat.cpu_level }) : seat.name || m.anonymous;
  if (!mine) return name;
  return seat.name ? `${seat.name} (${m.you})` : m.you;
}

/** The moves in numbered pairs: "1. e4 e5", "1. 11-15 23-19" (the <ol> numbers each pair). */
function renderMoves(list, game) {
  list.textContent = "";
  const moves = (game.moves || []).map((move) => (typeof move === "string" ? move : move.san || move.move || move.notation));
  // A game set up with the second player to move starts its first pair with "…".
  const firstMover = game.game === "english" ? "black" : "white";
  const startsSecond = moves.length && ((game.turn === firstMover) === (moves.length % 2 === 1));
  const padded = startsSecond ? ["…", ...moves] : moves;
  for (let i = 0; i < padded.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = padded.slice(i, i + 2).join(" ");
    list.append(li);
  }
}

function lastSquares(game) {
  if (game.game === "chess") {
    // Chess names the last move's squares in UCI (e2e4); SAN would need the rules.
    const uci = game.last_move_uci;
    return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null;
  }
  const moves = game.moves || [];
  const lastMove = game.last_move || moves[moves.length - 1];
  if (!lastMove) return null;
  const squares = String(lastMove).split(/[-x]/);
  return squares.length > 1 ? [squares[0], squares[squares.length - 1]] : null;
}

function schedulePoll(ms) {
  clearTimeout(pollTimer);
  if (ms) pollTimer = setTimeout(poll, ms);
}

async function poll() {
  if (!state) return;
  if (document.hidden) return schedulePoll(POLL_MS);
  try {
    // Only the moves after ours: the answer's size does not grow with the game (issue 17).
    const known = state.moves || [];
    const path = `/v1/games/${encodeURIComponent(state.id)}?moves_after=${known.length}`;
    const fresh = await call("GET", path, { etag });
    if (fresh.notModified) return schedulePoll(POLL_MS);
    etag = fresh._etag;
    render(await withAllMoves(fresh, known));
  } catch {
    schedulePoll(POLL_MS * 2);
  }
}

async function load(id) {
  outbox().catch(() => {}); // fetched beside the game: a move made offline needs it
  const fresh = await withAllMoves(await call("GET", `/v1/games/${encodeURIComponent(id)}`), []);
  etag = fresh._etag;
  render(fresh);
  return fresh;
}

/** The game with its whole move list: the moves it carries (the latest, or those after ours), ours before
 * them, and, where there is a gap (`earlier`), the older pages of GET /v1/games/{id}/moves. */
async function withAllMoves(fresh, known) {
  const latest = fresh.moves || [];
  let before = known.slice(0, fresh.moves_from || 0);
  if (fresh.earlier) {
    before = [];
    for (let earlier = fresh.earlier; earlier; ) {
      const path = `/v1/games/${encodeURIComponent(fresh.id)}/moves?before=${earlier}&limit=200`;
      const page = await call("GET", path);
      before = page.moves.concat(before);
      earlier = page.earlier;
    }
  }
  fresh.moves = before.concat(latest);
  return fresh;
}

/**
 * What the server refused, in the page's language: a move by its `reason`, anything else by its `code`
 * (`detail` is the answer's `error`). The server's `message` is English, for developers: never shown.
 */
function refusalOf(detail, legalMoves = []) {
  const { code, reason } = detail || {};
  if (reason) return refusalText(m, reason, { moves: legalMoves });
  return m["error_" + code] || m.request_refused;
}

/** A failed request's text: the server's refusal, or the network's failure. */
function failureText(error) {
  return error instanceof ApiError ? refusalOf(error.body && error.body.error) : m.network_error;
}

// Every action answers with the game's state; the page then reads the whole game (with its moves) again.
async function act(path, body) {
  if (busy) return null;
  busy = true;
  try {
    const me = await player();
    const answer = await call("POST", `/v1/games/${encodeURIComponent(state.id)}/${path}`, { body, token: me.token });
    etag = null;
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.body) {
      await load(state.id).catch(() => {});
      say(status, refusalOf(error.body.error, error.body.legal_moves || []), "bad");
    } else if (path === "moves") {
      await keepOffline(body);
    } else say(status, m.network_error, "bad");
    return null;
  } finally {
    busy = false;
  }
}

/** A move the network did not carry: kept with its ply and sent when the connection returns (issue 12). */
async function keepOffline(body) {
  const kept = await outbox().catch(() => null);
  if (!kept) return say(status, m.network_error, "bad");
  await kept.queueMove(state.id, body).catch(() => {});
  say(status, kept.offlineText("moveQueued", { move: body.move }), "bad");
}

/**
 * The move made offline for this game: sent now, or, if the service worker sent it meanwhile (Background
 * Sync), what the server said then. A 409 means the opponent moved first: the game is shown as it is now.
 */
async function sendQueued() {
  if (!state || busy) return;
  const id = state.id;
  const kept = await outbox().catch(() => null);
  if (!kept || busy) return;
  const { dropMove, offlineText, queuedMove, withOutbox } = kept;
  busy = true;
  try {
    await withOutbox(async () => {
      const queued = await queuedMove(id).catch(() => null);
      if (!queued) return;
      const outcome = queued.outcome || (await deliver(id, queued));
      if (!outcome) return; // still offline: kept for the next try
      await dropMove(id);
      await load(id).catch(() => {});
      if (outcome.kind === "sent") say(status, offlineText("moveSent", { move: queued.move }), "ok");
      else if (outcome.kind === "conflict") say(status, offlineText("opponentFirst", { move: queued.move }), "bad");
      else say(status, refusalOf(outcome), "bad"); // {code, reason}, as the page or the service worker kept it
    });
  } finally {
    busy = false;
  }
}

/** Send a kept move; what the server said, as the worker records it, or null when the network failed. */
async function deliver(id, queued) {
  try {
    const me = await player();
    const body = { move: queued.move, ply: queued.ply };
    await call("POST", `/v1/games/${encodeURIComponent(id)}/moves`, { body, token: me.token });
    return { kind: "sent" };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) return null; // kept: the server may answer later
    if (error.status === 409) return { kind: "conflict" };
    const { code, reason } = (error.body && error.body.error) || {};
    return { kind: "refused", code, reason };
  }
}

window.addEventListener("online", sendQueued);

// The outbox (outbox.js, issue 12) matters only once a game is open: the create form's first visit does
// without it, and a game's page fetches it beside the game (load), before a move can be made.
let outboxModule = null;
function outbox() {
  if (!outboxModule) {
    outboxModule = import("./outbox.js").then((module) => {
      module.whenDelivered(sendQueued);
      return module;
    });
    outboxModule.catch(() => {
      outboxModule = null; // offline before the worker kept it: the next call tries again
    });
  }
  return outboxModule;
}

async function send(text) {
  if (await act("moves", { move: text, ply: state.ply })) await load(state.id);
}

function open(id, extra = "") {
  history.replaceState(null, "", `#game=${encodeURIComponent(id)}${extra}`);
  keepGameInLanguageLinks();
}

/** The language links carry the game (and invite) in their hash, so switching language keeps the game. */
function keepGameInLanguageLinks() {
  for (const link of document.querySelectorAll(".langs a[hreflang]")) {
    const url = new URL(link.href, location.href);
    url.search = location.search;
    url.hash = location.hash;
    link.href = url.pathname + url.search + url.hash;
  }
}

createForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const formStatus = $(".status", createForm);
  const data = new FormData(createForm);
  const game = data.get("game");
  const options = { days_per_move: Number(data.get("days_per_move")), swap_colors: data.get("swap_colors") === "on" };
  const fieldset = $(`fieldset[data-game="${game}"]`, createForm);
  if (fieldset) {
    for (const input of fieldset.querySelectorAll("input")) {
      if (input.type === "checkbox") options[input.name] = input.checked;
      else if (input.value !== "") options[input.name] = Number(input.value);
    }
  }
  say(formStatus, m.loading);
  try {
    await saveName();
    const me = await player();
    const body = { game, color: data.get("color"), options };
    const opponent = data.get("opponent");
    if (opponent && opponent !== "friend") body.opponent = { type: "cpu", level: Number(opponent) };
    const created = await call("POST", "/v1/games", { body, token: me.token });
    const fresh = unwrap(created);
    remember(SEATS_KEY, fresh.id, created.seat);
    if (created.invite) remember(INVITES_KEY, fresh.id, created.invite.url);
    open(fresh.id);
    say(formStatus, "");
    board = null;
    await load(fresh.id);
    gameBox.scrollIntoView({ block: "start" });
  } catch (error) {
    say(formStatus, failureText(error), "bad");
  }
});

function showOptionsFor(game) {
  for (const fieldset of createForm.querySelectorAll("fieldset.options")) fieldset.hidden = fieldset.dataset.game !== game;
}
$("#game-choice").addEventListener("change", (event) => showOptionsFor(event.target.value));
showOptionsFor($("#game-choice").value);

$("#share-invite").hidden = !navigator.share;
$("#share-invite").addEventListener("click", async () => {
  const url = $("#invite-link").value;
  const text = format(m.share_text, { game: m.game_titles[state.game] || state.game });
  try {
    await navigator.share({ title: "ubao", text, url });
    say(status, m.share_done, "ok");
  } catch {
    /* the player closed the share sheet: nothing to say */
  }
});

$("#copy-invite").addEventListener("click", async () => {
  const link = $("#invite-link").value;
  try {
    await navigator.clipboard.writeText(link);
    say(status, m.link_copied, "ok");
  } catch {
    $("#invite-link").select();
    say(status, m.copy_failed);
  }
});

gameBox.addEventListener("click", async (event) => {
  const action = event.target.closest("[data-action]")?.dataset.action;
  if (!action) return;
  if (action === "resign" && !confirm(m.confirm_resign)) return;
  let answer;
  if (["offer", "accept", "decline"].includes(action)) answer = await act("draw", { action });
  else if (action === "resign") answer = await act("resign", {});
  else if (["claim-timeout", "cpu-takeover", "resume"].includes(action)) answer = await act(action, {});
  else if (action === "rematch") {
    answer = await act("rematch", {});
    if (answer) {
      const fresh = unwrap(answer);
      remember(SEATS_KEY, fresh.id, answer.seat);
      board = null;
      open(fresh.id);
      await load(fresh.id);
      return;
    }
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

$("#join-button").addEventListener("click", async () => {
  const { id, invite } = place();
  try {
    await saveName();
    const me = await player();
    const joined = await call("POST", `/v1/games/${encodeURIComponent(id)}/join`, { body: { invite }, token: me.token });
    remember(SEATS_KEY, id, joined.seat);
    joinBox.hidden = true;
    open(id);
    board = null;
    await load(id);
    say(status, m.joined, "ok");
  } catch (error) {
    say($(".invite-text", joinBox), failureText(error), "bad");
  }
});

/** The invitation: who invites, to which game, the invitee's colour and the days per move. */
function showInvitation(game) {
  const host = ["white", "black"].find((c) => game.players && game.players[c]);
  const guest = host === "white" ? "black" : "white";
  const title = m.game_titles[game.game] || game.game;
  const hostName = host && game.players[host].name;
  $(".invite-text", joinBox).textContent = hostName ? format(m.invited_by, { name: hostName, game: title })
    : format(m.invited_anonymous, { game: title });
  const days = game.options && game.options.days_per_move;
  $(".invite-terms", joinBox).textContent = format(m.invite_you_play, {
    colour: colourName(game.game, guest), days: days ? plural(m, "days_per_move", days) : "",
  });
}

async function start() {
  const { id, invite } = place();
  keepGameInLanguageLinks();
  if (!id) return; // the player's games are in the inbox at the top (inbox.js)
  board = null;
  try {
    const game = await load(id);
    sendQueued();
    const seat = mySeat(game);
    const full = game.players && game.players.white && game.players.black;
    if (invite && !seat && !full) {
      joinBox.hidden = false;
      $("#join-button").before(nameForm);
      showInvitation(game);
      joinBox.scrollIntoView({ block: "start" });
    }
  } catch {
    say(status, m.network_error, "bad");
    gameBox.hidden = false;
  }
}

// The inbox (inbox.js) lists the player's games: a browser without a player has none, so its script is
// fetched only once there is one (at once on a repeat visit, else after the first game created or joined).
let inboxLoaded = false;
function loadInbox() {
  if (inboxLoaded || !(storedPlayer() || {}).token) return;
  inboxLoaded = true;
  import("./inbox.js").catch(() => {
    inboxLoaded = false; // offline before the worker kept it: the next change tries again
  });
}
loadInbox();
window.addEventListener("ubao:game-changed", loadInbox);

window.addEventListener("hashchange", start);
// A push about the game on screen (push.js, from the service worker): read it now, not at the next poll.
window.addEventListener("ubao:push", (event) => state && event.detail.game === state.id && poll());
start();

// The player's display name: shown to the opponent, on the invitation and in the downloaded game. It is
// saved before creating or joining a game too, since a seat keeps the name its player had then.
async function saveName() {
  const name = nameInput.value.trim();
  if (!name || name === localStorage.getItem(NAME_KEY)) return;
  const me = await player();
  await call("PATCH", "/v1/players/me", { body: { name }, token: me.token });
  localStorage.setItem(NAME_KEY, name);
}

nameInput.value = localStorage.getItem(NAME_KEY) || "";
nameForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const note = $(".status", nameForm);
  try {
    await saveName();
    say(note, m.name_saved, "ok");
  } catch (error) {
    say(note, failureText(error), "bad");
  }
});
