// @ts-check
// The leaderboard page: the chosen game's top 50 from GET /v1/leaderboard?game= (one Query on the server),
// as rows of rank, name, rating and rated games. The texts are the page's own (data- attributes), in its
// language; the game comes from ?game= (the tabs are plain links), else the first tab. Each name links to the
// player's profile (mchezaji.js). The scope tabs: everyone, or one country's players (?country=, the same
// one Query on the server), the country being the address's or the viewer's own (GET /v1/players/me).
import { call, storedPlayer } from "./api.js";
import { countryName, scopeOf } from "../modules/country_name.js";
import { lastGameChosen } from "../modules/form_memory.js";

const section = /** @type {HTMLElement} */ (document.getElementById("leaderboard"));
const tabs = /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll(".board-tabs a")]);
const scopes = /** @type {HTMLElement} */ (document.querySelector(".scope-tabs"));
const countryTab = /** @type {HTMLAnchorElement} */ (scopes.querySelector(".country-tab"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
const lang = document.documentElement.lang;

/** The game of ?game=, else the one this phone last chose to play (the create form's kept choice), else the first. */
function chosenGame() {
  const asked = new URLSearchParams(location.search).get("game") || lastGameChosen();
  return tabs.some((tab) => tab.dataset.game === asked) ? asked : tabs[0].dataset.game;
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = String(text);
    tr.append(td);
  }
  return tr;
}

/** Mark the chosen one of ``links`` (the one whose data-``key`` is ``value``) as the page's current. */
function mark(links, key, value) {
  for (const link of links) {
    if (link.dataset[key] === value) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** The query of the list of ``game`` in ``country`` ("" for everyone): the page's and the API's alike. */
function listQuery(game, country) {
  return `?game=${encodeURIComponent(game)}` + (country ? `&country=${country}` : "");
}

const listUrl = (game, country) => location.pathname + listQuery(game, country);

/** The scope tabs for ``game``: everyone, and ``country`` when one is known (the address's, else yours). */
function showScopes(game, scope, country) {
  const allTab = /** @type {HTMLAnchorElement} */ (scopes.querySelector("a[data-country='']"));
  allTab.href = listUrl(game, "");
  if (country) {
    countryTab.dataset.country = country;
    countryTab.textContent = countryName(country, lang);
    countryTab.href = listUrl(game, country);
    countryTab.hidden = false;
    scopes.hidden = false;
  }
  mark([allTab, countryTab], "country", scope);
  for (const tab of tabs) tab.href = listUrl(tab.dataset.game || "", scope); // a game tab keeps the scope
}

/** Your country as the API knows it (kept even while hidden: it is yours), or "" (no player, none, offline). */
async function myCountry() {
  const me = storedPlayer();
  if (!me || !me.token) return "";
  try {
    return (await call("GET", "/v1/players/me", { token: me.token })).country || "";
  } catch {
    return "";
  }
}

async function show(game, scope) {
  mark(tabs, "game", game);
  const title = /** @type {HTMLElement} */ (section.querySelector(".board-title"));
  const gameTitle = tabs.find((tab) => tab.dataset.game === game)?.textContent || "";
  title.textContent = scope ? `${gameTitle} · ${countryName(scope, lang)}` : gameTitle;
  const body = /** @type {HTMLElement} */ (section.querySelector("tbody"));
  try {
    const board = await call("GET", "/v1/leaderboard" + listQuery(game, scope));
    const unnamed = section.dataset.unnamed || "";
    body.replaceChildren(...board.players.map((p, i) => {
      const tr = row([i + 1, "", p.rating, p.games]);
      const link = document.createElement("a"); // each name opens the player's profile
      link.href = `${section.dataset.profileUrl}?id=${encodeURIComponent(p.id)}`;
      link.textContent = p.name || unnamed;
      tr.children[1].append(link);
      if (p.lookalike) {
        // another name on this list looks the same (fair play): a short number tells them apart
        const mark = document.createElement("span");
        mark.className = "lookalike";
        mark.textContent = " " + p.lookalike;
        tr.children[1].append(mark);
      }
      return tr;
    }));
    const empty = scope ? section.dataset.emptyCountry : section.dataset.empty;
    status.textContent = board.players.length ? "" : empty || "";
  } catch {
    status.textContent = section.dataset.failed || "";
  }
}

const game = chosenGame() || "";
const scope = scopeOf(location.search);
showScopes(game, scope, scope);
show(game, scope);
myCountry().then((country) => {
  if (country && !scope) showScopes(game, scope, country);
});
