// @ts-check
// The draughts rules in the page, for pass-and-play (one phone for two): no server, no network. One engine
// configured by a variant's description, as shared_rules/draughts/engine.py is; the builder writes that
// description from shared_rules (shared_rules/game_facts.py, variant_rules) and
// tests/rules/test_draughts_js.py checks this module's move lists against shared_rules, the reference, on
// random positions with kings and long captures. Loaded only when pass-and-play opens (pasi.js).
//
// A board is an array over (row, file), row 0 White's home row; only the dark squares (row + file even) are
// used. A piece is a colour bit (WHITE or BLACK) and KING for a king. The moves of a position are found in the
// order the reference finds them (men before kings, squares row by row, the four directions in the same order),
// so where two capture routes take the same pieces from and to the same squares both keep the same route.

/** @typedef {import("../types").DraughtsVariant} DraughtsVariant */
/** @typedef {{origin: number, destination: number, captured: number[], path: number[], crowned: boolean, notation: string}} DraughtsMove */
/** @typedef {{board: number[], turn: number}} DraughtsState */

const WHITE = 1;
const BLACK = 2;
const KING = 4;
/** the four diagonal directions as (rows, files): up-left, up-right, down-left, down-right (the reference's order) */
const STEPS = [[1, -1], [1, 1], [-1, -1], [-1, 1]];
const COUNTDOWN_MOVES = 12; // the Tanzanian count: moves the three-king side has to take the lone king
const KINGS_ONLY_PLIES = 60; // the Tanzanian optional rule: 30 moves each, only kings, no capture

export class DraughtsRules {
  /**
   * @param {DraughtsVariant} variant  the variant's rules, as shared_rules describes them
   * @param {Record<string, any>} [options]  the table options (mandatory_capture, move_limit, threefold_repetition, thirty_moves)
   */
  constructor(variant, options = {}) {
    this.variant = variant;
    this.options = { ...variant.option_defaults, ...options };
    const n = variant.size;
    this.size = n;
    /** @type {number[]} the dark squares' cells, in the reference's bit order (row by row, file by file) */
    this.cells = [];
    for (let row = 0; row < n; row++) for (let file = row % 2; file < n; file += 2) this.cells.push(row * n + file);
    /** @type {Record<number, string>} */
    this.nameOf = {};
    /** @type {Record<string, number>} */
    this.cellOf = {};
    for (const cell of this.cells) {
      const row = Math.floor(cell / n), file = cell % n;
      const name = variant.numbering === "pdn" ? String((n - 1 - row) * (n / 2) + Math.floor(file / 2) + 1) : "abcdefghijklmnopqrstuvwxyz"[file] + (row + 1);
      this.nameOf[cell] = name;
      this.cellOf[name] = cell;
    }
    // The squares as the notation orders them: numbers by value, algebraic names file first.
    this.order = [...this.cells].sort((a, b) => (variant.numbering === "pdn" ? Number(this.nameOf[a]) - Number(this.nameOf[b]) : this.nameOf[a].localeCompare(this.nameOf[b], "en", { numeric: true })));
    /** @type {number[][][]} for each cell, the cells along each of the four directions */
    this.rays = [];
    for (const cell of this.cells) {
      this.rays[cell] = STEPS.map(([dr, df]) => {
        const ray = [];
        for (let r = Math.floor(cell / n) + dr, f = (cell % n) + df; r >= 0 && r < n && f >= 0 && f < n; r += dr, f += df) ray.push(r * n + f);
        return ray;
      });
    }
    this.landing = variant.flying_kings ? variant.king_landing : "adjacent";
    this.tracksRepetition = variant.repetition === "always" || (variant.repetition === "option" && !!this.options.threefold_repetition);
  }

  /** @returns {DraughtsPosition} */
  start() {
    const n = this.size, rows = this.variant.rows_of_men;
    const board = new Array(n * n).fill(0);
    for (const cell of this.cells) {
      const row = Math.floor(cell / n);
      if (row < rows) board[cell] = WHITE;
      else if (row >= n - rows) board[cell] = BLACK;
    }
    return this.initial({ board, turn: this.variant.first_player === "white" ? WHITE : BLACK });
  }

  /** A PDN FEN such as "B:W21,22,K30:B1,2,3" (or "W:Wc3,Kd4:Bf6"). @param {string} fen */
  fromFen(fen) {
    const parts = String(fen).trim().replace(/\.$/, "").split(":");
    if (parts.length !== 3 || !/^[WB]$/i.test(parts[0])) throw new Error(`not a PDN FEN: ${fen}`);
    const board = new Array(this.size * this.size).fill(0);
    for (const field of parts.slice(1)) {
      const colour = /^w/i.test(field) ? WHITE : BLACK;
      for (const item of field.slice(1).split(",").map((s) => s.trim()).filter(Boolean)) {
        const king = /^k/i.test(item);
        const cell = this.cellOf[(king ? item.slice(1) : item).toLowerCase()];
        if (cell === undefined || board[cell]) throw new Error(`not a PDN FEN: ${fen}`);
        board[cell] = colour | (king ? KING : 0);
      }
    }
    return this.initial({ board, turn: /^w/i.test(parts[0]) ? WHITE : BLACK });
  }

