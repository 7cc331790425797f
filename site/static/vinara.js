// @ts-check
// The leaderboard page: the chosen game's top 50 from GET /v1/leaderboard?game= (one Query on the server),
// as rows of rank, name, rating and rated games. The texts are the page's own (data- attributes), in its
// language; the game comes from ?game= (the tabs are plain links), else the first tab. Each name links to the
// player's profile (mchezaji.js).
import { call } from "./api.js";
import { lastGameChosen } from "../modules/form_memory.js";

const section = /** @type {HTMLElement} */ (document.getElementById("leaderboard"));
const tabs = /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll(".board-tabs a")]);
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));

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

async function show(game) {
  for (const tab of tabs) {
    if (tab.dataset.game === game) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  const title = /** @type {HTMLElement} */ (section.querySelector(".board-title"));
  title.textContent = tabs.find((tab) => tab.dataset.game === game)?.textContent || "";
  const body = /** @type {HTMLElement} */ (section.querySelector("tbody"));
  try {
    const board = await call("GET", "/v1/leaderboard?game=" + encodeURIComponent(game || ""));
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
    status.textContent = board.players.length ? "" : section.dataset.empty || "";
  } catch {
    status.textContent = section.dataset.failed || "";
  }
}

show(chosenGame());
