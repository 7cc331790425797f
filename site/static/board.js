// @ts-check
// ubao board: one small ES module for every interactive board (no framework, no rules code).
// It draws a position from FEN (board_view.js), lets the player pick a piece and a square by tap, click,
// drag (board_drag.js) or keyboard, and reports the move. When the page knows the legal moves (computed on
// the server or at build time) it shows them and accepts only those; otherwise the server judges.
import { BoardDrag } from "../modules/board_drag.js";
import { BoardView } from "../modules/board_view.js";
import { format, refusalText } from "../modules/i18n.js";
import { parseFen, pieceColour } from "../modules/notation.js";
import { gameFacts } from "../modules/game_facts.js";

/** @typedef {import("../types").BoardMove} BoardMove */

/**
 * @typedef {object} BoardOptions
 * @property {string} game
 * @property {string} fen
 * @property {string} [orientation]  "white" (default) or "black": the side drawn at the bottom
 * @property {Record<string, [number, number]>} [squares]  draughts: name -> [row, file]
 * @property {BoardMove[] | null} [legal]  the legal moves when known; null: the server judges
 * @property {boolean} [showLegal]  mark where the selected piece may go
 * @property {Record<string, any>} messages
 * @property {(move: BoardMove) => void} [onMove]
 * @property {() => string | null} [whyIdle]  what a tap on the board says while it takes no move (whose turn)
 */

export class Board {
  /**
   * A multi-capture is entered hop by hop: after the piece, each tap picks the next landing square, and
   * only the squares that continue a legal route are marked. With the legal moves known, a refused tap
   * shakes the piece and the note under the board says why.
   * @param {HTMLElement} host
   * @param {BoardOptions} options
   */
  constructor(host, options) {
    this.game = options.game;
    this.messages = options.messages;
    this.orientation = options.orientation || "white";
    this.showLegal = options.showLegal ?? true;
    this.onMove = options.onMove;
    this.whyIdle = options.whyIdle;
    this.interactive = true;
    /** @type {string | null} */
    this.selected = null;
    /** @type {string[]} the squares of a route tapped so far */
    this.clicks = [];
    this.dragInput = new BoardDrag({
      interactive: () => this.interactive,
      ownPiece: (square) => this.ownPiece(square),
      selected: () => this.selected,
      click: (square) => this.click(square),
      grid: () => this.view.grid,
      cell: (square) => this.view.cells[square],
    });
    this.view = new BoardView(host, options, {
      tap: (square) => this.dragInput.dragged || this.click(square),
      key: (event, row, file) => this.key(event, row, file),
      pointerDown: (event) => this.dragInput.start(event),
      pointerMove: (event) => this.dragInput.move(event),
      pointerUp: (event) => this.dragInput.end(event),
      pointerCancel: () => this.dragInput.reset(),
    });
    this.view.build(this.orientation);
    this.setPosition(options.fen, { legal: options.legal ?? null });
  }

  /**
   * ``slide``: [from, to] of the move that led here, shown as a short slide of the piece now on ``to``.
   * @param {string} fen
   * ``check``: the side to move is in check (chess), so its king's square is marked and a refused tap says so.
   * ``hops``: a multi-capture that led here, shown hop by hop instead of a slide.
   * @param {{legal?: BoardMove[] | null, last?: string[] | null, orientation?: string | null, slide?: string[] | null, check?: boolean, hops?: import("../types").Hops | null}} [state]
   */
  setPosition(fen, { legal = null, last = null, orientation = null, slide = null, check = false, hops = null } = {}) {
    if (orientation && orientation !== this.orientation) {
      this.orientation = orientation;
      this.view.build(orientation);
    }
    this.fen = fen;
    this.legal = legal;
    this.last = last;
    const { pieces, turn } = parseFen(this.game, fen);
    this.pieces = pieces;
    this.turn = turn;
    this.check = check;
    this.selected = null;
    this.clicks = [];
    this.draw();
    if (hops) this.view.hop(hops);
    else if (slide) this.view.slide(slide[0], slide[1]);
  }

  /**
   * A move kept to be sent later (offline): its piece drawn on its landing square, both squares marked, the
   * board still. Pieces it takes stay until the server has the move and the page reads the game again.
   * @param {BoardMove} move
   */
  showQueued(move) {
    const piece = this.pieces[move.from];
    if (!piece) return;
    delete this.pieces[move.from];
    const promoted = move.promotion && (this.turn === "white" ? move.promotion.toUpperCase() : move.promotion);
    this.pieces[move.to] = promoted || piece;
    this.last = [move.from, move.to];
    this.setInteractive(false);
  }

  /** @param {BoardMove[] | null} legal */
  setLegal(legal) {
    this.legal = legal;
    this.draw();
  }

  /** @param {boolean} on */
  setInteractive(on) {
    this.interactive = on;
    this.selected = null;
    this.clicks = [];
    this.draw();
  }

  draw() {
    this.view.draw({
      pieces: this.pieces,
      selected: this.selected,
      clicks: this.clicks,
      dests: this.showLegal ? this.nextSquares() : new Set(),
      last: this.last,
      checked: this.check ? this.kingSquare() : null,
      movable: (square) => this.interactive && this.ownPiece(square),
    });
  }

  /** The squares the next tap may choose: the next landing square of every route that fits the taps so far. */
  nextSquares() {
    const next = new Set();
    if (!this.selected || !this.legal) return next;
    const depth = this.clicks.length;
    for (const move of this.candidates()) {
      if (move.path.length > depth) next.add(move.path[depth]);
      else if (depth) next.add(this.clicks[depth - 1]); // a route may stop here: tap it again to stop
    }
    return next;
  }

