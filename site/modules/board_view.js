// @ts-check
// What a board shows: the grid of squares (an ARIA grid of rows of gridcells, each playable square a button
// named in the page's language), the pieces and the marks on them, the note under the board, the slide of
// the last move, the promotion choice, and the keyboard's moves between squares. It decides nothing: the
// Board (board.js) tells it what to draw and hears what the player taps.
import { format } from "./i18n.js";
import { FILES } from "./notation.js";
import { gameFacts } from "./game_facts.js";

/** One hop of a capture shown hop by hop: each as short as a move's slide. */
const HOP_MS = 240;

/**
 * @typedef {object} ViewInput  what the view reports: a tap on a square, a key on one, the pointer on the grid
 * @property {(square: string) => void} tap
 * @property {(event: KeyboardEvent, row: number, file: number) => void} key
 * @property {(event: PointerEvent) => void} pointerDown
 * @property {(event: PointerEvent) => void} pointerMove
 * @property {(event: PointerEvent) => void} pointerUp
 * @property {() => void} pointerCancel
 */

/**
 * @typedef {object} Marks  what ``draw`` shows on each square
 * @property {Record<string, string>} pieces
 * @property {string | null} selected
 * @property {string[]} clicks  the squares of a route tapped so far
 * @property {Set<string>} dests  where the next tap may go
 * @property {string[] | null} last  the last move's squares
 * @property {string | null} [checked]  the king in check's square
 * @property {(square: string) => boolean} movable  a piece the player may pick now
 */

