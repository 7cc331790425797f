// A game on the air as Tazama writes it (site/modules/on_air_text.js), and TV's choice of the next game.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nextOnAir, onAirLine } from "../../site/modules/on_air_text.js";

const texts = {
  pair: "{white} dhidi ya {black}", unnamed: "asiye na jina", moves: "hatua zilizochezwa: {n}",
  live: "meza ya moja kwa moja", correspondence: "kwa mawasiliano", rated: "wa kiwango",
};

test("the players, the moves, the pace and whether it is rated", () => {
  const game = { players: { white: { name: "Asha" }, black: { name: null } }, ply: 12, live: true, rated: true };
  assert.equal(onAirLine(texts, game), "Asha dhidi ya asiye na jina · hatua zilizochezwa: 12 · meza ya moja kwa moja · wa kiwango");
  assert.equal(onAirLine(texts, { ...game, live: false, rated: false }).split(" · ").length, 3);
});

test("a live table names its players' ratings", () => {
  const game = { players: { white: { name: "Asha", rating: 2100 }, black: { name: "Baraka", rating: 1500 } }, ply: 3, live: true, rated: false };
  assert.ok(onAirLine(texts, game).startsWith("Asha (2100) dhidi ya Baraka (1500) · "));
});

test("TV moves on to the top game that is not the one just watched", () => {
  assert.equal(nextOnAir([{ id: "a" }, { id: "b" }], "a"), "b");
  assert.equal(nextOnAir([{ id: "b" }, { id: "a" }], "a"), "b");
  assert.equal(nextOnAir([{ id: "a" }], "a"), null);
  assert.equal(nextOnAir([], "a"), null);
});
