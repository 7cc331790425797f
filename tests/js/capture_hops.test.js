// A draughts capture as hops (site/modules/capture_hops.js): the route, and the pieces each hop takes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { captureHops } from "../../site/modules/capture_hops.js";

const FILES = "abcdefgh";
/** Tanzanian squares: the dark squares by file and rank, [row, file] from White's side. */
const TANZANIAN = {};
for (let row = 0; row < 8; row++) for (let file = 0; file < 8; file++) if ((row + file) % 2 === 0) TANZANIAN[FILES[file] + (row + 1)] = [row, file];
/** English squares: 1-32 (PDN), square 1 on Black's side, as the site's square maps number them. */
const ENGLISH = {};
for (let n = 1; n <= 32; n++) {
  const row = 7 - Math.floor((n - 1) / 4);
  const file = 2 * ((n - 1) % 4) + (row % 2 === 0 ? 0 : 1);
  ENGLISH[String(n)] = [row, file];
}

test("a man's double capture: two hops, each taking the piece it jumps", () => {
  const hops = captureHops("tanzanian", TANZANIAN, "W:Wc3,h2:Bd4,d6,a7", "B:Wc7,h2:Ba7", "c3xe5xc7");
  assert.deepEqual(hops, {
    route: ["c3", "e5", "c7"],
    taken: [[{ square: "d4", piece: "bm" }], [{ square: "d6", piece: "bm" }]],
  });
});

test("a flying king takes a piece several squares away: the hop's whole diagonal is searched", () => {
  const hops = captureHops("tanzanian", TANZANIAN, "W:WKa1:Bd4,f4", "B:WKh2:B", "a1xe5xh2");
  assert.deepEqual(hops && hops.taken, [[{ square: "d4", piece: "bm" }], [{ square: "f4", piece: "bm" }]]);
});

test("English draughts by number: 9x18x27 over 14 and 23", () => {
  const hops = captureHops("english", ENGLISH, "B:W14,23,32:B9,1", "W:W32:B27,1", "9x18x27");
  assert.deepEqual(hops && hops.taken.map((hop) => hop.map((t) => t.square)), [["14"], ["23"]]);
});

test("a single capture, a plain move and chess have no hops (a slide shows them)", () => {
  assert.equal(captureHops("tanzanian", TANZANIAN, "W:Wc3:Bd4", "B:We5:B", "c3xe5"), null);
  assert.equal(captureHops("english", ENGLISH, "B:W21:B9", "W:W21:B13", "9-13"), null);
  assert.equal(captureHops("chess", {}, "8/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/8 b - - 0 1", "Nxe5"), null);
});
