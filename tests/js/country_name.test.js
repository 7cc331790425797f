// Countries as the pages show them (site/modules/country_name.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { countryName, scopeOf } from "../../site/modules/country_name.js";

test("a country's name in the page's language, the code where there is none", () => {
  assert.equal(countryName("TZ", "sw"), "Tanzania");
  assert.equal(countryName("PH", "tl"), "Pilipinas");
  assert.equal(countryName("KE", "en"), "Kenya");
  assert.equal(countryName("??", "sw"), "??");
});

test("the rating list's scope from its address: two capitals, else everyone", () => {
  assert.equal(scopeOf("?game=chess&country=TZ"), "TZ");
  assert.equal(scopeOf("?country=tz"), "");
  assert.equal(scopeOf("?country=TZA"), "");
  assert.equal(scopeOf("?game=chess"), "");
});
