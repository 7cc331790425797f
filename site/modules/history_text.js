// @ts-check
// The words of one history row (Historia ya Michezo): the game, the opponent, the result, the date and the
// rating change, in the page's language (the texts come from the page: data- attributes of #history), and
// the query of a page of the history from the page's own filters.
import { format } from "./i18n.js";

/** The opponent as the row names them. */
export function opponentText(texts, opponent) {
  if (opponent.cpu_level) return format(texts.computer, { level: opponent.cpu_level });
  if (!opponent.id) return texts.nobody;
  return format(texts.vs, { name: opponent.name || texts.unnamed });
}

/** "+11", "−4" or "" (a casual game, or a rated one still going on). */
export function ratingText(change) {
  if (change === null || change === undefined) return "";
  return change > 0 ? "+" + change : change < 0 ? "\u2212" + -change : "±0";
}

/**
 * The parts of a row, in order: game, opponent, result, date, rating change (empty parts left out).
 * @param {Record<string, string>} texts
 * @param {Record<string, string>} titles the games' titles by name
 * @param {any} row one game of GET /v1/players/me/history
 * @param {string} lang
 */
export function historyParts(texts, titles, row, lang) {
  const date = new Date(row.created_at);
  const day = Number.isFinite(date.getTime())
    ? date.toLocaleDateString(lang, { day: "numeric", month: "short", year: "numeric" })
    : "";
  const parts = [titles[row.game] || row.game, opponentText(texts, row.opponent), texts[row.result] || row.result, day];
  parts.push(ratingText(row.rating_change));
  if (row.private) parts.push(texts.private);
  return parts.filter(Boolean);
}

const FILTERS = ["game", "result", "kind", "opponent"];

/** The API path of a page: the player's own history, or (``player``) another player's public games. */
export function historyPath(search, cursor, limit = 20) {
  const asked = new URLSearchParams(search);
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = asked.get(name);
    if (value) query.set(name, value);
  }
  query.set("limit", String(limit));
  if (cursor) query.set("cursor", cursor);
  const player = asked.get("player");
  const base = player ? `/v1/players/${encodeURIComponent(player)}/games` : "/v1/players/me/history";
  return `${base}?${query}`;
}
