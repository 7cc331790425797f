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

function pieceColour(game, piece) {
  if (game === "chess") return piece === piece.toUpperCase() ? "white" : "black";
  return piece[0] === "w" ? "white" : "black";
}

export class Board {
  /**
   * host: element to draw into. options: game, fen, orientation ("white"|"black"), squares (draughts:
   * name -> [row, file]), legal (array of {from, to, path, san, promotion} or null), showLegal,
   * messages, onMove(move).
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
    this.coordsOf = Object.fromEntries(Object.entries(this.nameAt).map(([rc, n]) => [n, rc.split(",").map(Number)]));
    this.build();
    this.setPosition(this.fen, { legal: this.legal });
  }

  build() {
    this.host.textContent = "";
    this.grid = document.createElement("div");
    this.grid.className = "grid";
    this.grid.setAttribute("role", "grid");
    this.live = document.createElement("p");
    this.live.className = "sr";
    this.live.setAttribute("aria-live", "polite");
    this.cells = {};
    const flip = this.orientation === "black";
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const row = flip ? y : 7 - y;
        const file = flip ? 7 - x : x;
        const name = this.nameAt[row + "," + file];
        const dark = (row + file) % 2 === 0;
        const cell = document.createElement(name ? "button" : "span");
        cell.className = dark ? "dark" : "light";
        if (name) {
          cell.type = "button";
          cell.dataset.square = name;
          cell.tabIndex = -1;
          cell.addEventListener("click", () => this.click(name));
          cell.addEventListener("keydown", (event) => this.key(event, row, file));
          this.cells[name] = cell;
        }
        if (this.game === "chess" && (x === 0 || y === 7)) {
          if (y === 7) cell.insertAdjacentHTML("beforeend", `<span class="coord f">${FILES[file]}</span>`);
          if (x === 0) cell.insertAdjacentHTML("beforeend", `<span class="coord r">${row + 1}</span>`);
        }
        this.grid.append(cell);
      }
    }
    this.host.append(this.grid, this.live);
    const first = Object.values(this.cells)[0];
    if (first) first.tabIndex = 0;
  }

  setPosition(fen, { legal = null, last = null, orientation = null } = {}) {
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
  }

  setInteractive(on) {
    this.interactive = on;
    this.selected = null;
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

  draw() {
    const dests = new Set();
    const full = new Set();
    if (this.selected && this.showLegal && this.legal) {
      for (const move of this.candidates()) {
        const next = this.clicks.length < move.path.length ? move.path[this.clicks.length] : move.to;
        dests.add(next);
        dests.add(move.to);
      }
      for (const sq of dests) if (this.pieces[sq]) full.add(sq);
    }
    for (const [name, cell] of Object.entries(this.cells)) {
      const piece = this.pieces[name];
      cell.querySelector("svg")?.remove();
      if (piece) {
        cell.insertAdjacentHTML("afterbegin",
          `<svg viewBox="0 0 45 45" aria-hidden="true"><use href="#${this.sprite(piece)}"></use></svg>`);
      }
      cell.classList.toggle("sel", name === this.selected || this.clicks.includes(name));
      cell.classList.toggle("dest", dests.has(name));
      cell.classList.toggle("full", full.has(name));
      cell.classList.toggle("last", !!this.last && this.last.includes(name));
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
    return piece && pieceColour(this.game, piece) === this.turn;
  }

  click(square) {
    if (!this.interactive) return;
    if (this.selected && square !== this.selected) {
      if (this.legal) {
        if (this.tryLegal(square)) return;
      } else if (!this.ownPiece(square)) {
        const from = this.selected;
        this.selected = null;
        this.draw();
        this.finishRaw(from, square);
        return;
      }
    }
    if (square === this.selected) {
      this.selected = null;
      this.clicks = [];
    } else if (this.ownPiece(square) && (!this.legal || this.movesFrom(square).length)) {
      this.selected = square;
      this.clicks = [];
      this.say(format(this.messages.selected, { square }));
    } else {
      this.selected = null;
      this.clicks = [];
      if (this.legal && this.pieces[square] && this.ownPiece(square)) this.say(this.messages.illegal);
    }
    this.draw();
  }

  tryLegal(square) {
    const candidates = this.candidates();
    const direct = this.clicks.length === 0 ? candidates.filter((m) => m.to === square) : [];
    const clicks = [...this.clicks, square];
    const along = candidates.filter((m) => clicks.every((sq, i) => m.path[i] === sq));
    const complete = along.filter((m) => m.path.length === clicks.length);
    const chosen = distinctRoutes(direct).length === 1 ? direct : complete;
    if (chosen.length && distinctRoutes(chosen).length === 1) {
      this.finish(chosen);
      return true;
    }
    if (along.length) {
      this.clicks = clicks;
      this.draw();
      return true;
    }
    if (!this.ownPiece(square)) {
      this.say(this.messages.illegal);
      this.selected = null;
      this.clicks = [];
      this.draw();
      return true;
    }
    return false;
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

  say(text) {
    this.live.textContent = text;
  }

  key(event, row, file) {
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