  /** @param {DraughtsState} state */
  initial(state) {
    const countdown = this.variant.countdown && countdownSide(state) ? 0 : null;
    return new DraughtsPosition(this, state, 0, [key(state)], 0, 0, countdown);
  }

  /** @param {DraughtsState} state */
  fen(state) {
    const side = (/** @type {number} */ colour) => this.order.filter((c) => state.board[c] & colour).map((c) => (state.board[c] & KING ? "K" : "") + this.nameOf[c]).join(",");
    return `${state.turn === WHITE ? "W" : "B"}:W${side(WHITE)}:B${side(BLACK)}`;
  }

  /**
   * Every legal move of the side to move: the captures only when one must capture.
   * @param {DraughtsState} state
   * @returns {DraughtsMove[]}
   */
  legalMoves(state) {
    const captures = this.captures(state);
    if (captures.length && this.options.mandatory_capture !== false) return captures;
    return captures.concat(this.quietMoves(state));
  }

  /** @param {DraughtsState} state @returns {DraughtsMove[]} */
  captures(state) {
    const { board, turn } = state;
    const them = turn === WHITE ? BLACK : WHITE;
    /** @type {DraughtsMove[]} */
    let found = [];
    const ours = this.cells.filter((c) => board[c] & turn);
    for (const origin of ours) if (!(board[origin] & KING)) this.manCaptures(board, origin, origin, [], [], them, found);
    for (const origin of ours) if (board[origin] & KING) this.kingCaptures(board, origin, origin, [], [], them, false, found);
    if (this.variant.maximum_capture && found.length) {
      const most = Math.max(...found.map((move) => move.captured.length));
      found = found.filter((move) => move.captured.length === most);
    }
    // One move per origin, destination and set of pieces taken: the first route found stands for the others.
    const seen = new Map();
    for (const move of found) {
      const id = `${move.origin}:${move.destination}:${[...move.captured].sort((a, b) => a - b).join(",")}`;
      if (!seen.has(id)) seen.set(id, move);
    }
    return [...seen.values()];
  }

  /** Is ``cell`` taken, the moving piece's own square counting as empty? */
  occupied(/** @type {number[]} */ board, /** @type {number} */ origin, /** @type {number} */ cell) {
    return cell !== origin && board[cell] !== 0;
  }

  crownRow(/** @type {number} */ colour) {
    return colour === WHITE ? this.size - 1 : 0;
  }

  /**
   * @param {number[]} board @param {number} origin @param {number} square @param {number[]} captured
   * @param {number[]} path @param {number} them @param {DraughtsMove[]} found
   */
  manCaptures(board, origin, square, captured, path, them, found) {
    const colour = board[origin] & (WHITE | BLACK);
    const directions = this.variant.men_capture_backward ? [0, 1, 2, 3] : colour === WHITE ? [0, 1] : [2, 3];
    const crown = this.crownRow(colour);
    let extended = false;
    for (const d of directions) {
      const ray = this.rays[square][d];
      if (ray.length < 2) continue;
      const [mid, landing] = ray;
      if (!(board[mid] & them) || captured.includes(mid) || this.occupied(board, origin, landing)) continue;
      extended = true;
      const nowCaptured = [...captured, mid], nowPath = [...path, landing];
      const crowning = Math.floor(landing / this.size) === crown && this.variant.crown_mid_capture !== "at_end";
      if (crowning) {
        if (this.variant.crown_mid_capture === "continue") {
          const before = found.length;
          this.kingCaptures(board, origin, landing, nowCaptured, nowPath, them, true, found);
          if (found.length > before) continue;
        }
        found.push(this.move(origin, landing, nowCaptured, nowPath, true));
        continue;
      }
      this.manCaptures(board, origin, landing, nowCaptured, nowPath, them, found);
    }
    if (!extended && path.length) found.push(this.move(origin, square, captured, path, Math.floor(square / this.size) === crown));
  }

