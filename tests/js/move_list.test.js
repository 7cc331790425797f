// The game page's move list (site/static/move_list.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { movePairs, moveTexts, withAllMoves } from "../../site/modules/move_list.js";

test("moves are read as text whatever shape the server gave them", () => {
  assert.deepEqual(moveTexts(["e4", { san: "e5" }, { move: "Nf3" }, { notation: "11-15" }]), ["e4", "e5", "Nf3", "11-15"]);
  assert.deepEqual(moveTexts(undefined), []);
});

test("moves are paired from the first mover, black in English draughts", () => {
  assert.deepEqual(movePairs("chess", ["e4", "e5", "Nf3"], "black"), ["e4 e5", "Nf3"]);
  assert.deepEqual(movePairs("english", ["11-15", "23-19"], "black"), ["11-15 23-19"]);
  assert.deepEqual(movePairs("chess", [], "white"), []);
});

test("a game set up with the second player to move starts its first pair with an ellipsis", () => {
  assert.deepEqual(movePairs("chess", ["e5", "Nf3"], "black"), ["… e5", "Nf3"]);
  assert.deepEqual(movePairs("english", ["23-19"], "black"), ["… 23-19"]);
  assert.deepEqual(movePairs("tanzanian", ["f6-e5"], "white"), ["… f6-e5"]);
});

test("an answer with the moves after ours is put after those we knew", async () => {
  const noPages = async () => assert.fail("no earlier page is needed");
  const fresh = await withAllMoves({ moves: ["Nf3"], moves_from: 2 }, ["e4", "e5", "stale"], noPages);
  assert.deepEqual(fresh.moves, ["e4", "e5", "Nf3"]);
  assert.deepEqual((await withAllMoves({ moves: ["e4"] }, [], noPages)).moves, ["e4"]);
});

test("a gap before the latest moves is filled with the older pages, newest page first", async () => {
  const pages = { 4: { moves: ["c", "d"], earlier: 2 }, 2: { moves: ["a", "b"], earlier: null } };
  const asked = [];
  const earlierPage = async (before) => {
    asked.push(before);
    return pages[before];
  };
  const fresh = await withAllMoves({ moves: ["e", "f"], earlier: 4 }, ["known"], earlierPage);
  assert.deepEqual(fresh.moves, ["a", "b", "c", "d", "e", "f"]);
  assert.deepEqual(asked, [4, 2]);
});
