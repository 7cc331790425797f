// @ts-check
// What the game page reads from a game's state (site/modules/game_text.js): check after the last move, a
// game against the computer, and the whole days left before a deadline.
import assert from "node:assert/strict";
import { test } from "node:test";

import { againstComputer, daysLeft, inCheck } from "../../site/modules/game_text.js";

test("check (and mate) is read from the last chess move's notation, never in draughts", () => {
  assert.equal(inCheck("chess", ["e4", "f6", "Qh5+"]), true);
  assert.equal(inCheck("chess", ["e4", "f6", "Qh5+", "g6"]), false);
  assert.equal(inCheck("chess", ["f3", "e5", "g4", "Qh4#"]), true); // mated: the king is marked, the result says mate
  assert.equal(inCheck("chess", []), false);
  assert.equal(inCheck("english", ["11-15+"]), false);
});

test("a game with the computer in either seat is against the computer", () => {
  const colours = ["white", "black"];
  assert.equal(againstComputer({ players: { white: { name: "Asha" }, black: { cpu_level: 2 } } }, colours), true);
  assert.equal(againstComputer({ players: { white: { cpu_level: 5 }, black: null } }, colours), true);
  assert.equal(againstComputer({ players: { white: { name: "Asha" }, black: { name: "Baraka" } } }, colours), false);
  assert.equal(againstComputer({}, colours), false);
});

test("days left round up, never below zero, and are unknown without a deadline", () => {
  const inHours = (hours) => new Date(Date.now() + hours * 3600000).toISOString();
  assert.equal(daysLeft(inHours(1)), 1);
  assert.equal(daysLeft(inHours(49)), 3);
  assert.equal(daysLeft(inHours(-5)), 0);
  assert.equal(daysLeft(null), null);
  assert.equal(daysLeft("not a date"), null);
});
