// @ts-check
// The game page's move list you can step through: the moves in numbered pairs under the board, each a button
// that shows the position after it; first, back, forward and last (the buttons, and the arrow keys), and
// "back to the game". Positions come from a PositionCache (positions.js), a page at a time, only when a step
// needs one. While a past position is shown the board is still; a new move does not pull it away.
import { captureHops } from "./capture_hops.js";
import { inCheck } from "./game_text.js";
import { movePairs, moveTexts } from "./move_list.js";
import { draughtsSquares, movedSquares } from "./notation.js";
import { gameFacts } from "./game_facts.js";

/**
 * The ply a key or a control leads to, from the ply shown (null: the game as it is now, at ``ply``); null
 * for a key that is not a step.
 * @param {string} step  "first", "back", "forward", "last", or a key's name
 * @param {number | null} viewing
 * @param {number} ply  the game's ply
 * @returns {number | null}
 */
export function stepTarget(step, viewing, ply) {
  const at = viewing ?? ply;
  const target = {
    first: 0, Home: 0, ArrowUp: 0,
    back: at - 1, ArrowLeft: at - 1,
    forward: at + 1, ArrowRight: at + 1,
    last: ply, End: ply, ArrowDown: ply,
  }[step];
  return target === undefined ? null : Math.max(0, Math.min(ply, target));
}

/**
 * The squares of the move that led to ``fen``, for the board's marks: draughts notation names them, a chess
 * move's are read from the two positions.
 * @param {string} game @param {string} move @param {string} before @param {string} fen
 * @returns {string[] | null}
 */
function markedSquares(game, move, before, fen) {
  if (gameFacts(game).notation === "san") return movedSquares(game, before, fen);
  const squares = draughtsSquares(move);
  return squares ? [squares[0], squares[squares.length - 1]] : null;
}

export class MoveSteps {
  /**
   * @param {object} parts
   * @param {HTMLOListElement} parts.list
   * @param {HTMLElement} parts.controls  buttons with data-step: first, back, forward, last, live
   * @param {() => any} parts.board  the page's Board
   * @param {() => void} parts.live  draws the game as it is now
   * @param {(game: string) => Record<string, [number, number]>} parts.squares  a draughts game's: name -> [row, file]
   */
  constructor({ list, controls, board, live, squares }) {
    this.list = list;
    this.controls = controls;
    this.board = board;
    this.live = live;
    this.squares = squares;
    /** @type {number | null} the ply shown; null: the game as it is now */
    this.viewing = null;
    /** @type {any} the game as the page last read it */
    this.game = null;
    /** @type {import("./positions.js").PositionCache | null} */
    this.positions = null;
    this.asked = 0; // the latest step asked for: an older one's answer is dropped
    controls.addEventListener("click", (event) => {
      const step = /** @type {HTMLElement} */ (event.target).closest("[data-step]");
      if (step) this.step(/** @type {HTMLElement} */ (step).dataset.step || "");
    });
    list.addEventListener("click", (event) => {
      const move = /** @type {HTMLElement} */ (event.target).closest("[data-ply]");
      if (move) this.go(Number(/** @type {HTMLElement} */ (move).dataset.ply));
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** A new game, or the same game read again. @param {any} game @param {import("./positions.js").PositionCache} positions */
  update(game, positions) {
    if (!this.game || this.game.id !== game.id) this.viewing = null;
    this.game = game;
    this.positions = positions;
    positions.remember(game.ply, game.fen);
    this.renderList();
    this.mark();
  }

  /** The moves in pairs, each a button; the <ol> numbers the pairs, the ellipsis of a second-player start stays text. */
  renderList() {
    const game = this.game;
    const moves = moveTexts(game.moves);
    this.list.textContent = "";
    let ply = (game.ply || 0) - moves.length;
    for (const pair of movePairs(game.game, moves, game.turn)) {
      const li = document.createElement("li");
      for (const [i, text] of pair.split(" ").entries()) {
        if (i) li.append(" ");
        if (text === "…") li.append(text);
        else li.append(this.moveButton(text, ++ply));
      }
      this.list.append(li);
    }
  }

  /** @param {string} text @param {number} ply */
  moveButton(text, ply) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.ply = String(ply);
    button.textContent = text;
    return button;
  }

  /** The move shown marked, the controls that lead nowhere off, the newest move in view when the game is shown. */
  mark() {
    const ply = this.game.ply || 0;
    const shown = this.viewing ?? ply;
    for (const button of this.list.querySelectorAll("button[data-ply]")) {
      const here = Number(/** @type {HTMLElement} */ (button).dataset.ply) === shown;
      if (here) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (this.controls.querySelectorAll("[data-step]"))) {
      const step = button.dataset.step || "";
      if (step === "live") button.hidden = this.viewing === null;
      else button.disabled = stepTarget(step, this.viewing, ply) === shown;
    }
    this.controls.hidden = ply === 0;
    const current = this.list.querySelector("[aria-current]");
    if (this.viewing === null || !current) this.list.scrollLeft = this.list.scrollWidth;
    else current.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** @param {string} step */
  step(step) {
    if (step === "live") return this.backToGame();
    const target = stepTarget(step, this.viewing, this.game ? this.game.ply || 0 : 0);
    if (target !== null) this.go(target);
  }

  /** The arrow keys step through the moves, unless they are typing or moving around the board. @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    if (!this.game || this.list.closest("[hidden]") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (target.closest("input, textarea, select, [role=grid], .promo")) return;
    const ply = stepTarget(event.key, this.viewing, this.game.ply || 0);
    if (ply === null) return;
    event.preventDefault();
    this.go(ply);
  }

  /** The position after ply ``ply`` on the board; the game's own ply goes back to the game. @param {number} ply */
  async go(ply) {
    const game = this.game;
    if (!game || !this.positions) return;
    if (ply >= game.ply) return this.backToGame();
    const asked = ++this.asked;
    const fen = await this.positions.fenAt(ply).catch(() => null);
    const before = ply > 0 ? await this.positions.fenAt(ply - 1).catch(() => null) : null;
    if (asked !== this.asked || !fen || this.game !== game) return;
    const forward = ply === (this.viewing ?? game.ply) + 1;
    const moves = moveTexts(game.moves);
    const move = moves[moves.length - (game.ply - ply) - 1];
    const last = before && move ? markedSquares(game.game, move, before, fen) : null;
    const hops = forward && before && move ? captureHops(game.game, this.squares(game.game) || {}, before, fen, move) : null;
    this.viewing = ply;
    const board = this.board();
    const check = inCheck(game.game, moves.slice(0, moves.length - (game.ply - ply)));
    board.setInteractive(false); // before the position: drawing again after it would cut its animation short
    board.setPosition(fen, { last, check, slide: forward ? last : null, hops });
    board.view.host.dataset.viewing = String(ply);
    this.mark();
  }

  /** The game as it is now, and its newest move in view. */
  backToGame() {
    this.asked++;
    const host = this.board() && this.board().view.host;
    if (host) delete host.dataset.viewing;
    if (this.viewing === null) return;
    this.viewing = null;
    this.live();
  }
}
