// @ts-check
// What each game is like (who moves first, what its sides are called, how positions and moves are written),
// as the rules layer says: the builder writes shared_rules/game_facts.py's table into the page's config, so
// the scripts ask these instead of testing a game's name.
import { config } from "./page_config.js";

/** @typedef {import("../types").GameFacts} GameFacts */

/** @type {Record<string, GameFacts> | null} */
let table = null;

/**
 * The table to read instead of the page's config: the node tests, which have no page, give the builder's.
 * @param {Record<string, GameFacts>} facts
 */
export function useGameFacts(facts) {
  table = facts;
}

/**
 * The facts of the game called ``game``.
 * @param {string} game
 * @returns {GameFacts}
 */
export function gameFacts(game) {
  if (!table) table = config().game_facts || {};
  const facts = table[game];
  if (!facts) throw new Error(`no facts for the game ${JSON.stringify(game)} in the page's config`);
  return facts;
}
