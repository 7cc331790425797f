// @ts-check
// The player's game ratings on Mchezo (GET /v1/players/me): a line per game played rated, "1500?" while the
// rating is provisional, with a small graph of the rating after each rated game (an inline SVG of a few
// hundred bytes, from GET /v1/players/me/ratings/{game}). inbox.js calls `show` at the start and whenever
// the player's list of finished rated games changes.
import { call, storedPlayer } from "./api.js";
import { config } from "../modules/page_config.js";
import { ratingGraph, ratingText } from "../modules/rating_graph.js";

const section = document.getElementById("ratings");
const m = config().messages || {};


/** Read the player's ratings and show them (nothing while the player has no rated game). */
export async function show() {
  const me = storedPlayer();
  if (!section || !me || !me.token) return;
  const answer = await call("GET", "/v1/players/me", { token: me.token });
  const list = /** @type {HTMLElement} */ (section.querySelector("ul"));
  const items = Object.entries(answer.ratings).map(([game, rating]) => {
    const item = document.createElement("li");
    item.dataset.game = game;
    item.textContent = `${(m.game_titles || {})[game] || game} ${ratingText(rating)} `;
    if (rating.games > 1) {
      call("GET", "/v1/players/me/ratings/" + game, { token: me.token })
        .then((history) => item.insertAdjacentHTML("beforeend", ratingGraph(history.points, section.dataset.graph || "")))
        .catch(() => {});
    }
    return item;
  });
  list.replaceChildren(...items);
  section.hidden = items.length === 0;
}
