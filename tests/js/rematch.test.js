// The rematch controls and line of a finished game (site/modules/rematch.js), for each player and a spectator.
import assert from "node:assert/strict";
import { test } from "node:test";

import { awaitsRematch, blockOpponent, rematchBody, rematchControls, rematchNote } from "../../site/modules/rematch.js";

const m = {
  rematch_offered_by_you: "You offered.", rematch_offered_to_you: "They offer.",
  rematch_declined: "They declined.", player_blocked: "Blocked.",
};
const people = { white: { player_id: "w", name: "Asha" }, black: { player_id: "b", name: "Baraka" } };
const finished = (extra = {}) => ({ state: "finished", rematch: null, rematch_offer: null, players: people, ...extra });
const shown = (controls) => Object.keys(controls).filter((name) => controls[name]).sort();

test("with no offer each player may offer or block; a spectator sees nothing", () => {
  assert.deepEqual(shown(rematchControls(finished(), "white")), ["block", "rematch"]);
  assert.deepEqual(shown(rematchControls(finished(), null)), []);
  assert.deepEqual(shown(rematchControls({ ...finished(), state: "active" }, "white")), []);
  assert.equal(rematchNote(finished(), "white", m), "");
});

test("an offer: the offerer may withdraw, the opponent accept or decline", () => {
  const offered = finished({ rematch_offer: "white" });
  assert.deepEqual(shown(rematchControls(offered, "white")), ["block", "withdraw-rematch"]);
  assert.deepEqual(shown(rematchControls(offered, "black")), ["accept-rematch", "block", "decline-rematch"]);
  assert.equal(rematchNote(offered, "white", m), "You offered.");
  assert.equal(rematchNote(offered, "black", m), "They offer.");
});

test("a declined offer is told to the offerer only", () => {
  const declined = finished({ rematch_declined: "white" });
  assert.equal(rematchNote(declined, "white", m), "They declined.");
  assert.equal(rematchNote(declined, "black", m), "");
});

test("against the computer: no block, and no waiting for an answer", () => {
  const computer = finished({ players: { white: people.white, black: { player_id: "cpu", name: "cpu", cpu_level: 2 } } });
  assert.deepEqual(shown(rematchControls(computer, "white")), ["rematch"]);
  assert.equal(awaitsRematch(computer, "white"), false);
  assert.equal(awaitsRematch(finished(), "white"), true);
  assert.equal(awaitsRematch(finished({ rematch: "newgame00000" }), "white"), false);
});

test("each control sends its action; other controls are not rematch actions", () => {
  assert.deepEqual(rematchBody("rematch"), { action: "offer" });
  assert.deepEqual(rematchBody("accept-rematch"), { action: "accept" });
  assert.deepEqual(rematchBody("decline-rematch"), { action: "decline" });
  assert.deepEqual(rematchBody("withdraw-rematch"), { action: "withdraw" });
  assert.equal(rematchBody("resign"), null);
});

test("blocking posts the game to the blocks route with the player's token", async () => {
  const calls = [];
  const api = { player: async () => ({ token: "t0k" }), call: async (...args) => calls.push(args) };
  assert.equal(await blockOpponent("game00000001", m, api), "Blocked.");
  assert.deepEqual(calls, [["POST", "/v1/players/me/blocks", { body: { game: "game00000001" }, token: "t0k" }]]);
});
