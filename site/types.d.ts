// The shapes the site's scripts share, for the type checker only (make lint-js; nothing here is served).
// The spellings of games, languages and colours have one source, shared_rules/names.py: the builder puts
// them in each page's config, and these types only name them for the checker.

export type GameName = "chess" | "english" | "tanzanian";
export type Language = "sw" | "tl" | "en";
export type Colour = "white" | "black";

/** A move as a board knows it: its squares, and its notation when the server gave one. */
export interface BoardMove {
  from: string;
  to: string;
  path: string[];
  san?: string;
  /** chess: the move in SAN, to name it to the player (``san`` holds what the board sends) */
  notation?: string;
  promotion?: string | null;
  uci?: string;
}

/** The page's catalog texts: strings, plural forms ({one, other}) and the games' titles. */
export type Messages = Record<string, any>;

/** A multi-capture as hops (site/modules/capture_hops.js): the piece's squares, and per hop the pieces it takes. */
export interface Hops {
  route: string[];
  taken: { square: string; piece: string }[][];
}

/** What a game is like, from shared_rules/game_facts.py (the page's config carries it as ``game_facts``). */
export interface GameFacts {
  family: "chess" | "draughts";
  first_mover: Colour;
  light_side: "white" | "red";
  position: "fen" | "pdn";
  notation: "san" | "squares";
  check: boolean;
  promotion_choice: boolean;
  compulsory_capture: boolean;
}

/** A draughts variant's rules, as shared_rules describes them (shared_rules/game_facts.py, variant_rules):
 * what site/modules/draughts_rules.js is configured by. */
export interface DraughtsVariant {
  size: number;
  numbering: "pdn" | "algebraic";
  first_player: Colour;
  rows_of_men: number;
  men_capture_backward: boolean;
  flying_kings: boolean;
  king_landing: "adjacent" | "any" | "must_continue" | "first_continuation";
  crown_mid_capture: "stop" | "continue" | "at_end";
  maximum_capture: boolean;
  repetition: "always" | "option" | "never";
  quiet_plies_limit: number | null;
  countdown: boolean;
  option_defaults: Record<string, boolean | number | null>;
  pdn_game_type: string;
}
