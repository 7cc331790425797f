// @ts-check
// The game page: create a game, join one from its invite link, the lobby, the player's name and games. The
// open game (its board, moves, offers, rematch, review) is game.js, fetched with board.js only once a game
// is opened: a first visit to the create form needs neither (docs/offline.md, "Numbers").
import { ApiError, call, player, storedPlayer } from "./api.js";
import "./friends.js";
import { failureText, invitationText } from "../modules/game_text.js";
import { showMissingGame } from "../modules/missing_game.js";
import { formOptions } from "../modules/lobby_match.js";
import { rememberChoices } from "../modules/form_memory.js";
import { setUpLobby } from "../modules/lobby_panel.js";
import { config } from "../modules/page_config.js";
import { onFirstUse } from "../modules/first_use.js";
import { saveName, setUpNameForm } from "../modules/player_name.js";
import { gamePlace, keepGameInLanguageLinks, mySeat, rememberInvite, rememberSeat, showGameInAddress, unwrap } from "../modules/seats.js";
import { say } from "../modules/status_line.js";

const cfg = config();
const m = cfg.messages;
/** @type {import("../types").Colour[]} the two sides, as the builder spells them (shared_rules/names.py) */
const COLOURS = cfg.colours;

const $ = (selector, root = document) => root.querySelector(selector);
const gameBox = $("#game");
const joinBox = $("#join");
const createForm = $("#create-form");
const nameForm = $("#name-form");

// The open game's script, board.js asked for beside it rather than after it: one round trip for both.
const gameView = onFirstUse(() => Promise.all([import("./game.js"), import("./board.js")]).then(([view]) => view));

createForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const formStatus = $(".status", createForm);
  const data = new FormData(createForm);
  const game = data.get("game");
  const options = formOptions(data, $(`fieldset[data-game="${game}"]`, createForm));
  say(formStatus, m.loading);
  try {
    await saveName(nameForm, saveNameOnServer);
    const me = await player();
    const body = { game, color: data.get("color"), options, rated: data.get("rated") === "on" };
    const opponent = data.get("opponent");
    if (opponent && opponent !== "friend") body.opponent = { type: "cpu", level: Number(opponent) };
    const created = await call("POST", "/v1/games", { body, token: me.token });
    const fresh = unwrap(created);
    rememberSeat(fresh.id, created.seat);
    if (created.invite) rememberInvite(fresh.id, created.invite.url);
    showGameInAddress(fresh.id);
    say(formStatus, "");
    await (await gameView()).show(fresh.id);
    scrollTo(0, 0);
  } catch (error) {
    say(formStatus, failureText(m, error), "bad");
  }
});

function showOptionsFor(game) {
  for (const fieldset of createForm.querySelectorAll("fieldset.options")) fieldset.hidden = fieldset.dataset.game !== game;
}
rememberChoices(createForm); // the last game, its options and the rest, as this phone chose them last
$("#game-choice").addEventListener("change", (event) => showOptionsFor(event.target.value));
showOptionsFor($("#game-choice").value);

$("#join-button").addEventListener("click", async () => {
  const { id, invite } = gamePlace();
  try {
    await saveName(nameForm, saveNameOnServer);
    const me = await player();
    const joined = await call("POST", `/v1/games/${encodeURIComponent(id)}/join`, { body: { invite }, token: me.token });
    rememberSeat(id, joined.seat);
    joinBox.hidden = true;
    showGameInAddress(id);
    const view = await gameView();
    await view.show(id);
    view.sayInGame(m.joined, "ok");
  } catch (error) {
    say($(".invite-text", joinBox), failureText(m, error), "bad");
  }
});

/** The invitation: who invites, to which game, the invitee's colour and the days per move. */
function showInvitation(game) {
  const { invitation, terms } = invitationText(m, game, COLOURS);
  $(".invite-text", joinBox).textContent = invitation;
  $(".invite-terms", joinBox).textContent = terms;
}

async function start() {
  const { id, invite } = gamePlace();
  keepGameInLanguageLinks();
  if (!id) return; // the player's games are in the inbox at the top (inbox.js)
  // The game is asked for beside its script (game.js), not after it: one round trip for both on a slow link.
  const answer = call("GET", `/v1/games/${encodeURIComponent(id)}`);
  answer.catch(() => {}); // read below, once the script is here
  try {
    const view = await gameView();
    const game = await view.show(id, answer);
    await view.settle(game);
    const seat = mySeat(game, COLOURS, storedPlayer());
    const full = game.players && game.players.white && game.players.black;
    if (invite && !seat && !full) {
      joinBox.hidden = false;
      $("#join-button").before(nameForm);
      showInvitation(game);
      joinBox.scrollIntoView({ block: "start" });
    }
  } catch (error) {
    gameBox.hidden = false;
    if (error instanceof ApiError && error.status === 404) showMissingGame(gameBox, m);
    else say($(".status", gameBox), m.network_error, "bad");
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

// The lobby: its challenges open a game here, as a link to one would (start() loads it).
setUpLobby($("#lobby"), createForm, {
  m, call, player, storedPlayer,
  isRefusal: (error) => error instanceof ApiError && !!error.body,
  beforeActing: () => saveName(nameForm, saveNameOnServer),
  openGame: (id, seat) => {
    if (seat) rememberSeat(id, seat);
    location.hash = `#game=${encodeURIComponent(id)}`;
    scrollTo(0, 0);
  },
});

// One phone for two (pass_and_play.js, fetched at the first tap): the game and table options chosen above.
$("#pass-play-start").addEventListener("click", async () => {
  const data = new FormData(createForm);
  const game = String(data.get("game"));
  const options = formOptions(data, $(`fieldset[data-game="${game}"]`, createForm));
  const view = await import("./pass_and_play.js");
  await view.start({ game, options, handover: $("#pass-handover").checked });
});

window.addEventListener("hashchange", start);
start();
// TV (Tazama): a game followed until it ends, then the next one on the air (tv.js, only in TV mode).
if (new URLSearchParams(location.hash.slice(1)).get("tv")) import("./tv.js").catch(() => {});

// The player's display name (player_name.js), saved from its own form too.
/** @param {string} name */
async function saveNameOnServer(name) {
  const me = await player();
  await call("PATCH", "/v1/players/me", { body: { name }, token: me.token });
}
setUpNameForm(nameForm, saveNameOnServer, (saved, error) => {
  const note = $(".status", nameForm);
  if (saved) say(note, m.name_saved, "ok");
  else say(note, failureText(m, error), "bad");
});
