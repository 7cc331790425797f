// @ts-check
// Moves and positions as the boards need them, with no rules code: the pieces of a chess FEN or a PDN
// (draughts) FEN, the server's legal moves as board moves, and a typed move matched against them. The
// server stays the judge of every move; these only decide what the board draws and marks.
import { gameFacts } from "./game_facts.js";


/** @typedef {import("../types").GameName} GameName */
/** @typedef {import("../types").Colour} Colour */
/** @typedef {import("../types").BoardMove} BoardMove */

export const FILES = "abcdefgh";

/**
 * Pieces by square name, and the side to move, from a chess FEN or a PDN (draughts) FEN.
 * @param {string} game
 * @param {string} fen
 * @returns {{pieces: Record<string, string>, turn: Colour}}
 */
export function parseFen(game, fen) {
  /** @type {Record<string, string>} */
  const pieces = {};
  if (gameFacts(game).position === "fen") {
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

/**
 * The side a piece belongs to: chess letters by their case, draughts pieces ("wm", "bk") by their first letter.
 * @param {string} game
 * @param {string} piece
 * @returns {Colour}
 */
export function pieceColour(game, piece) {
  if (gameFacts(game).position === "fen") return piece === piece.toUpperCase() ? "white" : "black";
  return piece[0] === "w" ? "white" : "black";
}

/**
 * The squares a move went from and to, found by comparing the positions before and after it (any game,
 * any notation): the mover's piece that left a square and the one that arrived; the king's when castling.
 * @param {string} game
 * @param {string} beforeFen
 * @param {string} afterFen
 * @returns {[string, string] | null}
 */
export function movedSquares(game, beforeFen, afterFen) {
  const before = parseFen(game, beforeFen);
  const after = parseFen(game, afterFen).pieces;
  /** @param {string | undefined} piece */
  const mine = (piece) => !!piece && pieceColour(game, piece) === before.turn;
  const left = Object.keys(before.pieces).filter((sq) => mine(before.pieces[sq]) && after[sq] !== before.pieces[sq]);
  const came = Object.keys(after).filter((sq) => mine(after[sq]) && before.pieces[sq] !== after[sq]);
  if (!left.length || !came.length) return null;
  /** @param {string[]} list @param {Record<string, string>} pieces */
  const king = (list, pieces) => list.find((sq) => /^[Kk]$|k$/.test(pieces[sq])) || list[0];
  return [king(left, before.pieces), king(came, after)];
}

/**
 * Draughts notation ("22x15x6", "c3-d4") as squares; null for chess SAN.
 * @param {unknown} text
 * @returns {string[] | null}
 */
export function draughtsSquares(text) {
  const parts = String(text).split(/[-x:]/);
  return parts.length >= 2 && parts.every((p) => /^[a-h]?\d{1,2}$/i.test(p)) ? parts.map((p) => p.toLowerCase()) : null;
}

/**
 * Legal moves from the server as the board wants them ({from, to, path, san}); chess SAN has no squares.
 * ``notations``: chess, the same moves in SAN in the same order (the server's ``legal_moves``), so a move
 * can be named as players write it (``notation``) while the board sends its squares.
 * @param {string} game
 * @param {unknown} legal
 * @param {unknown} [notations]
 * @returns {BoardMove[] | null}
 */
export function boardMoves(game, legal, notations) {
  if (!Array.isArray(legal)) return null;
  if (gameFacts(game).notation === "san") {
    // Only moves given by their squares (UCI such as "e7e8q") can be shown; SAN needs the rules.
    if (!legal.length || !legal.every((m) => typeof m === "string" && /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m))) return null;
    const named = Array.isArray(notations) && notations.length === legal.length ? notations : null;
    return legal.map((uci, i) => ({
      from: uci.slice(0, 2), to: uci.slice(2, 4), path: [uci.slice(2, 4)], promotion: uci[4] || null, san: uci,
      ...(named ? { notation: String(named[i]) } : {}),
    }));
  }
  const moves = [];
  for (const text of legal) {
    const squares = typeof text === "string" ? draughtsSquares(text) : null;
    if (!squares) return null;
    moves.push({ from: squares[0], to: squares[squares.length - 1], path: squares.slice(1), san: text });
  }
  return moves;
}

/**
 * The text to send for a move picked on the board: the notation when known, else from-to (UCI for chess).
 * @param {string} game
 * @param {BoardMove} move
 * @returns {string}
 */
export function moveText(game, move) {
  if (move.san) return move.san;
  if (gameFacts(game).notation === "san") return move.from + move.to + (move.promotion || "");
  return [move.from, ...(move.path && move.path.length ? move.path : [move.to])].join("-");
}

/**
 * A move's text as a player reads it: its SAN when the board knows it (chess), else the text itself.
 * @param {string} game
 * @param {BoardMove[] | null | undefined} legal
 * @param {string} text  the move as the board sent it (UCI for chess)
 * @returns {string}
 */
export function readableMove(game, legal, text) {
  const move = (legal || []).find((m) => moveText(game, m) === text);
  return (move && move.notation) || text;
}

/**
 * A move typed as text, matched against the legal moves (SAN, UCI, PDN, or from-to) with no rules code.
 * @template {BoardMove} M
 * @param {string} text
 * @param {M[]} legal
 * @returns {M[]}
 */
export function matchTyped(text, legal) {
  /** @param {string} s */
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

/**
 * The squares of a game's last move, for the board's marks: chess names them in UCI (e2e4), since SAN
 * would need the rules; draughts notation names them itself.
 * @param {{game: string, last_move_uci?: string, last_move?: string, moves?: unknown[]}} game
 * @returns {[string, string] | null}
 */
export function lastMoveSquares(game) {
  if (gameFacts(game.game).notation === "san") {
    const uci = game.last_move_uci;
    return uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null;
  }
  const moves = game.moves || [];
  const lastMove = game.last_move || moves[moves.length - 1];
  if (!lastMove) return null;
  const squares = String(lastMove).split(/[-x]/);
  return squares.length > 1 ? [squares[0], squares[squares.length - 1]] : null;
}
