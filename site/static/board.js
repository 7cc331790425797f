// ubao board: one small ES module for every interactive board (no framework, no rules code).
// It draws a position from FEN as a grid of buttons, lets the player pick a piece and a square by
// tap, click or keyboard, and reports the move. When the page knows the legal moves (computed on the
// server or at build time) it shows them and accepts only those; otherwise the server judges.

const FILES = "abcdefgh";

export function config() {
  const node = document.getElementById("ubao-config");
  const cfg = node ? JSON.parse(node.textContent) : {};
  try {
    if (cfg.lang) localStorage.setItem("ubao.lang", cfg.lang); // the /game/ link opens in this language
  } catch {
    /* private mode: nothing to remember */
  }
  return cfg;
}

export function format(template, values = {}) {
  return String(template).replace(/%\((\w+)\)s|\{(\w+)\}/g, (_, a, b) => String(values[a || b] ?? ""));
}

export function plural(messages, key, n) {
  const forms = messages[key];
  const category = new Intl.PluralRules(messages.plural_locale).select(n);
  return format(forms[category] || forms.other, { n });
}

/** Pieces by square name, and the side to move, from a chess FEN or a PDN (draughts) FEN. */
export function parseFen(game, fen) {
  const pieces = {};
  if (game === "chess") {
    const [placement, turn] = fen.split(" ");
    placement.split("/").forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else pieces[FILES[file++] + (8 - i)] = ch;
      }
    });
    return { pieces, turn: turn === "b" ? "black" : "white" };
  }
  const [turn, ...sides] = fen.split(":");
  for (const side of sides) {
    const colour = side[0].toUpperCase() === "W" ? "w" : "b";
    for (const item of side.slice(1).split(",").filter(Boolean)) {
      const king = item[0].toUpperCase() === "K";
      pieces[king ? item.slice(1) : item] = colour + (king ? "k" : "m");
    }
  }
  return { pieces, turn: turn.toUpperCase() === "B" ? "black" : "white" };
}

/** The squares a move went from and to, found by comparing the positions before and after it (any game,
 * any notation): the mover's piece that left a square and the one that arrived; the king's when castling. */
export function movedSquares(game, beforeFen, afterFen) {
  const before = parseFen(game, beforeFen);
  const after = parseFen(game, afterFen).pieces;
  const mine = (piece) => !!piece && pieceColour(game, piece) === before.turn;
  const left = Object.keys(before.pieces).filter((sq) => mine(before.pieces[sq]) && after[sq] !== before.pieces[sq]);
  const came = Object.keys(after).filter((sq) => mine(after[sq]) && before.pieces[sq] !== after[sq]);
  if (!left.length || !came.length) return null;
  const king = (list, pieces) => list.find((sq) => /^[Kk]$|k$/.test(pieces[sq])) || list[0];
  return [king(left, before.pieces), king(came, after)];
}

function pieceColour(game, piece) {
  if (game === "chess") return piece === piece.toUpperCase() ? "white" : "black";
  return piece[0] === "w" ? "white" : "black";
}

