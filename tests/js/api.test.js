// The pages' one way to call the API (site/static/api.js): a request with a body says it is JSON, since the
// API refuses any other body with a 415 (a cross-site text/plain or form POST must not run).
import assert from "node:assert/strict";
import { test } from "node:test";

import { call } from "../../site/static/api.js";

test("a body is sent as JSON and a request without one names no content type", async () => {
  const sent = [];
  globalThis.fetch = async (path, init) => {
    sent.push({ path, ...init });
    return new Response('{"ok":true}', { status: 200, headers: { "content-type": "application/json" } });
  };
  await call("PATCH", "/v1/players/me", { body: { name: "Asha" }, token: "ubao_t" });
  await call("POST", "/v1/games/abc/resign", { token: "ubao_t" });
  assert.equal(sent[0].headers["content-type"], "application/json");
  assert.equal(sent[0].body, '{"name":"Asha"}');
  assert.equal(sent[1].headers["content-type"], undefined);
  assert.equal(sent[1].body, undefined);
});
