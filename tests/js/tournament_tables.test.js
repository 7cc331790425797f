// A cup's bracket on the Mashindano page (site/modules/tournament_tables.js): round titles counted from the
// final, the view's rows grouped by round, and the reader's opponent in a group or a knockout game.
import assert from "node:assert/strict";
import { test } from "node:test";

import { byRound, groupLetter, opponentIn, roundKey } from "../../site/modules/tournament_tables.js";

test("rounds are named from the final back", () => {
  assert.deepEqual([0, 1].map((r) => roundKey(r, 2)), ["semi", "final"]);
  assert.deepEqual([0, 1, 2, 3].map((r) => roundKey(r, 4)), ["last16", "quarter", "semi", "final"]);
  assert.equal(roundKey(0, 1), "final");
});

test("the bracket's rows are grouped by round, in the view's order", () => {
  const rows = [
    { round: 0, seats: [0, 5] },
    { round: 0, seats: [4, 1] },
    { round: 1, seats: [0, null] },
  ];
  assert.deepEqual(byRound(rows), [[rows[0], rows[1]], [rows[2]]]);
  assert.deepEqual(byRound([]), []);
  assert.deepEqual([0, 1, 7].map(groupLetter), ["A", "B", "H"]);
});

test("the opponent of a group game is the other side; of a knockout game, the match's other seat", () => {
  const view = {
    games: [{ id: "g1", white: 2, black: 6 }],
    bracket: [{ round: 0, seats: [2, 5], games: ["k1", "k2"] }],
  };
  assert.equal(opponentIn(view, "g1", 6), 2);
  assert.equal(opponentIn(view, "g1", 2), 6);
  assert.equal(opponentIn(view, "k2", 2), 5);
  assert.equal(opponentIn(view, "k2", 5), 2);
  assert.equal(opponentIn(view, "unmade", 2), null);
});
