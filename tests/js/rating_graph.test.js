// A rating's words and its graph (site/modules/rating_graph.js): a line through every point, scaled to the box.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ratingGraph, ratingText } from "../../site/modules/rating_graph.js";

test("a provisional rating has its question mark", () => {
  assert.equal(ratingText({ rating: 1500, provisional: true }), "1500?");
  assert.equal(ratingText({ rating: 1612, provisional: false }), "1612");
});

test("the graph has one point per game, the highest at the top, and needs two points", () => {
  assert.equal(ratingGraph([[1, 1500]], "x"), "");
  const svg = ratingGraph([[1, 1500], [2, 1520], [3, 1510]], 'a "label"');
  const points = svg.match(/points="([^"]+)"/)[1].split(" ");
  assert.deepEqual(points, ["0,26", "60,2", "120,14"]);
  assert.match(svg, /aria-label="a label"/);
});
