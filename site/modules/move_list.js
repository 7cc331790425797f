// @ts-check
// A game's move list: the moves as text, numbered in pairs as the game page shows them, and the whole list
// put together from an answer that carries only its latest moves (or those after the ones already known).
import { gameFacts } from "./game_facts.js";


/**
 * The moves as text, whatever shape the server gave each one in.
 * @param {any[] | undefined} moves
 * @returns {string[]}
 */
export function moveTexts(moves) {
  return (moves || []).map((move) => (typeof move === "string" ? move : move.san || move.move || move.notation));
}

/**
 * The moves in numbered pairs: "e4 e5", "11-15 23-19" (the list numbers each pair). A game set up with the
 * second player to move starts its first pair with "…".
 * @param {string} game
 * @param {string[]} moves
 * @param {string} turn  the side to move now
 * @returns {string[]}
 */
export function movePairs(game, moves, turn) {
  const firstMover = gameFacts(game).first_mover;
  const startsSecond = moves.length && ((turn === firstMover) === (moves.length % 2 === 1));
  const padded = startsSecond ? ["…", ...moves] : moves;
  const pairs = [];
  for (let i = 0; i < padded.length; i += 2) pairs.push(padded.slice(i, i + 2).join(" "));
  return pairs;
}

/**
 * The game with its whole move list: the moves it carries (the latest, or those after ours), ours before
 * them, and, where there is a gap (`earlier`), the older pages ``earlierPage(before)`` fetches.
 * @template {{moves?: unknown[], moves_from?: number, earlier?: number | null}} G
 * @param {G} fresh
 * @param {unknown[]} known
 * @param {(before: number) => Promise<{moves: unknown[], earlier?: number | null}>} earlierPage
 * @returns {Promise<G>}
 */
export async function withAllMoves(fresh, known, earlierPage) {
  const latest = fresh.moves || [];
  let before = known.slice(0, fresh.moves_from || 0);
  if (fresh.earlier) {
    before = [];
    for (let earlier = fresh.earlier; earlier; ) {
      const page = await earlierPage(earlier);
      before = page.moves.concat(before);
      earlier = page.earlier;
    }
  }
  fresh.moves = before.concat(latest);
  return fresh;
}
