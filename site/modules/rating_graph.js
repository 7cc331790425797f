// @ts-check
// A rating as the site writes it ("1500?" while provisional) and its small graph: an inline SVG line of the
// rating after each rated game, a few hundred bytes (Mchezo's "Your ratings" and a player's profile).

const WIDTH = 120;
const HEIGHT = 28;

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