export class Board {
  /**
   * host: element to draw into. options: game, fen, orientation ("white"|"black"), squares (draughts:
   * name -> [row, file]), legal (array of {from, to, path, san, promotion} or null), showLegal,
   * messages, onMove(move).
   *
   * The board is an ARIA grid (rows of gridcells); each playable square holds a button named in the page's
   * language. Square names are drawn on the squares: numbers (PDN) on English boards, files and ranks on
   * chess and Tanzanian ones, turned with the board. A multi-capture is entered hop by hop: after the
   * piece, each tap picks the next landing square, and only the squares that continue a legal route are
   * marked. With the legal moves known, a refused tap shakes the piece and the note under the board says why.
   */
  constructor(host, options) {
    Object.assign(this, { legal: null, showLegal: true, orientation: "white", interactive: true }, options);
    this.host = host;
    this.nameAt = {};
    if (this.game === "chess") {
      for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) this.nameAt[r + "," + f] = FILES[f] + (r + 1);
    } else {
      for (const [name, [r, f]] of Object.entries(this.squares)) this.nameAt[r + "," + f] = name;
    }
    this.numbered = this.game !== "chess" && Object.keys(this.squares).every((name) => /^\d+$/.test(name));
    this.coordsOf = Object.fromEntries(Object.entries(this.nameAt).map(([rc, n]) => [n, rc.split(",").map(Number)]));
    this.build();
    this.setPosition(this.fen, { legal: this.legal });
  }

  build() {
    this.host.textContent = "";
    const m = this.messages;
    this.grid = document.createElement("div");
    this.grid.className = "grid";
    this.grid.setAttribute("role", "grid");
    this.grid.setAttribute("aria-label", m.board_label || "Board");
    this.grid.dataset.orientation = this.orientation;
    this.note = document.createElement("p");
    this.note.className = "board-note";
    this.note.setAttribute("role", "status");
    this.note.setAttribute("aria-live", "polite");
    this.cells = {};
    const flip = this.orientation === "black";
    for (let y = 0; y < 8; y++) {
      const rowBox = document.createElement("div");
      rowBox.setAttribute("role", "row");
      for (let x = 0; x < 8; x++) {
        const row = flip ? y : 7 - y;
        const file = flip ? 7 - x : x;
        const name = this.nameAt[row + "," + file];
        const dark = (row + file) % 2 === 0;
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.className = "cell " + (dark ? "dark" : "light");
        if (name) {
          const button = document.createElement("button");
          button.type = "button";
          button.dataset.square = name;
          button.tabIndex = -1;
          button.addEventListener("click", () => {
            if (this.dragged) return;
            this.click(name);
          });
          button.addEventListener("keydown", (event) => this.key(event, row, file));
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
        rowBox.append(cell);
      }
      this.grid.append(rowBox);
    }
    this.grid.addEventListener("pointerdown", (event) => this.dragStart(event));
    this.grid.addEventListener("pointermove", (event) => this.dragMove(event));
    this.grid.addEventListener("pointerup", (event) => this.dragEnd(event));
    this.grid.addEventListener("pointercancel", () => this.dragReset());
    this.host.append(this.grid, this.note);
    const first = Object.values(this.cells)[0];
    if (first) first.tabIndex = 0;
  }

  /** The names drawn on a square: its number (PDN), or the file on the bottom row and the rank on the left. */
  labelsAt(name, x, y, row, file) {
    if (this.numbered) return name ? [["n", name]] : [];
    const labels = [];
    if (x === 0) labels.push(["r", String(row + 1)]);
    if (y === 7) labels.push(["f", FILES[file]]);
    return labels;
  }

  /** ``slide``: [from, to] of the move that led here, shown as a short slide of the piece now on ``to``. */
  setPosition(fen, { legal = null, last = null, orientation = null, slide = null } = {}) {
    if (orientation && orientation !== this.orientation) {
      this.orientation = orientation;
      this.build();
    }
    this.fen = fen;
    this.legal = legal;
    this.last = last;
    const { pieces, turn } = parseFen(this.game, fen);
    this.pieces = pieces;
    this.turn = turn;
    this.selected = null;
    this.clicks = [];
    this.draw();
    if (slide) this.slide(slide[0], slide[1]);
  }

  slide(from, to) {
    const start = this.cells[from];
    const end = this.cells[to];
    const piece = end && end.querySelector("svg");
    if (!start || !piece || !piece.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const a = start.getBoundingClientRect();
    const b = end.getBoundingClientRect();
    const away = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
    piece.animate([{ transform: away }, { transform: "none" }], { duration: 260, easing: "ease-out" });
  }

  setLegal(legal) {
    this.legal = legal;
    this.draw();
  }

  setInteractive(on) {
    this.interactive = on;
    this.selected = null;
    this.clicks = [];
    this.draw();
  }

  pieceName(piece) {
    const m = this.messages;
    if (this.game === "chess") return m["piece_" + piece] || piece;
    const side = piece[0] === "w" ? (this.game === "english" ? "r" : "w") : "b";
    return m["piece_" + side + piece[1]] || piece;
  }

  sprite(piece) {
    if (this.game === "chess") return "pc-" + piece;
    const side = piece[0] === "w" ? (this.game === "english" ? "r" : "w") : "b";
    return "pc-" + side + piece[1];
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

  draw() {
    const dests = this.showLegal ? this.nextSquares() : new Set();
    for (const [name, cell] of Object.entries(this.cells)) {
      const piece = this.pieces[name];
      cell.querySelector("svg")?.remove();
      if (piece) {
        cell.insertAdjacentHTML("afterbegin",
          `<svg viewBox="0 0 45 45" aria-hidden="true"><use href="#${this.sprite(piece)}"></use></svg>`);
      }
      cell.classList.toggle("sel", name === this.selected || this.clicks.includes(name));
      cell.classList.toggle("dest", dests.has(name));
      cell.classList.toggle("full", dests.has(name) && !!piece);
      cell.classList.toggle("last", !!this.last && this.last.includes(name));
      cell.classList.toggle("mine", this.interactive && !!piece && this.ownPiece(name));
      let label = format(this.messages.square_label, { square: name, piece: piece ? this.pieceName(piece) : this.messages.empty });
      if (dests.has(name)) label += ", " + this.messages.legal_here;
      cell.setAttribute("aria-label", label);
      cell.setAttribute("aria-pressed", name === this.selected ? "true" : "false");
    }
  }

  movesFrom(square) {
    return (this.legal || []).filter((move) => move.from === square);
  }

  candidates() {
    return this.movesFrom(this.selected).filter((move) => this.clicks.every((sq, i) => move.path[i] === sq));
  }

  ownPiece(square) {
    const piece = this.pieces[square];
    return !!piece && pieceColour(this.game, piece) === this.turn;
  }

  click(square) {
    if (!this.interactive) return;
    this.say("");
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
      this.say(format(this.messages.selected, { square }), true);
    } else {
      this.selected = null;
      this.clicks = [];
      if (this.legal) return this.refuse(square);
    }
    this.draw();
  }

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
      if (ends.length) this.say(this.messages.route_may_stop, true);
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
      this.say(this.messages.route_choose, true);
      return true;
    }
    return false;
  }

  /** Why a tap is refused (the same reasons as the server's ``error.reason``), shown and spoken. */
  refusalReason(square) {
    if (this.selected) return this.captureRequired() ? "capture_required" : "blocked";
    if (!this.pieces[square]) return "no_piece";
    if (!this.ownPiece(square)) return "wrong_color";
    return this.captureRequired() ? "capture_required" : "blocked";
  }

  captureRequired() {
    return this.game !== "chess" && !!this.legal && this.legal.length > 0 && this.legal.every((m) => /x/.test(m.san || ""));
  }

  refuse(square) {
    const reason = this.refusalReason(square);
    const shaken = this.cells[this.selected] || this.cells[square];
    this.selected = null;
    this.clicks = [];
    this.draw();
    this.say(refusalText(this.messages, reason, { square, moves: (this.legal || []).map((m) => m.san) }), false, true);
    for (const cell of Object.values(this.cells)) cell.classList.remove("shake");
    if (shaken) {
      void shaken.offsetWidth; // restart the animation when the same piece is refused twice
      shaken.classList.add("shake"); // kept until the next refusal: the class marks the refused piece
    }
  }

  finish(moves) {
    if (moves.length > 1 && moves.every((m) => m.promotion)) {
      this.askPromotion(moves.map((m) => m.promotion), (piece) => this.emit(moves.find((m) => m.promotion === piece)));
      return;
    }
    this.emit(moves[0]);
  }

  finishRaw(from, to) {
    const piece = this.pieces[from];
    const lastRank = to.endsWith(this.turn === "white" ? "8" : "1");
    if (this.game === "chess" && piece && piece.toLowerCase() === "p" && lastRank) {
      this.askPromotion(["q", "r", "b", "n"], (promotion) => this.emit({ from, to, promotion, path: [to] }));
      return;
    }
    this.emit({ from, to, promotion: null, path: [to] });
  }

  askPromotion(choices, done) {
    const box = document.createElement("div");
    box.className = "promo";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", this.messages.promote_to);
    const white = this.turn === "white";
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

  emit(move) {
    this.selected = null;
    this.clicks = [];
    this.draw();
    if (this.onMove) this.onMove(move);
  }

  /** The note under the board: spoken by screen readers; ``quiet`` notes are for them only. */
  say(text, quiet = false, refusal = false) {
    this.note.textContent = text;
    this.note.classList.toggle("sr", quiet);
    this.note.classList.toggle("bad", refusal);
  }

  // Drag and drop: press on one of your pieces, move, release over a square. A press without a move is
  // a tap (the click handler). Touch scrolls the page except on a movable piece (touch-action in CSS).
  dragStart(event) {
    const button = event.target.closest("button[data-square]");
    this.dragged = false;
    if (!this.interactive || !button || !this.ownPiece(button.dataset.square) || event.button > 0) return;
    this.drag = { from: button.dataset.square, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false };
  }

  dragMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 8) return;
    if (!drag.moving) {
      drag.moving = true;
      this.grid.setPointerCapture(event.pointerId);
      if (this.selected !== drag.from) this.click(drag.from);
      drag.svg = this.cells[drag.from].querySelector("svg");
      this.grid.classList.add("dragging");
    }
    if (drag.svg) drag.svg.style.transform = `translate(${dx}px, ${dy}px) scale(1.15)`;
  }

  dragEnd(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    if (drag.moving) {
      this.dragged = true; // the click that follows a drop is not a tap
      setTimeout(() => (this.dragged = false), 0);
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const target = under && under.closest && under.closest(".grid [role=gridcell]")?.querySelector("button[data-square]");
      this.dragReset();
      if (target && target.dataset.square !== drag.from) this.click(target.dataset.square);
    } else {
      this.drag = null;
    }
  }

  dragReset() {
    if (this.drag && this.drag.svg) this.drag.svg.style.transform = "";
    this.drag = null;
    this.grid.classList.remove("dragging");
  }

  key(event, row, file) {
    if (event.key === "Escape") {
      this.selected = null;
      this.clicks = [];
      this.draw();
      return;
    }
    const steps = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!steps) return;
    event.preventDefault();
    let [dr, df] = steps;
    if (this.orientation === "black") [dr, df] = [-dr, -df];
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

