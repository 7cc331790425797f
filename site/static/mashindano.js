// @ts-check
// Mashindano: a game's public tournaments and the form to make one (league, cup, arena); with ?id= one
// tournament (its crosstable, or a cup's groups and bracket: modules/tournament_tables.js; your next game, the
// countdown to its start, join, withdraw, share), followed on the live socket (live_feed.js: each entry, pairing
// and result arrives as the tournament's view) and read again every few seconds when the socket cannot carry it
// (nothing tells the player which). The invite code of a private league travels in the link's
// fragment (#invite=...), never to a server log. Texts: the section's data- attributes and the page's
// config (refusals by their code, the game titles).
import { call, player, storedPlayer } from "./api.js";
import { config } from "../modules/page_config.js";
import { LiveFeed, tournamentState } from "../modules/live_feed.js";
import { showInvite } from "../modules/invite_share.js";
import { crosstable, cupTables, opponentIn } from "../modules/tournament_tables.js";

const POLL_MS = 5000;
const SOCKET_POLL_MS = 60000; // while the socket carries the tournament: one read a minute, for safety
const TICK_MS = 1000; // the countdown to the start
const BEAT_MS = 15000; // an arena's presence: the server pairs players seen in the last 45 s
const section = /** @type {HTMLElement} */ (document.getElementById("tournaments"));
const texts = /** @type {Record<string, string>} */ ({ ...section.dataset });
const m = config().messages || {};
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
/** The QR code of a text as SVG, from site/static/qr.js, loaded on the first tap. @param {string} text */
const drawQr = async (text) => (await import("./qr.js")).qrSvg(text);
const one = /** @type {HTMLElement} */ (section.querySelector(".one-view"));
const listView = /** @type {HTMLElement} */ (section.querySelector(".list-view"));
const params = new URLSearchParams(location.search);
const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
let shownId = params.get("id");
let timer = 0;
let beating = 0;
let shown = null; // the view on screen (the countdown is redrawn from it every second)

const feed = new LiveFeed({
  ticket: () => call("POST", "/v1/live/tickets", { token: storedPlayer()?.token }),
  onMessage: (message) => {
    const view = tournamentState(message, shownId);
    if (view) showOne(view);
  },
  onChange: () => schedule(POLL_MS), // the socket opened or dropped: the reads' pace changes
  origin: location.origin,
});

