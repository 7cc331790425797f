// Texts from the catalogs: templates, CLDR plurals and refusals (site/static/i18n.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { format, plural, refusalText } from "../../site/modules/i18n.js";

test("a template is filled by name in either style, a missing value left empty", () => {
  assert.equal(format("Played: %(move)s.", { move: "e4" }), "Played: e4.");
  assert.equal(format("{n} days", { n: 3 }), "3 days");
  assert.equal(format("%(a)s and %(b)s", { a: "x" }), "x and ");
  assert.equal(format("100% sure"), "100% sure");
  assert.equal(format("zero: {n}", { n: 0 }), "zero: 0");
});

test("a plural form is chosen by the page's CLDR locale", () => {
  const messages = { plural_locale: "en", streak: { one: "{n} day in a row", other: "{n} days in a row" } };
  assert.equal(plural(messages, "streak", 1), "1 day in a row");
  assert.equal(plural(messages, "streak", 0), "0 days in a row");
  assert.equal(plural(messages, "streak", 2), "2 days in a row");
  // Filipino (the Tagalog pages) puts 1, 2 and 3 in "one"; a form the catalog lacks falls back to "other".
  const tagalog = { plural_locale: "fil", streak: { one: "{n} araw", other: "{n} na araw" } };
  assert.equal(plural(tagalog, "streak", 2), "2 araw");
  assert.equal(plural(tagalog, "streak", 4), "4 na araw");
  assert.equal(plural({ plural_locale: "en", days: { other: "{n} d" } }, "days", 1), "1 d");
});

test("a refusal is said by its reason, naming the compulsory captures, else as an illegal move", () => {
  const messages = { illegal: "Not allowed.", refusal_capture_required: "You must capture: %(moves)s." };
  assert.equal(refusalText(messages, "capture_required", { moves: ["9x18", "10x19"] }), "You must capture: 9x18, 10x19.");
  assert.equal(refusalText(messages, "blocked", { square: "e4" }), "Not allowed.");
  assert.equal(refusalText(messages, null), "Not allowed.");
});
