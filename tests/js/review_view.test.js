// @ts-check
// The game review's graph reads each evaluation as the server marks moves (functions/review/domain.py): White's
// winning chances from -1 to 1 on each game's own steepness, a win found at the ends; and writes it as players do.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chances, evalText } from "../../site/modules/review_view.js";

test("an evaluation is White's winning chances, as the server's scale reads it", () => {
  assert.equal(chances("chess", { score: 0 }), 0);
  assert.ok(Math.abs(chances("chess", { score: 100 }) - 0.1821) < 0.001); // one pawn up: 0.18, as lichess
  assert.ok(Math.abs(chances("english", { score: 100 }) - 0.4219) < 0.001); // one man up: steeper
  assert.equal(chances("chess", { score: 5000 }), chances("chess", { score: 1000 })); // clamped at ten pawns
  assert.equal(chances("tanzanian", { winner: "black", win_in: 3 }), -1);
  assert.equal(chances("chess", { winner: "white", win_in: 0 }), 1);
});

test("an evaluation reads as a signed score in units, or a win in the winner's moves", () => {
  assert.equal(evalText({ score: 150 }), "+1.50");
  assert.equal(evalText({ score: -30 }), "-0.30");
  assert.equal(evalText({ score: 0 }), "0.00");
  assert.equal(evalText({ winner: "white", win_in: 2 }), "#2");
  assert.equal(evalText({ winner: "black", win_in: 1 }), "#-1");
});
