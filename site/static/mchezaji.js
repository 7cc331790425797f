// @ts-check
// A player's public profile (Mchezaji): GET /v1/players/{id} for ?id= in the address, one cached answer. The
// name, a line per game with the rating ("1500?" while provisional), its graph and the wins, draws and losses,
// then the latest public games, each opening the game on the play page; the texts are the page's data-.
import { ApiError, call, player, storedPlayer } from "./api.js";
import { countryName } from "../modules/country_name.js";
import { format } from "../modules/i18n.js";
import { historyParts } from "../modules/history_text.js";
import { ratingGraph, ratingText } from "../modules/rating_graph.js";

const section = /** @type {HTMLElement} */ (document.getElementById("profile"));
const texts = /** @type {Record<string, string>} */ ({ ...section.dataset });
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
const lang = document.documentElement.lang;
const id = new URLSearchParams(location.search).get("id") || "";

/** @type {Record<string, string>} the games' titles as the page writes them */
const titles = {};
for (const item of /** @type {HTMLElement[]} */ ([...section.querySelectorAll(".profile-games li")])) {
  titles[item.dataset.game || ""] = item.querySelector("strong")?.textContent || "";
}

function showGames(profile) {
  let shown = 0;
  for (const item of /** @type {HTMLElement[]} */ ([...section.querySelectorAll(".profile-games li")])) {
    const game = item.dataset.game || "";
    const rating = profile.ratings[game];
    const results = profile.results[game];
    item.hidden = !rating && !results;
    if (item.hidden) continue;
    shown++;
    /** @type {HTMLElement} */ (item.querySelector(".rating")).textContent = rating ? ratingText(rating) : "";
    /** @type {HTMLElement} */ (item.querySelector(".graph")).innerHTML = rating ? ratingGraph(rating.points, texts.graph) : "";
    /** @type {HTMLElement} */ (item.querySelector(".results")).textContent = results ? format(texts.results, results) : "";
  }
  /** @type {HTMLElement} */ (section.querySelector(".profile-ratings")).hidden = !shown;
}

function showRecent(profile) {
  const list = /** @type {HTMLElement} */ (section.querySelector(".profile-recent ul"));
  list.replaceChildren(...profile.recent.map((game) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `${texts.gameUrl}#game=${encodeURIComponent(game.id)}`;
    a.dataset.game = game.id;
    a.textContent = historyParts(texts, titles, game, lang).join(" · ");
    li.append(a);
    return li;
  }));
  const all = /** @type {HTMLAnchorElement} */ (section.querySelector(".all-games"));
  all.href = `${texts.historyUrl}?player=${encodeURIComponent(id)}`;
  /** @type {HTMLElement} */ (section.querySelector(".profile-recent")).hidden = !profile.recent.length;
}


/** The country line; on your own profile (your token's), your country as you see it and the switch to hide it. */
async function showCountry(/** @type {string | null} */ shown) {
  const line = /** @type {HTMLElement} */ (section.querySelector(".profile-country"));
  const put = (/** @type {string | null} */ code) => {
    line.textContent = code ? format(line.dataset.label || "", { country: countryName(code, lang) }) : "";
    line.hidden = !code;
  };
  put(shown);
  const me = storedPlayer();
  if (!me || !me.token || me.player_id !== id) return;
  const mine = await call("GET", "/v1/players/me", { token: me.token });
  if (!mine.country) return;
  put(mine.country);
  const row = /** @type {HTMLElement} */ (section.querySelector(".country-switch"));
  const box = /** @type {HTMLInputElement} */ (row.querySelector(".hide-country"));
  box.checked = mine.country_hidden;
  row.hidden = false;
  box.addEventListener("change", async () => {
    try {
      const saved = await call("PATCH", "/v1/players/me", { body: { country_hidden: box.checked }, token: me.token });
      box.checked = saved.country_hidden;
      status.textContent = row.dataset.saved || "";
    } catch {
      box.checked = !box.checked;
      status.textContent = texts.failed;
    }
  });
}

/** Your games against this player (your own history, filtered by the opponent): wins, draws and losses. */
async function showHeadToHead() {
  const me = storedPlayer();
  if (!me || !me.token || !me.player_id || me.player_id === id) return;
  const page = await call("GET", `/v1/players/me/history?opponent=${encodeURIComponent(id)}&limit=50`, { token: me.token });
  const counts = { win: 0, draw: 0, loss: 0 };
  for (const game of page.games) if (game.result in counts) counts[game.result]++;
  if (!counts.win && !counts.draw && !counts.loss) return;
  const line = /** @type {HTMLElement} */ (section.querySelector(".head-to-head"));
  line.textContent = format(texts.between, counts);
  line.hidden = false;
}

/** Follow this player, and challenge them once you are friends (both follow): the community's routes. */
async function showActions(name) {
  const box = /** @type {HTMLElement} */ (section.querySelector(".profile-actions"));
  const words = box.dataset;
  const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (box.querySelector(selector));
  const line = $(".action-status");
  const me = storedPlayer();
  if (me && me.player_id === id) return; // your own profile
  /** @param {unknown} error */
  const refusal = (error) => {
    const code = error instanceof ApiError ? error.code || "" : "";
    const key = "error" + code.replace(/(^|_)(\w)/g, (_, __, letter) => letter.toUpperCase());
    return words[key] || texts.failed;
  };
  /** @param {{friend: boolean} | undefined} follow */
  const mark = (follow) => {
    $(".follow-player").hidden = !!follow;
    $(".following").hidden = !follow || follow.friend;
    $(".friend").hidden = !follow || !follow.friend;
    $(".challenge-player").hidden = !follow || !follow.friend;
  };
  if (me && me.token) {
    const mine = await call("GET", "/v1/players/me/follows", { token: me.token });
    mark(mine.follows.find((/** @type {{player_id: string}} */ follow) => follow.player_id === id));
  } else mark(undefined);
  box.hidden = false;
  $(".follow-player").addEventListener("click", async () => {
    try {
      const you = await player();
      const made = await call("POST", "/v1/players/me/follows", { body: { player: id }, token: you.token });
      mark(made);
      line.textContent = format(words.followed || "", { name });
    } catch (error) {
      line.textContent = refusal(error);
    }
  });
  $(".challenge").addEventListener("click", async () => {
    const game = /** @type {HTMLSelectElement} */ ($("#profile-game")).value;
    try {
      const you = await player();
      await call("POST", "/v1/players/me/challenges", { body: { player: id, game }, token: you.token });
      line.textContent = format(words.challenged || "", { name });
    } catch (error) {
      line.textContent = refusal(error);
    }
  });
}

async function show() {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
    status.textContent = texts.noPlayer;
    return;
  }
  try {
    const profile = await call("GET", "/v1/players/" + encodeURIComponent(id));
    const name = profile.name || texts.unnamed;
    /** @type {HTMLElement} */ (section.querySelector(".profile-name")).textContent = name;
    document.title = `${name} · ubao`;
    showCountry(profile.country || null).catch(() => {});
    showGames(profile);
    showRecent(profile);
    showHeadToHead().catch(() => {}); // the rest of the page does not wait for it
    showActions(name).catch(() => {});
    status.textContent = profile.recent.length || Object.keys(profile.ratings).length ? "" : texts.noPlayer;
  } catch (error) {
    // 404: no player with a game or a rating has this id (nobody's, or a player who deleted their data).
    status.textContent = error instanceof ApiError && error.status === 404 ? texts.noPlayer : texts.failed;
  }
}

show();
