// The board's notation helpers against hand-made positions and moves (site/static/notation.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  boardMoves, draughtsSquares, lastMoveSquares, matchTyped, movedSquares, moveText, parseFen, pieceColour, readableMove,
} from "../../site/modules/notation.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

test("a chess FEN gives each piece on its square and the side to move", () => {
  const { pieces, turn } = parseFen("chess", START);
  assert.equal(Object.keys(pieces).length, 32);
  assert.equal(pieces.e1, "K");
  assert.equal(pieces.d8, "q");
  assert.equal(pieces.e4, undefined);
  assert.equal(turn, "white");
  assert.equal(parseFen("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1").turn, "black");
});

test("a PDN FEN gives men and kings by square, numbered or named", () => {
  const english = parseFen("english", "B:W21,K30:B1,K5");
  assert.deepEqual(english.pieces, { 21: "wm", 30: "wk", 1: "bm", 5: "bk" });
  assert.equal(english.turn, "black");
  const tanzanian = parseFen("tanzanian", "W:Wc3,Kd4:Bf6");
  assert.deepEqual(tanzanian.pieces, { c3: "wm", d4: "wk", f6: "bm" });
  assert.equal(tanzanian.turn, "white");
});

test("a piece's side comes from its letter's case in chess and its first letter in draughts", () => {
  assert.equal(pieceColour("chess", "N"), "white");
  assert.equal(pieceColour("chess", "n"), "black");
  assert.equal(pieceColour("english", "wk"), "white");
  assert.equal(pieceColour("tanzanian", "bm"), "black");
});

test("the squares of a move are found by comparing the positions, the king's when castling", () => {
  const after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
  assert.deepEqual(movedSquares("chess", START, after), ["e2", "e4"]);
  const castled = movedSquares("chess", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
  assert.deepEqual(castled, ["e1", "g1"]);
  assert.deepEqual(movedSquares("english", "B:W18:B9,K1", "W:W:B27,K1"), ["9", "27"]);
  assert.equal(movedSquares("chess", START, START), null);
});

test("draughts notation is read as squares, chess SAN is not", () => {
  assert.deepEqual(draughtsSquares("22x15x6"), ["22", "15", "6"]);
  assert.deepEqual(draughtsSquares("C3-d4"), ["c3", "d4"]);
  assert.deepEqual(draughtsSquares("9:18"), ["9", "18"]);
  assert.equal(draughtsSquares("Nf3"), null);
  assert.equal(draughtsSquares("e4"), null);
});

test("the server's legal moves become board moves: UCI for chess, notation for draughts", () => {
  assert.deepEqual(boardMoves("chess", ["e2e4", "e7e8q"]), [
    { from: "e2", to: "e4", path: ["e4"], promotion: null, san: "e2e4" },
    { from: "e7", to: "e8", path: ["e8"], promotion: "q", san: "e7e8q" },
  ]);
  assert.equal(boardMoves("chess", ["Nf3", "e4"]), null, "SAN has no squares without the rules");
  assert.equal(boardMoves("chess", []), null);
  assert.deepEqual(boardMoves("english", ["9x18x27"]), [{ from: "9", to: "27", path: ["18", "27"], san: "9x18x27" }]);
  assert.equal(boardMoves("english", ["9x18", 7]), null);
  assert.equal(boardMoves("tanzanian", null), null);
});

test("a move picked on the board is sent as its notation, else from its squares", () => {
  assert.equal(moveText("chess", { from: "e2", to: "e4", path: ["e4"], san: "e4" }), "e4");
  assert.equal(moveText("chess", { from: "e7", to: "e8", path: ["e8"], promotion: "n" }), "e7e8n");
  assert.equal(moveText("english", { from: "9", to: "27", path: ["18", "27"] }), "9-18-27");
  assert.equal(moveText("tanzanian", { from: "c3", to: "d4", path: [] }), "c3-d4");
});

test("a typed move matches the legal moves by notation, UCI, or its squares", () => {
  const legal = [
    { from: "e1", to: "g1", path: ["g1"], san: "O-O", uci: "e1g1" },
    { from: "g1", to: "f3", path: ["f3"], san: "Nf3", uci: "g1f3" },
    { from: "e7", to: "e8", path: ["e8"], san: "e8=Q+", uci: "e7e8q", promotion: "q" },
    { from: "e7", to: "e8", path: ["e8"], san: "e8=N", uci: "e7e8n", promotion: "n" },
  ];
  assert.deepEqual(matchTyped(" nf3 ", legal), [legal[1]]);
  assert.deepEqual(matchTyped("0-0", legal), [legal[0]]);
  assert.deepEqual(matchTyped("g1f3", legal), [legal[1]]);
  assert.deepEqual(matchTyped("e8=Q", legal), [legal[2]]);
  assert.deepEqual(matchTyped("e7-e8", legal), [legal[2], legal[3]]);
  assert.deepEqual(matchTyped("", legal), []);
  assert.deepEqual(matchTyped("Qh5", legal), []);
  const routes = [
    { from: "9", to: "27", path: ["18", "27"], san: "9x18x27" },
    { from: "9", to: "27", path: ["14", "27"], san: "9x14x27" },
  ];
  assert.deepEqual(matchTyped("9:18:27", routes), [routes[0]]);
  assert.deepEqual(matchTyped("9-27", routes), routes);
  assert.deepEqual(matchTyped("9x14x27", routes), [routes[1]]);
});

test("the last move's squares come from UCI in chess and from the notation in draughts", () => {
  assert.deepEqual(lastMoveSquares({ game: "chess", last_move_uci: "g1f3", moves: ["Nf3"] }), ["g1", "f3"]);
  assert.equal(lastMoveSquares({ game: "chess", moves: ["Nf3"] }), null);
  assert.deepEqual(lastMoveSquares({ game: "english", moves: ["11-15", "22x15x6"] }), ["22", "6"]);
  assert.deepEqual(lastMoveSquares({ game: "tanzanian", last_move: "c3-d4", moves: [] }), ["c3", "d4"]);
  assert.equal(lastMoveSquares({ game: "english", moves: [] }), null);
});

test("a chess move the board sends by its squares is named in SAN when the server gave both lists", () => {
  const legal = boardMoves("chess", ["a1b1", "e2e4"], ["Qxb1+", "e4"]);
  assert.equal(legal[0].notation, "Qxb1+");
  assert.equal(moveText("chess", legal[0]), "a1b1"); // what is sent stays the squares
  assert.equal(readableMove("chess", legal, "a1b1"), "Qxb1+");
  assert.equal(readableMove("chess", boardMoves("chess", ["a1b1"]), "a1b1"), "a1b1"); // no SAN known: as sent
  assert.equal(readableMove("english", boardMoves("english", ["9x18x27"]), "9x18x27"), "9x18x27");
  assert.equal(boardMoves("chess", ["a1b1", "e2e4"], ["Qxb1+"])[0].notation, undefined); // lists that differ
});
