// @ts-check
// The words of one game on the air (Tazama): the two players (at a live table with their ratings), the moves
// played, live or by correspondence, rated; the texts come from the page (data- attributes of #on-air), in
// its language.
import { format } from "./i18n.js";

/**
 * @param {Record<string, string>} texts
 * @param {any} game one game of GET /v1/games/live
 */
export function onAirLine(texts, game) {
  // A live table's players with their ratings when it started (the list's order): "Asha (2100)".
  const name = (color) => {
    const player = game.players[color] || {};
    return (player.name || texts.unnamed) + (typeof player.rating === "number" ? ` (${player.rating})` : "");
  };
  const parts = [format(texts.pair, { white: name("white"), black: name("black") })];
  parts.push(format(texts.moves, { n: game.ply }));
  parts.push(game.live ? texts.live : texts.correspondence);
  if (game.rated) parts.push(texts.rated);
  return parts.join(" · ");
}

/** The next game for TV: the first on the list that is not the one just watched (null: none on the air). */
export function nextOnAir(games, current) {
  const next = games.find((game) => game.id !== current);
  return next ? next.id : null;
}
