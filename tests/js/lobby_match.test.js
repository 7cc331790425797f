// The lobby's choices (site/modules/lobby_match.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { bestMatches, formOptions, ratingIn, ratingText, takeOrder } from "../../site/modules/lobby_match.js";

const seek = (id, rating, extra = {}) => ({
  id, rated: true, mine: false, rating_range: null, created: 0, seeker: { name: id, rating, provisional: false }, ...extra,
});

test("play anyone takes the closest rating in range, never its own nor the other kind", () => {
  const seeks = [
    seek("far", 1900),
    seek("near", 1540),
    seek("mine", 1500, { mine: true }),
    seek("casual", 1500, { rated: false }),
    seek("closed", 1510, { rating_range: [1600, 1800] }),
    seek("nearer-but-newer", 1460, { created: 5 }),
  ];
  assert.deepEqual(bestMatches(seeks, 1500, true).map((s) => s.id), ["near", "nearer-but-newer", "far"]);
  assert.deepEqual(bestMatches(seeks, 1500, false).map((s) => s.id), ["casual"]);
  assert.deepEqual(bestMatches(seeks, 1700, true).map((s) => s.id), ["near", "closed", "far", "nearer-but-newer"]);
  assert.deepEqual(bestMatches([], 1500, true), []);
});

test("a provisional rating reads with a question mark; no rating yet is the start rating", () => {
  assert.equal(ratingText({ rating: 1523.6, provisional: true }), "1524?");
  assert.equal(ratingText({ rating: 1600, provisional: false }), "1600");
  assert.equal(ratingIn({ ratings: { chess: { rating: 1712.4 } } }, "chess"), 1712);
  assert.equal(ratingIn({ ratings: {} }, "chess"), 1500);
  assert.equal(ratingIn(null, "tanzanian"), 1500);
});

test("the form's options: the days, the swap and the chosen game's table options", () => {
  const data = new Map([["days_per_move", "5"]]);
  const inputs = [
    { type: "checkbox", name: "mandatory_capture", checked: false },
    { type: "number", name: "move_limit", value: "" },
    { type: "number", name: "flying_kings", value: "2" },
  ];
  assert.deepEqual(formOptions(data, { querySelectorAll: () => inputs }), {
    days_per_move: 5, swap_colors: false, mandatory_capture: false, flying_kings: 2,
  });
  assert.deepEqual(formOptions(data, null), { days_per_move: 5, swap_colors: false });
});

test("play anyone takes the chosen game's challenges of either kind first, then the other games'", () => {
  const byGame = {
    chess: [seek("chess-rated", 1500)],
    tanzanian: [seek("tz-rated", 1600), seek("tz-casual", 1500, { rated: false }), seek("tz-mine", 1500, { mine: true })],
    english: [],
  };
  const rating = () => 1500;
  const order = (chosen, rated) => takeOrder(byGame, chosen, rating, rated).map((s) => `${s.game}:${s.id}`);
  assert.deepEqual(order("tanzanian", false), ["tanzanian:tz-casual", "tanzanian:tz-rated", "chess:chess-rated"]);
  assert.deepEqual(order("tanzanian", true), ["tanzanian:tz-rated", "tanzanian:tz-casual", "chess:chess-rated"]);
  assert.deepEqual(order("english", false), ["chess:chess-rated", "tanzanian:tz-casual", "tanzanian:tz-rated"]);
  assert.deepEqual(takeOrder({}, "chess", rating, true), []);
});
