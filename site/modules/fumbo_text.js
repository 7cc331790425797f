// @ts-check
// What the puzzle page says about a puzzle, in the page's language: whose move it is, what the puzzle asks
// for (from its themes), its themes, and the player's puzzle rating. ``m`` are the page's messages, ``f``
// the puzzle page's own (the config's ``fumbo``).
import { format } from "./i18n.js";
import { gameFacts } from "./game_facts.js";

/** @typedef {import("../types").Messages} Messages */

/** Lichess's line: a rating is provisional while its deviation is 110 or more. */
const PROVISIONAL_RD = 110;

/**
 * @param {Messages} m @param {string} game @param {string} turn
 * @returns {string}
 */
export function turnText(m, game, turn) {
  if (turn === "white") return gameFacts(game).light_side === "red" ? m.red_to_move : m.white_to_move;
  return m.black_to_move;
}

/**
 * What the puzzle asks for, from its themes.
 * @param {Messages} f @param {{game: string, themes?: string[]}} puzzle
 * @returns {string}
 */
export function goalText(f, puzzle) {
  const themes = puzzle.themes || [];
  const mate = themes.map((t) => /^mateIn(\d+)$/.exec(t)).find(Boolean);
  if (mate) return format(f.goal_mate, { n: mate[1] });
  if (themes.includes("countdown")) return f.goal_countdown;
  if (themes.includes("game_win")) return f.goal_game_win;
  if (themes.includes("promotion")) return gameFacts(puzzle.game).promotion_choice ? f.goal_promote_chess : f.goal_promotion;
  if (themes.includes("material")) return f.goal_material;
  return f.goal_best;
}

/**
 * @param {Messages} f @param {Record<string, string>} themeNames @param {string[]} themes
 * @returns {string}
 */
export function themeText(f, themeNames, themes) {
  return format(f.themes_label, { themes: themes.map((t) => themeNames[t] || t).join(", ") });
}

/**
 * The player's puzzle rating, said to be provisional while it is uncertain.
 * @param {Messages} m @param {Messages} f @param {{rating: number, rating_deviation: number}} progress
 * @returns {string}
 */
export function ratingText(m, f, progress) {
  const rating = Math.round(progress.rating);
  return progress.rating_deviation >= PROVISIONAL_RD ? format(f.rating_provisional, { rating }) : format(m.rating, { rating });
}

/**
 * The line after a finished first try: the rating with what this try changed (+N / −N), and the streak.
 * @param {Messages} m @param {Messages} f
 * @param {{rating?: number | null, rating_change?: number | null}} answer  the server's answer to the attempt
 * @param {{streak?: number} | null} progress  the progress read after it
 * @param {(n: number) => string} streak  the streak in words (plural forms)
 * @returns {string}
 */
export function ratingChangeText(m, f, answer, progress, streak) {
  if (answer.rating == null || answer.rating_change == null) return "";
  const change = Math.round(answer.rating_change);
  const signed = change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "\u00b10";
  const rating = format(f.rating_after_try, { rating: Math.round(answer.rating), change: signed });
  return progress ? `${rating} · ${streak(progress.streak || 0)}` : rating;
}

/**
 * Where a puzzle from the player's own game comes from, numbered as the game's move list numbers it: before
 * their mistake ("here you played Nf3; find the better move"), or after it, the opponent's punishment.
 * @param {Messages} f @param {{ply: number, kind?: string | null, played?: string | null}} puzzle
 * @returns {string}
 */
export function mineText(f, puzzle) {
  const number = String(Math.ceil(puzzle.ply / 2));
  if (!puzzle.played || !puzzle.kind) return format(f.mine_meta, { ply: number });
  const move = (puzzle.ply % 2 ? "" : "…") + puzzle.played;
  return format(puzzle.kind === "punish" ? f.mine_punish : f.mine_missed, { number, move });
}
