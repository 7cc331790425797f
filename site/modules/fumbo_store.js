// @ts-check
// What the puzzle page keeps in this browser (localStorage, "ubao.fumbo.*"): the day's puzzles, the offline
// pack, outcomes and solutions seen here, and the legal moves of each puzzle's starting position.

/** How many puzzles of each game are kept for offline use. */
export const PACK_SIZE = 20;

/** The page's own storage: the day's puzzles, the offline pack, outcomes and solutions seen here. */
export const kept = {
  get(key) {
    try {
      return JSON.parse(localStorage.getItem("ubao.fumbo." + key) || "null");
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem("ubao.fumbo." + key, JSON.stringify(value));
    } catch {
      /* storage full or private mode: the page works without it */
    }
  },
};

/** The legal moves of a puzzle's starting position, kept by game and position: a repeat visit shows them
 * without asking /v1/validate again (a repeat visit stays under 1 KB). They depend on the
 * position alone, and they are only the squares the board marks: the server still judges every move. */
const LEGAL_KEPT = 3 * (PACK_SIZE + 1); // each game's puzzle of the day and its pack
export function keptLegal(game, fen) {
  const known = (kept.get("legal") || {})[game + " " + fen] || null;
  return Array.isArray(known) ? { moves: known, notations: null } : known; // kept before the SAN was kept too
}
export function keepLegal(game, fen, moves, notations) {
  const all = kept.get("legal") || {};
  delete all[game + " " + fen];
  all[game + " " + fen] = { moves, notations }; // the newest last: the oldest go first when there are too many
  const keys = Object.keys(all);
  for (const old of keys.slice(0, Math.max(0, keys.length - LEGAL_KEPT))) delete all[old];
  kept.set("legal", all);
}
