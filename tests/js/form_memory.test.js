// The game this phone last chose (site/modules/form_memory.js): the rating list opens on it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { lastGameChosen } from "../../site/modules/form_memory.js";

function storing(text) {
  globalThis.localStorage = { getItem: () => text, setItem: () => {} };
}

test("the kept game, or none when nothing (or nothing readable) is kept", () => {
  storing('{"game": "tanzanian", "color": "white"}');
  assert.equal(lastGameChosen(), "tanzanian");
  storing(null);
  assert.equal(lastGameChosen(), null);
  storing("not json");
  assert.equal(lastGameChosen(), null);
  storing('{"game": 3}');
  assert.equal(lastGameChosen(), null);
});
