// Countries as the pages show them (site/modules/country_name.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { countryName, scopeOf } from "../../site/modules/country_name.js";

test("a country's name in the page's language, the code where there is none", () => {
  const names = [["TZ", "sw", "Tanzania"], ["PH", "tl", "Pilipinas"], ["KE", "en", "Kenya"], ["??", "sw", "??"]];
  for (const [code, lang, name] of names) assert.equal(countryName(code, lang), name, `${code} in ${lang}`);
});

test("the rating list's scope from its address: two capitals, else everyone", () => {
  const scopes = { "?game=chess&country=TZ": "TZ", "?country=tz": "", "?country=TZA": "", "?game=chess": "" };
  for (const [search, scope] of Object.entries(scopes)) assert.equal(scopeOf(search), scope, search);
});