  /** @param {string} square */
  movesFrom(square) {
    return (this.legal || []).filter((move) => move.from === square);
  }

  candidates() {
    return this.movesFrom(this.selected).filter((move) => this.clicks.every((sq, i) => move.path[i] === sq));
  }

  /** @param {string} square */
  ownPiece(square) {
    const piece = this.pieces[square];
    return !!piece && pieceColour(this.game, piece) === this.turn;
  }

  /** @param {string} square */
  click(square) {
    if (!this.interactive) {
      const why = this.whyIdle && this.whyIdle();
      if (why) this.view.say(why, false, true); // a tap that does nothing says why, under the board
      return;
    }
    this.view.say("");
    if (this.selected && square !== this.selected) {
      if (this.legal) {
        if (this.tryLegal(square)) return;
        if (!this.ownPiece(square)) return this.refuse(square);
      } else if (!this.ownPiece(square)) {
        const from = this.selected;
        this.selected = null;
        this.draw();
        this.finishRaw(from, square);
        return;
      }
    }
    if (square === this.selected && !this.clicks.length) {
      this.selected = null;
      this.clicks = [];
    } else if (square === this.selected) {
      this.clicks = []; // back to the start of the route
    } else if (this.ownPiece(square) && (!this.legal || this.movesFrom(square).length)) {
      this.selected = square;
      this.clicks = [];
      this.view.say(format(this.messages.selected, { square }), true);
    } else {
      this.selected = null;
      this.clicks = [];
      if (this.legal) return this.refuse(square);
    }
    this.draw();
  }

  /** A tap on ``square`` with a piece selected and the legal moves known: true when it was used. @param {string} square */
  tryLegal(square) {
    const candidates = this.candidates();
    const depth = this.clicks.length;
    const along = candidates.filter((m) => m.path[depth] === square);
    if (along.length) {
      const ends = along.filter((m) => m.path.length === depth + 1);
      if (ends.length && ends.length === along.length) {
        this.finish(ends);
        return true;
      }
      this.clicks = [...this.clicks, square];
      if (ends.length) this.view.say(this.messages.route_may_stop, true);
      this.draw();
      return true;
    }
    if (depth && square === this.clicks[depth - 1]) {
      const ends = candidates.filter((m) => m.path.length === depth);
      if (ends.length) {
        this.finish(ends);
        return true;
      }
    }
    // The last square of a route, tapped at once: enough when only one route ends there.
    const direct = candidates.filter((m) => m.to === square);
    if (direct.length && distinctRoutes(direct).length === 1) {
      this.finish(direct);
      return true;
    }
    if (direct.length) {
      this.view.say(this.messages.route_choose, true);
      return true;
    }
    return false;
  }

  /** The square of the king of the side to move (chess). */
  kingSquare() {
    const king = this.turn === "white" ? "K" : "k";
    return Object.keys(this.pieces).find((square) => this.pieces[square] === king) || null;
  }

  /** Why a tap is refused (the same reasons as the server's ``error.reason``), shown and spoken. @param {string} square */
  refusalReason(square) {
    if (this.check && (this.selected || this.ownPiece(square))) return "in_check"; // the king must be saved first
    if (this.selected) return this.captureRequired() ? "capture_required" : "blocked";
    if (!this.pieces[square]) return "no_piece";
    if (!this.ownPiece(square)) return "wrong_color";
    return this.captureRequired() ? "capture_required" : "blocked";
  }

  captureRequired() {
    return gameFacts(this.game).compulsory_capture && !!this.legal && this.legal.length > 0 && this.legal.every((m) => /x/.test(m.san || ""));
  }

  /** @param {string} square */
  refuse(square) {
    const reason = this.refusalReason(square);
    const shaken = this.selected && this.view.cells[this.selected] ? this.selected : square;
    this.selected = null;
    this.clicks = [];
    this.draw();
    this.view.say(refusalText(this.messages, reason, { square, game: this.game, moves: (this.legal || []).map((m) => m.san) }), false, true);
    this.view.shake(shaken);
  }

  /** @param {BoardMove[]} moves  the moves the taps chose: one, or one per promotion piece */
  finish(moves) {
    if (moves.length > 1 && moves.every((m) => m.promotion)) {
      this.view.askPromotion(moves.map((m) => m.promotion), this.turn === "white",
        (piece) => this.emit(moves.find((m) => m.promotion === piece)));
      return;
    }
    this.emit(moves[0]);
  }

  /** A move tapped with no legal moves known: the server judges it. @param {string} from @param {string} to */
  finishRaw(from, to) {
    const piece = this.pieces[from];
    const lastRank = to.endsWith(this.turn === "white" ? "8" : "1");
    if (gameFacts(this.game).promotion_choice && piece && piece.toLowerCase() === "p" && lastRank) {
      this.view.askPromotion(["q", "r", "b", "n"], this.turn === "white",
        (promotion) => this.emit({ from, to, promotion, path: [to] }));
      return;
    }
    this.emit({ from, to, promotion: null, path: [to] });
  }

  /** @param {BoardMove} move */
  emit(move) {
    this.selected = null;
    this.clicks = [];
    this.draw();
    if (this.onMove) this.onMove(move);
  }

  /** @param {KeyboardEvent} event @param {number} row @param {number} file */
  key(event, row, file) {
    if (event.key === "Escape") {
      this.selected = null;
      this.clicks = [];
      this.draw();
      return;
    }
    this.view.moveFocus(event, row, file, this.orientation);
  }
}

/**
 * The routes among moves: chess promotions share from/to and differ by piece, one route and a choice of piece.
 * @param {BoardMove[]} moves
 */
function distinctRoutes(moves) {
  return [...new Set(moves.map((m) => m.path.join("-")))];
}
