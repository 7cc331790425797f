// @ts-check
// Pass-and-play's chess (one phone for two, no server): the moves are chess.js's (npm, BSD-2-Clause, pinned
// to 1.4.0 in package.json, which tests/site/test_pass_and_play.py keeps equal to this line; the build
// bundles it into static/rules_chess.js, fetched only when a chess game opens on the phone). The end of the
// game is decided as shared_rules/chess_game.py decides it, in the same order, with the seeds' draws:
// mate and stalemate, the material the seeds list as unable to mate, threefold repetition, fifty moves.
import { Chess } from "chess.js";

/** The light squares of the board: a1 is dark, so a square is light when its file and rank differ in parity. */
const light = (/** @type {string} */ square) => (square.charCodeAt(0) - 97 + Number(square[1])) % 2 === 0;

export class ChessMatch {
  /** @param {string | null} [fen]  a set-up start; the usual one without */
  constructor(fen = null) {
    this.chess = fen ? new Chess(fen) : new Chess();
    /** @type {{moves: string[], notations: string[]} | null} */
    this.legalNow = null;
  }

  /** @returns {"white" | "black"} */
  get turn() {
    return this.chess.turn() === "w" ? "white" : "black";
  }

  fen() {
    return this.chess.fen();
  }

  inCheck() {
    return this.chess.inCheck();
  }

  /**
   * What the board sends (UCI, "e7e8q") and what the player reads (SAN), move by move; none once over. Kept
   * until the next move (SAN costs chess.js a trial move each).
   * @returns {{moves: string[], notations: string[]}}
   */
  legal() {
    if (!this.legalNow) {
      const moves = this.status().result === "ongoing" ? this.chess.moves({ verbose: true }) : [];
      this.legalNow = { moves: moves.map((move) => move.from + move.to + (move.promotion || "")), notations: moves.map((move) => move.san) };
    }
    return this.legalNow;
  }

  /** Plays a move the board sent (UCI); returns it in SAN. @param {string} uci */
  play(uci) {
    const { moves, notations } = this.legal();
    const index = moves.indexOf(uci);
    if (index < 0) throw new Error(`not a legal move here: ${uci}`);
    this.chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    this.legalNow = null;
    return notations[index];
  }

  /** Only kings, or one minor piece, or a bishop each on squares of one colour: nobody can mate. */
  insufficientMaterial() {
    const others = this.chess.board().flat().filter((piece) => piece && piece.type !== "k");
    if (others.some((piece) => "pqr".includes(piece.type))) return false;
    if (others.length <= 1) return true;
    if (others.length !== 2 || others.some((piece) => piece.type !== "b") || others[0].color === others[1].color) return false;
    return light(others[0].square) === light(others[1].square);
  }

  /** @returns {{result: string, reason: string | null}} as shared_rules words them */
  status() {
    const chess = this.chess;
    if (chess.isCheckmate()) return { result: chess.turn() === "w" ? "black" : "white", reason: "checkmate" };
    if (chess.isStalemate()) return { result: "draw", reason: "stalemate" };
    if (this.insufficientMaterial()) return { result: "draw", reason: "insufficient_material" };
    if (chess.isThreefoldRepetition()) return { result: "draw", reason: "threefold_repetition" };
    if (chess.isDrawByFiftyMoves()) return { result: "draw", reason: "fifty_moves" };
    return { result: "ongoing", reason: null };
  }
}
