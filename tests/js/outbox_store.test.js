// What a kept move's record says the server answered (site/static/outbox_store.js), as the page and the
// service worker both read it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { moveOutcome } from "../../site/modules/outbox_store.js";

test("an accepted move is sent", () => {
  assert.deepEqual(moveOutcome(200, null), { kind: "sent" });
  assert.deepEqual(moveOutcome(201, null), { kind: "sent" });
});

test("a 409 means the opponent moved first", () => {
  assert.deepEqual(moveOutcome(409, { error: { code: "conflict", reason: null } }), { kind: "conflict" });
});

test("a refusal keeps the error's code and reason for the page's own language", () => {
  const body = { error: { code: "illegal_move", reason: "capture_required", message: "English, never shown" } };
  assert.deepEqual(moveOutcome(422, body), { kind: "refused", code: "illegal_move", reason: "capture_required" });
  assert.deepEqual(moveOutcome(403, null), { kind: "refused", code: null, reason: null });
});

test("no answer, or a server error, leaves the move kept for the next try", () => {
  assert.equal(moveOutcome(null, null), null);
  assert.equal(moveOutcome(500, { error: { code: "internal" } }), null);
  assert.equal(moveOutcome(503, null), null);
});
