// @ts-check
// A draughts capture as hops: the squares the piece lands on one after another, and the pieces each hop
// takes, read from the move's notation ("22x15x6", "c3xe5xc7") and the positions before and after it. A
// flying king may take a piece several squares away, so each hop's diagonal is searched, not only its middle.
import { draughtsSquares, parseFen } from "./notation.js";
import { gameFacts } from "./game_facts.js";

/**
 * @typedef {object} Hops
 * @property {string[]} route  the piece's squares, from its start to where it stops
 * @property {{square: string, piece: string}[][]} taken  per hop, the pieces it takes
 */

/**
 * The hops of a move that took more than one piece, or null for any other move (a slide shows those).
 * @param {string} game
 * @param {Record<string, [number, number]>} squares  draughts: name -> [row, file]
 * @param {string} beforeFen
 * @param {string} afterFen
 * @param {string} move  the move's notation
 * @returns {Hops | null}
 */
export function captureHops(game, squares, beforeFen, afterFen, move) {
  if (gameFacts(game).notation === "san" || !/x/.test(move)) return null;
  const route = draughtsSquares(move);
  if (!route || route.length < 3) return null;
  const before = parseFen(game, beforeFen).pieces;
  const after = parseFen(game, afterFen).pieces;
  /** @type {Record<string, string>} */
  const nameAt = {};
  for (const [name, [row, file]] of Object.entries(squares)) nameAt[row + "," + file] = name;
  const taken = [];
  for (let i = 1; i < route.length; i++) {
    const between = squaresBetween(squares, nameAt, route[i - 1], route[i]);
    taken.push(between.filter((sq) => before[sq] && !after[sq]).map((square) => ({ square, piece: before[square] })));
  }
  return { route, taken };
}

/**
 * The squares strictly between two squares on one diagonal; none when they are not on one.
 * @param {Record<string, [number, number]>} squares @param {Record<string, string>} nameAt
 * @param {string} from @param {string} to
 */
function squaresBetween(squares, nameAt, from, to) {
  const [a, b] = [squares[from], squares[to]];
  if (!a || !b) return [];
  const [dr, df] = [b[0] - a[0], b[1] - a[1]];
  if (Math.abs(dr) !== Math.abs(df) || !dr) return [];
  const [sr, sf] = [Math.sign(dr), Math.sign(df)];
  const found = [];
  for (let k = 1; k < Math.abs(dr); k++) {
    const name = nameAt[a[0] + k * sr + "," + (a[1] + k * sf)];
    if (name) found.push(name);
  }
  return found;
}
