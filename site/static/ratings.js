// @ts-check
// The player's game ratings on Mchezo (GET /v1/players/me): a line per game played rated, "1500?" while the
// rating is provisional, with a small graph of the rating after each rated game (an inline SVG of a few
// hundred bytes, from GET /v1/players/me/ratings/{game}). inbox.js calls `show` at the start and whenever
// the player's list of finished rated games changes.
import { call, storedPlayer } from "./api.js";
import { config } from "../modules/page_config.js";

const WIDTH = 120;
const HEIGHT = 28;
const section = document.getElementById("ratings");
const m = config().messages || {};

/** @param {{rating: number, provisional: boolean}} rating */
export function ratingText(rating) {
  return rating.rating + (rating.provisional ? "?" : "");
}

/**
 * The rating's line, oldest point on the left, scaled to the points' own range.
 * @param {number[][]} points  [ended at, rating]
 * @param {string} label
 */
export function ratingGraph(points, label) {
  if (points.length < 2) return "";
  const values = points.map((point) => point[1]);
  const low = Math.min(...values);
  const span = Math.max(Math.max(...values) - low, 1);
  const step = WIDTH / (values.length - 1);
  const xy = values.map((v, i) => `${Math.round(i * step)},${Math.round(HEIGHT - 2 - ((v - low) / span) * (HEIGHT - 4))}`);
  const name = label.replace(/[<>&"]/g, "");
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${name}"><polyline fill="none" stroke="currentColor" stroke-width="1.5" points="${xy.join(" ")}"/></svg>`;
}

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
