// Positions fetched a page at a time and kept (site/modules/positions.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { PositionCache } from "../../site/modules/positions.js";

/** A game of ``plies`` moves whose position after ply n is "p<n>", served in pages of ``size`` moves. */
function server(plies, size) {
  const asked = [];
  const fetchPage = async (before) => {
    asked.push(before);
    const end = before === null ? plies : before; // "before" is the first ply of the page after, here
    const from = Math.max(0, end - size);
    const fens = [];
    for (let ply = from + 1; ply <= end; ply++) fens.push(`p${ply}`);
    return { moves_from: from, fens, earlier: from ? from : null, start_fen: from ? null : "p0" };
  };
  return { fetchPage, asked };
}

test("a position is fetched from the latest page, then from older pages one at a time", async () => {
  const { fetchPage, asked } = server(25, 10);
  const cache = new PositionCache(fetchPage);
  assert.equal(await cache.fenAt(22), "p22");
  assert.deepEqual(asked, [null]);
  assert.equal(await cache.fenAt(3), "p3");
  assert.deepEqual(asked, [null, 15, 5]);
  assert.equal(await cache.fenAt(0), "p0"); // the start, from the page that reaches it
  assert.equal(await cache.fenAt(14), "p14");
  assert.deepEqual(asked, [null, 15, 5], "kept: asked again, nothing is fetched");
});

test("a position the page holds already is not fetched", async () => {
  const cache = new PositionCache(async () => assert.fail("no page is needed"));
  cache.remember(7, "now");
  assert.equal(await cache.fenAt(7), "now");
});

test("a ply newer than any page fetched reads the latest page again", async () => {
  const game = server(12, 10);
  const cache = new PositionCache(game.fetchPage);
  await cache.fenAt(11);
  const moved = server(14, 10);
  cache.fetchPage = moved.fetchPage;
  assert.equal(await cache.fenAt(13), "p13");
  assert.deepEqual(moved.asked, [null]);
  assert.equal(await cache.fenAt(1), "p1"); // older pages go on from the first latest page
});

test("a ply the game never had is null", async () => {
  const cache = new PositionCache(server(4, 10).fetchPage);
  assert.equal(await cache.fenAt(9), null);
});
