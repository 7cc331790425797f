// Where a step through the moves leads (site/modules/move_steps.js's stepTarget).
import assert from "node:assert/strict";
import { test } from "node:test";

import { stepTarget } from "../../site/modules/move_steps.js";

test("from the game as it is now, back shows the move before and first the start", () => {
  assert.equal(stepTarget("back", null, 10), 9);
  assert.equal(stepTarget("ArrowLeft", null, 10), 9);
  assert.equal(stepTarget("first", null, 10), 0);
  assert.equal(stepTarget("Home", null, 10), 0);
});

test("from a past position, forward and last lead on, never past the game", () => {
  assert.equal(stepTarget("forward", 4, 10), 5);
  assert.equal(stepTarget("ArrowRight", 9, 10), 10);
  assert.equal(stepTarget("forward", null, 10), 10);
  assert.equal(stepTarget("last", 2, 10), 10);
  assert.equal(stepTarget("End", 2, 10), 10);
});

test("back from the start stays at the start; other keys are no step", () => {
  assert.equal(stepTarget("back", 0, 10), 0);
  assert.equal(stepTarget("Enter", 3, 10), null);
  assert.equal(stepTarget("a", null, 10), null);
});