  /** For each direction with a piece to jump: [its cell, the empty cells behind it]. */
  kingJumps(/** @type {number[]} */ board, /** @type {number} */ origin, /** @type {number} */ square, /** @type {number[]} */ captured, /** @type {number} */ them) {
    /** @type {[number, number[]][]} */
    const result = [];
    for (const ray of this.rays[square]) {
      if (!ray.length) continue;
      if (!this.variant.flying_kings) {
        if (ray.length >= 2 && board[ray[0]] & them && !captured.includes(ray[0]) && !this.occupied(board, origin, ray[1])) result.push([ray[0], [ray[1]]]);
        continue;
      }
      const k = ray.findIndex((cell) => this.occupied(board, origin, cell));
      if (k < 0) continue;
      const mid = ray[k];
      if (!(board[mid] & them) || captured.includes(mid)) continue;
      const behind = [];
      for (const cell of ray.slice(k + 1)) {
        if (this.occupied(board, origin, cell)) break;
        behind.push(cell);
      }
      if (behind.length) result.push([mid, behind]);
    }
    return result;
  }

  /**
   * @param {number[]} board @param {number} origin @param {number} square @param {number[]} captured
   * @param {number[]} path @param {number} them @param {boolean} crowned @param {DraughtsMove[]} found
   */
  kingCaptures(board, origin, square, captured, path, them, crowned, found) {
    for (const [mid, behind] of this.kingJumps(board, origin, square, captured, them)) {
      const nowCaptured = [...captured, mid];
      const continuing = behind.map((cell) => this.kingJumps(board, origin, cell, nowCaptured, them).length > 0);
      for (const [landing, ends] of this.landings(behind, continuing)) {
        const nowPath = [...path, landing];
        if (ends) found.push(this.move(origin, landing, nowCaptured, nowPath, crowned));
        else this.kingCaptures(board, origin, landing, nowCaptured, nowPath, them, crowned, found);
      }
    }
  }

  /**
   * Which squares behind a jumped piece a king may land on, and whether its move ends there.
   * @param {number[]} behind @param {boolean[]} continuing
   * @returns {[number, boolean][]}
   */
  landings(behind, continuing) {
    /** @type {[number, boolean][]} */
    const result = [];
    if (this.landing === "adjacent") return [[behind[0], !continuing[0]]];
    if (this.landing === "first_continuation") {
      for (let i = 0; i < behind.length; i++) {
        result.push([behind[i], !continuing[i]]);
        if (continuing[i]) break;
      }
      return result;
    }
    if (this.landing === "must_continue" && continuing.some(Boolean)) return behind.filter((_, i) => continuing[i]).map((cell) => /** @type {[number, boolean]} */ ([cell, false]));
    return behind.map((cell, i) => /** @type {[number, boolean]} */ ([cell, !continuing[i]]));
  }

  /** @param {DraughtsState} state @returns {DraughtsMove[]} */
  quietMoves(state) {
    const { board, turn } = state;
    const n = this.size, moves = [];
    for (const origin of this.cells) {
      if (!(board[origin] & turn)) continue;
      const king = board[origin] & KING;
      const directions = king ? [0, 1, 2, 3] : turn === WHITE ? [0, 1] : [2, 3];
      for (const d of directions) {
        for (const cell of this.rays[origin][d]) {
          if (board[cell]) break;
          moves.push(this.move(origin, cell, [], [cell], !king && Math.floor(cell / n) === this.crownRow(turn)));
          if (!king || !this.variant.flying_kings) break;
        }
      }
    }
    return moves;
  }

  /** @param {number} origin @param {number} destination @param {number[]} captured @param {number[]} path @param {boolean} crowned */
  move(origin, destination, captured, path, crowned) {
    const separator = captured.length ? "x" : "-";
    const notation = [origin, ...path].map((cell) => this.nameOf[cell]).join(separator);
    return { origin, destination, captured, path, crowned, notation };
  }

  /** @param {DraughtsState} state @param {DraughtsMove} move @returns {DraughtsState} */
  play(state, move) {
    const board = [...state.board];
    const piece = board[move.origin];
    board[move.origin] = 0;
    for (const cell of move.captured) board[cell] = 0;
    board[move.destination] = piece | (move.crowned ? KING : 0);
    return { board, turn: state.turn === WHITE ? BLACK : WHITE };
  }
}

/** The repetition rule's key of a state: the pieces and the side to move. @param {DraughtsState} state */
function key(state) {
  return state.board.join("") + state.turn;
}

/** The side with three kings against a lone king, or 0. @param {DraughtsState} state */
function countdownSide(state) {
  const pieces = state.board.filter(Boolean);
  if (pieces.some((p) => !(p & KING))) return 0;
  const whites = pieces.filter((p) => p & WHITE).length, blacks = pieces.length - whites;
  if (whites === 3 && blacks === 1) return WHITE;
  if (blacks === 3 && whites === 1) return BLACK;
  return 0;
}