export class BoardView {
  /**
   * Square names are drawn on the squares: numbers (PDN) on English boards, files and ranks on chess and
   * Tanzanian ones, turned with the board.
   * @param {HTMLElement} host
   * @param {{game: string, squares?: Record<string, [number, number]>, messages: Record<string, any>}} options
   * @param {ViewInput} input
   */
  constructor(host, { game, squares, messages }, input) {
    this.host = host;
    this.game = game;
    this.messages = messages;
    this.input = input;
    /** @type {Record<string, string>} */
    this.nameAt = {};
    const facts = gameFacts(game);
    if (facts.position === "fen") {
      for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) this.nameAt[r + "," + f] = FILES[f] + (r + 1);
    } else {
      for (const [name, [r, f]] of Object.entries(squares)) this.nameAt[r + "," + f] = name;
    }
    this.numbered = facts.notation === "squares" && Object.keys(squares).every((name) => /^\d+$/.test(name));
    /** @type {Record<string, HTMLButtonElement>} */
    this.cells = {};
    /** @type {HTMLDivElement} */
    this.grid = null;
    /** @type {HTMLParagraphElement} */
    this.note = null;
  }

  /** @param {string} orientation  "white" or "black": the side drawn at the bottom */
  build(orientation) {
    this.host.textContent = "";
    const m = this.messages;
    this.grid = document.createElement("div");
    this.grid.className = "grid";
    this.grid.setAttribute("role", "grid");
    this.grid.setAttribute("aria-label", m.board_label || "Board");
    this.grid.dataset.orientation = orientation;
    this.note = document.createElement("p");
    this.note.className = "board-note";
    this.note.setAttribute("role", "status");
    this.note.setAttribute("aria-live", "polite");
    this.cells = {};
    const flip = orientation === "black";
    for (let y = 0; y < 8; y++) {
      const rowBox = document.createElement("div");
      rowBox.setAttribute("role", "row");
      for (let x = 0; x < 8; x++) {
        const row = flip ? y : 7 - y;
        const file = flip ? 7 - x : x;
        rowBox.append(this.cell(this.nameAt[row + "," + file], x, y, row, file));
      }
      this.grid.append(rowBox);
    }
    this.grid.addEventListener("pointerdown", (event) => this.input.pointerDown(event));
    this.grid.addEventListener("pointermove", (event) => this.input.pointerMove(event));
    this.grid.addEventListener("pointerup", (event) => this.input.pointerUp(event));
    this.grid.addEventListener("pointercancel", () => this.input.pointerCancel());
    this.host.append(this.grid, this.note);
    const first = Object.values(this.cells)[0];
    if (first) first.tabIndex = 0;
  }

  /**
   * One gridcell: a button when the square is playable, and the names drawn on it.
   * @param {string | undefined} name @param {number} x @param {number} y @param {number} row @param {number} file
   */
  cell(name, x, y, row, file) {
    const dark = (row + file) % 2 === 0;
    const cell = document.createElement("div");
    cell.setAttribute("role", "gridcell");
    cell.className = "cell " + (dark ? "dark" : "light");
    if (name) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.square = name;
      button.tabIndex = -1;
      button.addEventListener("click", () => this.input.tap(name));
      button.addEventListener("keydown", (event) => this.input.key(event, row, file));
      cell.append(button);
      this.cells[name] = button;
    }
    for (const [kind, text] of this.labelsAt(name, x, y, row, file)) {
      const label = document.createElement("span");
      label.className = "lbl " + kind;
      label.setAttribute("aria-hidden", "true");
      label.textContent = text;
      cell.append(label);
    }
    return cell;
  }

  /**
   * The names drawn on a square: its number (PDN), or the file on the bottom row and the rank on the left.
   * @param {string | undefined} name @param {number} x @param {number} y @param {number} row @param {number} file
   * @returns {[string, string][]}
   */
  labelsAt(name, x, y, row, file) {
    if (this.numbered) return name ? [["n", name]] : [];
    /** @type {[string, string][]} */
    const labels = [];
    if (x === 0) labels.push(["r", String(row + 1)]);
    if (y === 7) labels.push(["f", FILES[file]]);
    return labels;
  }

  /** @param {Marks} marks */
  draw({ pieces, selected, clicks, dests, last, checked = null, movable }) {
    for (const [name, cell] of Object.entries(this.cells)) {
      const piece = pieces[name];
      for (const old of cell.querySelectorAll("svg")) old.remove(); // a taken piece's ghost too
      cell.classList.remove("taken");
      if (piece) {
        cell.insertAdjacentHTML("afterbegin",
          `<svg viewBox="0 0 45 45" aria-hidden="true"><use href="#${this.sprite(piece)}"></use></svg>`);
      }
      cell.classList.toggle("sel", name === selected || clicks.includes(name));
      cell.classList.toggle("dest", dests.has(name));
      cell.classList.toggle("full", dests.has(name) && !!piece);
      cell.classList.toggle("last", !!last && last.includes(name));
      cell.classList.toggle("check", name === checked);
      cell.classList.toggle("mine", !!piece && movable(name));
      let label = format(this.messages.square_label, { square: name, piece: piece ? this.pieceName(piece) : this.messages.empty });
      if (dests.has(name)) label += ", " + this.messages.legal_here;
      cell.setAttribute("aria-label", label);
      cell.setAttribute("aria-pressed", name === selected ? "true" : "false");
    }
  }

  /** The piece's name in the page's language (White's draughts pieces are Red in English draughts). @param {string} piece */
  pieceName(piece) {
    const m = this.messages;
    if (gameFacts(this.game).position === "fen") return m["piece_" + piece] || piece;
    const side = this.sideLetter(piece);
    return m["piece_" + side + piece[1]] || piece;
  }

  /** A draughts piece's side as its names and sprites spell it: "r" for Red, "w", "b". @param {string} piece */
  sideLetter(piece) {
    if (piece[0] !== "w") return "b";
    return gameFacts(this.game).light_side === "red" ? "r" : "w";
  }

  /** The sprite's symbol for a piece (site/diagrams.py draws them). @param {string} piece */
  sprite(piece) {
    if (gameFacts(this.game).position === "fen") return "pc-" + piece;
    const side = this.sideLetter(piece);
    return "pc-" + side + piece[1];
  }

  /** The piece now on ``to`` slides in from ``from``: the move that led here. @param {string} from @param {string} to */
  slide(from, to) {
    const start = this.cells[from];
    const end = this.cells[to];
    const piece = end && end.querySelector("svg");
    if (!start || !piece || !piece.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const a = start.getBoundingClientRect();
    const b = end.getBoundingClientRect();
    const away = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
    piece.animate([{ transform: away }, { transform: "none" }], { duration: 260, easing: "ease-out" });
    this.grid.dataset.slid = `${from}-${to}`; // the last move animated: for tests and styles
  }

  /**
   * A multi-capture hop by hop: the piece now on the route's last square goes through each landing square in
   * turn, and each piece a hop takes stays on its square, marked ``taken``, until that hop is done. With
   * reduced motion nothing moves: the taken pieces' squares are only marked.
   * @param {{route: string[], taken: {square: string, piece: string}[][]}} hops
   */
  hop({ route, taken }) {
    const end = this.cells[route[route.length - 1]];
    const piece = end && end.querySelector("svg");
    this.grid.dataset.hops = route.join("-"); // the capture shown: for tests and styles
    const still = !piece || !piece.animate || matchMedia("(prefers-reduced-motion: reduce)").matches;
    taken.forEach((pieces, i) => {
      for (const { square, piece: gone } of pieces) {
        const cell = this.cells[square];
        if (!cell) continue;
        cell.classList.add("taken");
        if (still) continue;
        cell.insertAdjacentHTML("afterbegin", `<svg class="ghost" viewBox="0 0 45 45" aria-hidden="true"><use href="#${this.sprite(gone)}"></use></svg>`);
        setTimeout(() => cell.querySelector("svg.ghost")?.remove(), HOP_MS * (i + 1));
      }
    });
    if (still) return;
    const box = end.getBoundingClientRect();
    const frames = route.map((square) => {
      const at = this.cells[square].getBoundingClientRect();
      return { transform: `translate(${at.left - box.left}px, ${at.top - box.top}px)` };
    });
    piece.animate(frames, { duration: HOP_MS * (route.length - 1), easing: "linear" });
  }

  /**
   * The note under the board: spoken by screen readers; ``quiet`` notes are for them only.
   * @param {string} text @param {boolean} [quiet] @param {boolean} [refusal]
   */
  say(text, quiet = false, refusal = false) {
    this.note.textContent = text;
    this.note.classList.toggle("sr", quiet);
    this.note.classList.toggle("bad", refusal);
  }

  /** A refused piece shakes; the class stays until the next refusal, marking it. @param {string | null} square */
  shake(square) {
    const shaken = this.cells[square];
    for (const cell of Object.values(this.cells)) cell.classList.remove("shake");
    if (shaken) {
      void shaken.offsetWidth; // restart the animation when the same piece is refused twice
      shaken.classList.add("shake");
    }
  }

  /**
   * The promotion choice under the board; ``done`` gets the chosen letter.
   * @param {string[]} choices @param {boolean} white @param {(letter: string) => void} done
   */
  askPromotion(choices, white, done) {
    const box = document.createElement("div");
    box.className = "promo";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", this.messages.promote_to);
    for (const letter of choices) {
      const piece = white ? letter.toUpperCase() : letter;
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("aria-label", this.pieceName(piece));
      button.innerHTML = `<svg viewBox="0 0 45 45" width="36" height="36" aria-hidden="true"><use href="#pc-${piece}"></use></svg>`;
      button.addEventListener("click", () => {
        box.remove();
        done(letter);
      });
      box.append(button);
    }
    this.host.append(box);
    box.querySelector("button").focus();
  }

  /**
   * The arrow keys move the focus to the next playable square that way (turned with the board).
   * @param {KeyboardEvent} event @param {number} row @param {number} file @param {string} orientation
   */
  moveFocus(event, row, file, orientation) {
    const steps = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!steps) return;
    event.preventDefault();
    let [dr, df] = steps;
    if (orientation === "black") [dr, df] = [-dr, -df];
    const tries = dr ? [[dr, 0], [dr, 1], [dr, -1]] : [[0, df], [0, 2 * df]];
    for (const [a, b] of tries) {
      const name = this.nameAt[row + a + "," + (file + b)];
      if (name && this.cells[name]) {
        for (const cell of Object.values(this.cells)) cell.tabIndex = -1;
        this.cells[name].tabIndex = 0;
        this.cells[name].focus();
        return;
      }
    }
  }
}