/** The catalog text for a refusal reason (the server's ``error.reason``), with the compulsory captures. */
export function refusalText(messages, reason, { square = "", moves = [] } = {}) {
  const template = messages["refusal_" + reason] || messages.illegal;
  return format(template, { square, moves: moves.join(", ") });
}

function distinctRoutes(moves) {
  // Chess promotions share from/to and differ by piece: one route, a choice of piece.
  return [...new Set(moves.map((m) => m.path.join("-")))];
}

/** A move typed as text, matched against the legal moves (SAN, UCI, PDN, or from-to) with no rules code. */
export function matchTyped(text, legal) {
  const clean = (s) => s.toLowerCase().replace(/[+#!?\s]/g, "").replace(/:/g, "x").replace(/^0-0(-0)?$/, (c) => c.replace(/0/g, "o"));
  const typed = clean(text);
  if (!typed) return [];
  const exact = legal.filter((m) => clean(m.san) === typed || (m.uci && m.uci === typed));
  if (exact.length) return exact;
  const squares = typed.split(/[-x]/);
  if (squares.length >= 2) {
    const [from, to] = [squares[0], squares[squares.length - 1]];
    return legal.filter((m) => m.from === from && m.to === to &&
      (squares.length === 2 || squares.slice(1).join("-") === m.path.join("-")));
  }
  return [];
}
