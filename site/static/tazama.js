// @ts-check
// Tazama: the games being played now (GET /v1/games/live?game=, one cached answer for every watcher), read
// again every 15 s while the page is seen. A tap follows a game on the play page as a spectator, with the
// players' own delivery (the live socket or polling); TV follows the top game and then the next (tv.js).
import { call } from "./api.js";
import { onAirLine } from "../modules/on_air_text.js";

const REFRESH_MS = 15000; // with the answer cached 15 s, a new game shows within 30 s
const section = /** @type {HTMLElement} */ (document.getElementById("on-air"));
const texts = /** @type {Record<string, string>} */ ({ ...section.dataset });
const list = /** @type {HTMLElement} */ (section.querySelector("ul"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
const tv = /** @type {HTMLAnchorElement} */ (section.querySelector(".tv"));
const tabs = /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll(".board-tabs a")]);
const asked = new URLSearchParams(location.search).get("game");
const game = tabs.some((tab) => tab.dataset.game === asked) ? asked : tabs[0].dataset.game || "";
let timer = null;

for (const tab of tabs) {
  if (tab.dataset.game === game) tab.setAttribute("aria-current", "page");
  else tab.removeAttribute("aria-current");
}

function link(id, extra = "") {
  return `${texts.gameUrl}#game=${encodeURIComponent(id)}${extra}`;
}

async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, REFRESH_MS);
  if (document.hidden) return;
  try {
    const answer = await call("GET", "/v1/games/live?game=" + encodeURIComponent(game));
    list.replaceChildren(...answer.games.map((item) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = link(item.id);
      a.dataset.game = item.id;
      a.textContent = onAirLine(texts, item);
      li.append(a);
      return li;
    }));
    status.textContent = answer.games.length ? "" : texts.empty;
    tv.hidden = !answer.games.length;
    if (answer.games.length) tv.href = link(answer.games[0].id, `&tv=${encodeURIComponent(game)}`);
  } catch {
    status.textContent = texts.failed;
  }
}

document.addEventListener("visibilitychange", () => document.hidden || refresh());
refresh();
