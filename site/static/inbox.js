// @ts-check
// The "your move" inbox at the top of Mchezo: the player's games from GET /v1/players/me/games,
// those where it is their move first, then the ones waiting for the opponent, then the finished ones; each
// with the game, the opponent's name and the time left. The page title counts the games where it is your
// move, "(2) …". Read again every half minute while the page is seen, when it is seen again, and on a push.
import { call, storedPlayer } from "./api.js";
import { resultText, seatName } from "../modules/game_text.js";
import { format, plural } from "../modules/i18n.js";
import { config } from "../modules/page_config.js";

const REFRESH_MS = 30000;
const DAY_MS = 86400000;
/** @type {HTMLDetailsElement} the inbox folds open and shut */
const section = /** @type {any} */ (document.getElementById("inbox"));
const m = config().messages;
const baseTitle = document.title.replace(/^\(\d+\) /, "");
let timer = null;

function timeLeft(deadline) {
  const ms = new Date(deadline).getTime() - Date.now();
  if (!Number.isFinite(ms)) return "";
  if (ms < DAY_MS) return section.dataset.underADay;
  return plural(m, "days_left", Math.ceil(ms / DAY_MS)); // as the game page counts them
}

function line(game) {
  const parts = [m.game_titles[game.game] || game.game, format(m.vs, { name: seatName(m, game.opponent) })];
  if (game.rematch_of) parts.push(m.rematch_tag); // the rematch of an earlier game
  if (game.state === "finished") parts.push(resultText(m, game));
  else if (game.state === "waiting") parts.push(m.waiting_opponent);
  else if (game.deadline && !(game.opponent && game.opponent.cpu_level)) parts.push(timeLeft(game.deadline)); // the computer sets no deadline
  if (game.state === "active" && game.draw_offer && !game.your_turn) parts.push(section.dataset.drawOffered);
  return parts.filter(Boolean).join(" · ");
}

function groupOf(game) {
  if (game.state === "finished") return "finished";
  return game.your_turn ? "your_move" : "waiting";
}

function gameOpen() {
  const params = new URLSearchParams(location.search.slice(1));
  return Boolean(params.get("id") || params.get("game") || new URLSearchParams(location.hash.slice(1)).get("game"));
}

function render(games) {
  const groups = { your_move: [], waiting: [], finished: [] };
  for (const game of games) groups[groupOf(game)].push(game);
  for (const [name, list] of Object.entries(groups)) {
    /** @type {HTMLElement} */
    const box = section.querySelector(`[data-group="${name}"]`);
    const ul = box.querySelector("ul");
    ul.textContent = "";
    for (const game of list) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `#game=${encodeURIComponent(game.id)}`;
      a.dataset.game = game.id;
      a.textContent = line(game);
      li.append(a);
      ul.append(li);
    }
    box.hidden = !list.length;
  }
  const count = groups.your_move.length;
  section.querySelector(".inbox-count").textContent = count ? String(count) : "";
  document.title = count ? `(${count}) ${baseTitle}` : baseTitle;
  if (section.hidden && games.length) section.open = !gameOpen(); // first shown: folded while a game is open
  section.hidden = !games.length;
}

async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, REFRESH_MS);
  const me = storedPlayer();
  if (!me || !me.token || document.hidden) return;
  try {
    // Active games come "your move" first from the server; one page of each is what fits on a phone.
    // The last few finished ones only: the whole list is the history page's (historia.js).
    const [active, finished] = await Promise.all(["active", "finished"].map((status) =>
      call("GET", `/v1/players/me/games?status=${status}${status === "finished" ? "&limit=3" : ""}`, { token: me.token })));
    render([...(active.games || []), ...(finished.games || [])]);
    showRatings((finished.games || []).filter((game) => game.rated).map((game) => game.id).join());
  } catch {
    /* offline or refused: the inbox keeps what it showed */
  }
}

/** The player's ratings (ratings.js), read again when the list of finished rated games changes. */
let ratedEnded = null;
function showRatings(ended) {
  if (ended === ratedEnded) return;
  ratedEnded = ended;
  import("./ratings.js").then((ratings) => ratings.show()).catch(() => {});
}

if (section) {
  refresh();
  document.addEventListener("visibilitychange", () => document.hidden || refresh());
  addEventListener("hashchange", () => {
    section.open = !gameOpen();
    refresh();
  });
  addEventListener("ubao:push", refresh);
  addEventListener("ubao:game-changed", refresh);
}