/** A position with what its draw rules remember (never changed: ``play`` makes a new one). */
export class DraughtsPosition {
  /**
   * @param {DraughtsRules} rules @param {DraughtsState} state @param {number} ply
   * @param {string[]} history  the states since the last irreversible move, this one last
   * @param {number} quiet  plies without a capture or a man moving
   * @param {number} kingsOnly  plies with only kings on the board and no capture
   * @param {number | null} countdown  moves the three-king side made since the count began
   */
  constructor(rules, state, ply, history, quiet, kingsOnly, countdown) {
    this.rules = rules;
    this.state = state;
    this.ply = ply;
    this.history = history;
    this.quiet = quiet;
    this.kingsOnly = kingsOnly;
    this.countdown = countdown;
    /** @type {DraughtsMove[] | null} */
    this.moves = null;
  }

  get turn() {
    return this.state.turn === WHITE ? "white" : "black";
  }

  fen() {
    return this.rules.fen(this.state);
  }

  /** The legal moves (none once the game is over). @returns {DraughtsMove[]} */
  legalMoves() {
    return this.status().result === "ongoing" ? this.allMoves() : [];
  }

  allMoves() {
    if (!this.moves) this.moves = this.rules.legalMoves(this.state);
    return this.moves;
  }

  /** The position after the move written ``notation`` (one of ``legalMoves()``'s). @param {string} notation */
  play(notation) {
    const move = this.legalMoves().find((move) => move.notation === notation);
    if (!move) throw new Error(`not a legal move here: ${notation}`);
    const { rules } = this;
    const before = this.state, state = rules.play(before, move);
    const irreversible = move.captured.length > 0 || !(before.board[move.origin] & KING);
    const history = irreversible || !rules.tracksRepetition ? [key(state)] : [...this.history, key(state)];
    const quiet = irreversible ? 0 : this.quiet + 1;
    const onlyKings = state.board.every((p) => !p || p & KING);
    const kingsOnly = onlyKings && !move.captured.length ? this.kingsOnly + 1 : 0;
    let countdown = null;
    if (rules.variant.countdown) {
      const strong = countdownSide(state);
      if (strong) {
        // The same material as before the move goes on counting; new material starts the count.
        const counted = countdownSide(before) === strong && this.countdown !== null ? this.countdown : 0;
        countdown = counted + (before.turn === strong ? 1 : 0);
      }
    }
    return new DraughtsPosition(rules, state, this.ply + 1, history, quiet, kingsOnly, countdown);
  }

  /** The result ("ongoing", "white", "black" or "draw") and its reason, as shared_rules words them. */
  status() {
    const { board, turn } = this.state;
    const { rules } = this;
    const winner = turn === WHITE ? "black" : "white";
    if (!board.some((p) => p & turn)) return { result: winner, reason: "no_pieces" };
    if (!board.some((p) => p && !(p & turn))) return { result: winner === "white" ? "black" : "white", reason: "no_pieces" };
    if (!this.allMoves().length) return { result: winner, reason: "no_moves" };
    if (this.countdown !== null && this.countdown >= COUNTDOWN_MOVES) return { result: "draw", reason: "three_kings_countdown" };
    const now = this.history[this.history.length - 1];
    if (rules.tracksRepetition && this.history.filter((k) => k === now).length >= 3) return { result: "draw", reason: "threefold_repetition" };
    const limit = rules.variant.quiet_plies_limit;
    if (limit && this.quiet >= limit) return { result: "draw", reason: "forty_moves" };
    if (rules.options.thirty_moves && this.kingsOnly >= KINGS_ONLY_PLIES) return { result: "draw", reason: "thirty_moves" };
    const moveLimit = rules.options.move_limit;
    if (moveLimit && this.ply >= moveLimit) return { result: "draw", reason: "move_limit" };
    return { result: "ongoing", reason: null };
  }
}

/** A game on the phone (pass-and-play): the position as it stands, with the same face as chess_rules.js's ChessMatch. */
export class DraughtsMatch {
  /** @param {DraughtsVariant} variant @param {Record<string, any>} [options] @param {string | null} [fen] */
  constructor(variant, options = {}, fen = null) {
    const rules = new DraughtsRules(variant, options);
    this.position = fen ? rules.fromFen(fen) : rules.start();
  }

  get turn() {
    return this.position.turn;
  }

  fen() {
    return this.position.fen();
  }

  inCheck() {
    return false;
  }

  /** The moves as the board sends them and as the player reads them: the same notation ("22x15x6"). */
  legal() {
    const moves = this.position.legalMoves().map((move) => move.notation);
    return { moves, notations: moves };
  }

  /** @param {string} notation */
  play(notation) {
    this.position = this.position.play(notation);
    return notation;
  }

  status() {
    return this.position.status();
  }
}
