// @ts-check
// Historia ya Michezo: the player's games newest first from GET /v1/players/me/history (or, with ?player=,
// that player's public games), filtered by the page's own query (the filter form is a plain GET form). A
// filtered page may come back short while its cursor goes on, so the page reads on until it has a screenful
// or the list ends; "More games" reads the next. Each row opens the game on the play page to step through.
import { call, storedPlayer } from "./api.js";
import { historyParts, historyPath } from "../modules/history_text.js";

const PAGE = 20;
const MAX_READS = 5; // per screenful: a sparse filter stops and offers "More games" instead of reading on
const section = /** @type {HTMLElement} */ (document.getElementById("history"));
const list = /** @type {HTMLElement} */ (section.querySelector("ul"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
const more = /** @type {HTMLButtonElement} */ (section.querySelector(".more"));
const texts = /** @type {Record<string, string>} */ ({ ...section.dataset });
const lang = document.documentElement.lang;
/** @type {Record<string, string>} */
const titles = {};
for (const option of /** @type {HTMLOptionElement[]} */ ([...document.querySelectorAll("#filter-game option")])) {
  if (option.value) titles[option.value] = option.text;
}
const search = location.search;
const params = new URLSearchParams(search);
if (params.get("player")) Object.assign(texts, { win: texts.theirWin, loss: texts.theirLoss });
let cursor = null;

for (const name of ["game", "result", "kind"]) {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("filter-" + name));
  if (select) select.value = params.get(name) || "";
}

function rowOf(game) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `${texts.gameUrl}#game=${encodeURIComponent(game.id)}`;
  a.dataset.game = game.id;
  a.dataset.result = game.result;
  a.textContent = historyParts(texts, titles, game, lang).join(" · ");
  li.append(a);
  return li;
}

async function readOn(token) {
  more.hidden = true;
  let shown = 0;
  try {
    for (let reads = 0; reads < MAX_READS && shown < PAGE; reads++) {
      const page = await call("GET", historyPath(search, cursor, PAGE), { token });
      list.append(...page.games.map(rowOf));
      shown += page.games.length;
      cursor = page.cursor;
      if (!cursor) break;
    }
  } catch {
    status.textContent = texts.failed;
    more.hidden = false;
    return;
  }
  const filtered = ["game", "result", "kind", "opponent"].some((name) => params.get(name));
  status.textContent = list.children.length ? "" : filtered ? texts.noneFiltered : texts.empty;
  more.hidden = !cursor;
}

const me = storedPlayer();
const token = params.get("player") ? null : me && me.token;
if (!params.get("player") && !token) {
  status.textContent = texts.noPlayer;
} else {
  more.addEventListener("click", () => readOn(token));
  readOn(token);
}