/** The next read: soon while polling carries the tournament, rarely while the socket does, none once over. */
function schedule(ms) {
  window.clearTimeout(timer);
  if (shown && shown.tournament.state === "finished") return;
  timer = window.setTimeout(load, feed.live ? SOCKET_POLL_MS : ms);
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function refusal(error) {
  const code = error && error.code;
  return (code && m["error_" + code]) || m.request_refused || texts.failed;
}

function terms(t) {
  const pace = t.options.turn_seconds
    ? fill(texts.seconds, { n: t.options.turn_seconds })
    : fill(texts.days, { n: t.options.days_per_move || 3 });
  const title = (m.game_titles || {})[t.game] || t.game;
  const format = [texts[t.format] || texts.league];
  if (t.format === "cup" && t.groups) format.push(fill(texts.cupSize, { groups: t.groups, n: t.max_players / t.groups }));
  return [title, ...format, t.rated ? texts.rated : texts.casual, pace]
    .concat([fill(texts.players, { n: t.entrants, max: t.max_players }), texts[t.state]])
    .join(" · ");
}

function countdown(t) {
  if (t.state !== "open") return "";
  if (!t.starts) return texts.startsFull;
  const left = Math.max(0, Date.parse(t.starts) - Date.now());
  const hours = Math.floor(left / 3600000);
  const minutes = Math.floor((left % 3600000) / 60000);
  const seconds = Math.floor((left % 60000) / 1000);
  const time = hours ? `${hours}:${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`
    : `${minutes}:${String(seconds).padStart(2, "0")}`;
  return fill(texts.startsIn, { time });
}

function cell(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function nameOf(view, seat) {
  const row = view.players.find((p) => p.seat === seat);
  if (!row) return "";
  const name = row.name || texts.unnamed;
  return row.withdrawn ? `${name} (${texts.withdrawn})` : name;
}

/** An arena's ranking: rank, name, each game's points, the total; a flame for a streak. */
function arenaTable(view) {
  const table = /** @type {HTMLTableElement} */ (one.querySelector(".crosstable"));
  const head = document.createElement("tr");
  head.append(cell("th", "#"), cell("th", texts.player), cell("th", ""), cell("th", texts.points));
  const rows = view.arena.map((row) => {
    const tr = document.createElement("tr");
    const me = view.players.find((p) => p.seat === row.seat);
    if (me && me.you) tr.className = "you";
    tr.dataset.seat = String(row.seat);
    const name = nameOf(view, row.seat) + (row.on_streak ? " 🔥" : "");
    tr.append(cell("td", String(row.rank)), cell("th", name), cell("td", row.scores.join(" ")), cell("td", String(row.points)));
    return tr;
  });
  table.tHead?.replaceChildren(head);
  table.tBodies[0].replaceChildren(...rows);
}

/** While on an arena's page, tell the server every 15 s (and once when leaving) so it can pair this player. */
function beat(id, present) {
  const me = storedPlayer();
  if (!me || !me.token) return;
  fetch(`/v1/tournaments/${encodeURIComponent(id)}/presence`, {
    method: "POST",
    keepalive: !present,
    headers: { "content-type": "application/json", authorization: "Bearer " + me.token },
    body: JSON.stringify({ present }),
  }).catch(() => {});
}

function startBeating(id) {
  if (beating) return;
  beat(id, true);
  beating = window.setInterval(() => document.visibilityState === "visible" && beat(id, true), BEAT_MS);
  window.addEventListener("pagehide", () => beat(id, false));
}

function showOne(view) {
  shown = view;
  const t = view.tournament;
  const me = view.players.find((p) => p.you);
  /** @type {HTMLElement} */ (one.querySelector(".t-title")).textContent = t.name || terms(t).split(" · ").slice(0, 2).join(" · ");
  /** @type {HTMLElement} */ (one.querySelector(".t-terms")).textContent = terms(t);
  /** @type {HTMLElement} */ (one.querySelector(".t-when")).textContent = countdown(t);
  const winner = /** @type {HTMLElement} */ (one.querySelector(".t-winner"));
  winner.hidden = !view.winners.length;
  winner.textContent = fill(texts.winner, { name: view.winners.map((seat) => nameOf(view, seat)).join(", ") });
  const next = /** @type {HTMLElement} */ (one.querySelector(".t-next"));
  const opponent = me && view.your_games.length ? opponentIn(view, view.your_games[0], me.seat) : null;
  next.hidden = opponent === null;
  if (t.format === "arena" && me && view.your_games.length) {
    next.hidden = false;
    const link = /** @type {HTMLAnchorElement} */ (next.querySelector("a"));
    link.href = `${texts.gameUrl}#game=${encodeURIComponent(view.your_games[0])}`;
    link.textContent = texts.ready;
  } else if (opponent !== null) {
    const link = /** @type {HTMLAnchorElement} */ (next.querySelector("a"));
    link.href = `${texts.gameUrl}#game=${encodeURIComponent(view.your_games[0])}`;
    link.textContent = fill(texts.next, { name: nameOf(view, opponent) });
  }
  /** @type {HTMLElement} */ (one.querySelector(".join")).hidden = Boolean(me) || t.state !== "open";
  /** @type {HTMLElement} */ (one.querySelector(".withdraw")).hidden = !me || t.state === "finished";
  const cup = t.format === "cup" && view.groups.length > 0;
  /** @type {HTMLElement} */ (one.querySelector(".league-table")).hidden = cup;
  if (t.format === "arena") {
    arenaTable(view);
    if (me && t.state !== "finished") startBeating(t.id);
  } else if (cup) {
    cupTables(/** @type {HTMLElement} */ (one.querySelector(".cup")), view, texts, (seat) => nameOf(view, seat));
  } else {
    crosstable(/** @type {HTMLTableElement} */ (one.querySelector(".crosstable")), view, view.standings, texts, (seat) => nameOf(view, seat));
  }
  const link = location.href;
  const message = fill(texts.inviteMessage, { name: t.name || terms(t), link });
  const say = (/** @type {string} */ text) => (status.textContent = text);
  showInvite(/** @type {HTMLElement} */ (one.querySelector(".invite-share")), link, message, say, drawQr);
  one.hidden = false;
  listView.hidden = true;
}

async function load() {
  window.clearTimeout(timer);
  const known = storedPlayer();
  try {
    const view = await call("GET", `/v1/tournaments/${encodeURIComponent(shownId || "")}`, { token: known && known.token });
    showOne(view);
    status.textContent = "";
    if (view.tournament.state === "finished") feed.stop();
    else feed.followTournament(view.tournament.id);
    schedule(POLL_MS);
  } catch (error) {
    status.textContent = refusal(error);
    schedule(POLL_MS * 2);
  }
}

async function act(path, body) {
  try {
    const me = await player();
    const view = await call("POST", path, { token: me.token, body });
    showOne(view);
    status.textContent = "";
    if (!feed.live || !shown.players.some((p) => p.you)) return;
    feed.stop(); // the socket was opened before this player existed, or before it joined: opened again as its own
    feed.followTournament(view.tournament.id);
  } catch (error) {
    status.textContent = refusal(error);
  }
}

async function list() {
  const tabs = /** @type {HTMLAnchorElement[]} */ ([...listView.querySelectorAll(".board-tabs a")]);
  const asked = params.get("game");
  const game = tabs.some((tab) => tab.dataset.game === asked) ? asked : tabs[0].dataset.game;
  for (const tab of tabs) tab.toggleAttribute("aria-current", tab.dataset.game === game);
  const ul = /** @type {HTMLElement} */ (listView.querySelector(".tournament-list"));
  try {
    const found = [];
    for (const state of ["open", "running", "finished"]) {
      const page = await call("GET", `/v1/tournaments?game=${game}&state=${state}`);
      found.push(...page.tournaments);
    }
    ul.replaceChildren(
      ...found.map((t) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `?id=${encodeURIComponent(t.id)}`;
        a.textContent = (t.name ? t.name + " · " : "") + terms(t);
        li.append(a);
        return li;
      }),
    );
    status.textContent = found.length ? "" : texts.none;
  } catch (error) {
    status.textContent = refusal(error);
  }
}

/** The new tournament's terms as the form asks for them (league, cup or arena). @param {FormData} data */
function termsAsked(data) {
  const format = String(data.get("format") || "league");
  const common = { format, game: data.get("game"), rated: data.get("rated") === "on", public: data.get("public") === "on" };
  if (format === "arena") {
    const starts = new Date(Date.now() + Number(data.get("starts_in")) * 60000).toISOString().replace(/\.\d+Z$/, "Z");
    return { ...common, starts, minutes: Number(data.get("minutes")), options: { turn_seconds: Number(data.get("seconds")) } };
  }
  const size = format === "cup"
    ? { groups: Number(data.get("groups")), players: Number(data.get("group_players")) }
    : { players: Number(data.get("players")) };
  return { ...common, ...size, options: { days_per_move: Number(data.get("days")) } };
}

/** Show the fields and the explanation of the format chosen (each marked with the formats it serves). */
function showFormat(form) {
  const format = form.elements.namedItem("format").value;
  for (const node of form.querySelectorAll("[data-for]")) node.hidden = !node.dataset.for.split(" ").includes(format);
}

async function makeTournament(event) {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  try {
    const me = await player();
    const made = await call("POST", "/v1/tournaments", {
      token: me.token,
      body: {
        ...termsAsked(new FormData(form)),
        ...(params.get("club") ? { club: params.get("club") } : {}), // for a club's members (klabu.js)
      },
    });
    const hash = made.invite ? `#invite=${encodeURIComponent(made.invite.code)}` : "";
    location.assign(`?id=${encodeURIComponent(made.tournament.id)}${hash}`);
  } catch (error) {
    status.textContent = refusal(error);
  }
}

if (shownId) {
  one.querySelector(".join")?.addEventListener("click", () => act(`/v1/tournaments/${shownId}/join`, invite ? { invite } : {}));
  one.querySelector(".withdraw")?.addEventListener("click", () => act(`/v1/tournaments/${shownId}/withdraw`, undefined));
  window.setInterval(() => {
    const when = /** @type {HTMLElement} */ (one.querySelector(".t-when"));
    if (shown) when.textContent = countdown(shown.tournament);
  }, TICK_MS);
  load();
} else {
  const form = /** @type {HTMLFormElement} */ (listView.querySelector(".new-league"));
  form.addEventListener("submit", makeTournament);
  form.addEventListener("change", () => showFormat(form));
  showFormat(form); // a format the browser kept from an earlier visit
  list();
}
