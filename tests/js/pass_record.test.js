// A game played on one phone as a file (PGN, PDN) and the games the phone keeps (site/modules/pass_record.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { CURRENT_KEY, KEPT_KEY, currentGame, gameRecord, keepGame, keptGames } from "../../site/modules/pass_record.js";

/** localStorage's face, in memory. */
class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

const game = (fields = {}) => ({
  id: "abc", game: "english", options: {}, moves: ["11-15", "23-19"], notations: ["11-15", "23-19"], date: "2026.12.06",
  status: { result: "black", reason: "no_moves" }, ...fields,
});

test("a draughts game is PDN with its GameType, moves numbered in pairs, the ending and the result", () => {
  const file = gameRecord(game(), { chess: false, gameType: "21" });
  assert.equal(file.filename, "ubao-english-phone-abc.pdn");
  assert.match(file.text, /^\[Event "ubao game on one phone"\]\n/);
  assert.match(file.text, /\[Result "0-2"\]\n\[GameType "21"\]\n\[PlyCount "2"\]\n\n/);
  assert.ok(file.text.endsWith("1. 11-15 23-19 {Black wins: no legal move.} 0-2\n"));
});

test("a chess game is PGN; a resignation and an agreed draw are told in words", () => {
  const resigned = gameRecord(game({ game: "chess", notations: ["e4"], status: { result: "black", reason: "resignation" } }), { chess: true });
  assert.match(resigned.text, /\[Result "0-1"\]\n\[Termination "normal"\]/);
  assert.ok(resigned.text.endsWith("1. e4 {White resigns.} 0-1\n"));
  assert.equal(resigned.type, "application/x-chess-pgn");
  const agreed = gameRecord(game({ game: "chess", notations: ["e4", "e5"], status: { result: "draw", reason: "agreement" } }), { chess: true });
  assert.ok(agreed.text.endsWith("1. e4 e5 {Draw agreed.} 1/2-1/2\n"));
});

test("long games wrap under 80 characters a line", () => {
  const notations = Array.from({ length: 120 }, (_, i) => (i % 2 ? "23-19" : "11-15"));
  const lines = gameRecord(game({ notations }), { chess: false, gameType: "21" }).text.split("\n");
  assert.ok(lines.every((line) => line.length <= 79));
});

test("the phone keeps the game in play as current, then among the finished, newest first, 30 at most", () => {
  const storage = new MemoryStorage();
  keepGame(storage, game({ status: { result: "ongoing", reason: null } }));
  assert.equal(currentGame(storage).id, "abc");
  assert.deepEqual(keptGames(storage), []);
  keepGame(storage, game());
  assert.equal(currentGame(storage), null);
  assert.deepEqual(keptGames(storage).map((g) => g.id), ["abc"]);
  for (let i = 0; i < 40; i++) keepGame(storage, game({ id: `g${i}` }));
  const kept = keptGames(storage);
  assert.equal(kept.length, 30);
  assert.equal(kept[0].id, "g39");
  storage.setItem(KEPT_KEY, "{not json");
  storage.setItem(CURRENT_KEY, "[]");
  assert.deepEqual(keptGames(storage), []); // a damaged entry is as good as none
  assert.equal(currentGame(storage), null);
});
