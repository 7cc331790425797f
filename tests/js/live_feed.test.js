// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { LiveFeed, etagSeq, messageAction, reconnectDelay, tournamentState } from "../../site/modules/live_feed.js";

const game = { id: "g1", moves: ["e4", "e5"] };
const message = (seq, movesFrom, extra = {}) => ({ type: "game", game: "g1", seq, state: { moves_from: movesFrom }, ...extra });

test("an ETag's event number", () => {
  assert.equal(etagSeq('"2.14"'), 14);
  assert.equal(etagSeq("W/\"x\""), -1);
  assert.equal(etagSeq(null), -1);
});

test("a newer state joining the moves held is applied, an older one ignored, a gap read over HTTP", () => {
  assert.equal(messageAction(message(5, 2), game, '"2.4"'), "apply");
  assert.equal(messageAction(message(5, 1), game, '"2.4"'), "apply"); // overlaps: the page keeps its first moves
  assert.equal(messageAction(message(4, 2), game, '"2.4"'), "ignore"); // the one shown, or older
  assert.equal(messageAction(message(9, 3), game, '"2.4"'), "poll"); // a move between is missing
  assert.equal(messageAction(message(5, 2, { game: "other" }), game, '"2.4"'), "ignore");
  assert.equal(messageAction({ type: "error", error: { code: "invalid_message" } }, game, '"2.4"'), "ignore");
  assert.equal(messageAction(message(5, 2, { type: "subscribed" }), game, null), "apply");
});

test("a tournament's message carries its view to the page showing that tournament only", () => {
  const view = { tournament: { id: "t1" }, players: [] };
  assert.equal(tournamentState({ type: "tournament", tournament: "t1", state: view }, "t1"), view);
  assert.equal(tournamentState({ type: "subscribed", tournament: "t1", state: view }, "t1"), view);
  assert.equal(tournamentState({ type: "tournament", tournament: "t2", state: view }, "t1"), null);
  assert.equal(tournamentState({ type: "game", game: "t1", state: { moves: [] } }, "t1"), null);
  assert.equal(tournamentState({ type: "error", error: { code: "tournament_not_found" } }, "t1"), null);
  assert.equal(messageAction({ type: "tournament", tournament: "g1", state: view }, game, null), "ignore");
});

test("reconnecting waits longer each time, up to a minute", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map(reconnectDelay), [1000, 2000, 5000, 15000, 60000, 60000]);
});

class FakeSocket {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    /** @type {string[]} */
    this.sent = [];
    this.onopen = () => {};
    this.onmessage = (/** @type {any} */ _event) => {};
    this.onclose = () => {};
  }
  send(/** @type {string} */ text) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
    this.onclose();
  }
}

test("the feed subscribes once open, says when it carries the game, and falls back when it closes", async () => {
  /** @type {FakeSocket[]} */
  const sockets = [];
  /** @type {boolean[]} */
  const changes = [];
  const received = [];
  const feed = new LiveFeed({
    ticket: async () => ({ url: "/live?ticket=t" }),
    onMessage: (m) => received.push(m),
    onChange: (live) => changes.push(live),
    origin: "https://ubao.example",
    socket: (url) => {
      const made = new FakeSocket(url);
      sockets.push(made);
      return /** @type {any} */ (made);
    },
  });
  feed.follow("g1", 2);
  feed.follow("g1", 2); // while the ticket is on its way: one socket
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].url, "wss://ubao.example/live?ticket=t");
  sockets[0].readyState = 1;
  sockets[0].onopen();
  assert.deepEqual(JSON.parse(sockets[0].sent[0]), { action: "subscribe", game: "g1", ply: 2 });
  sockets[0].onmessage({ data: JSON.stringify({ type: "subscribed", game: "g1", seq: 3, state: {} }) });
  assert.deepEqual(changes, [true]);
  assert.equal(received.length, 1);
  sockets[0].onclose(); // dropped: polling again, and a reconnection is on its way
  assert.deepEqual(changes, [true, false]);
  assert.ok(feed.timer);
  feed.stop();
  assert.equal(feed.timer, null);
});

test("the feed follows a tournament, and a game after it, on one socket", async () => {
  /** @type {FakeSocket[]} */
  const sockets = [];
  const feed = new LiveFeed({
    ticket: async () => ({ url: "/live?ticket=t" }),
    onMessage: () => {},
    onChange: () => {},
    origin: "http://127.0.0.1:3000",
    socket: (url) => {
      const made = new FakeSocket(url);
      sockets.push(made);
      return /** @type {any} */ (made);
    },
  });
  feed.followTournament("t1");
  await new Promise((resolve) => setTimeout(resolve, 0));
  sockets[0].readyState = 1;
  sockets[0].onopen();
  feed.followTournament("t1"); // the same: nothing more asked
  feed.follow("g1", 0);
  assert.deepEqual(sockets[0].sent.map((text) => JSON.parse(text)), [
    { action: "subscribe", tournament: "t1" },
    { action: "subscribe", game: "g1", ply: 0 },
  ]);
  assert.equal(sockets.length, 1);
  feed.stop();
});
