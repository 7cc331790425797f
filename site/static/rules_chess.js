// @ts-check
// Pass-and-play's chess rules (chess.js, bundled in by the build): fetched only when a chess game opens on the phone.
export { ChessMatch } from "../modules/chess_rules.js";
