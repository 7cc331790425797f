// An invite that travels (site/modules/invite_share.js): a club's invite read as typed, the WhatsApp link, and the
// QR code as SVG (uqr, the library the build bundles). The browser test decodes the drawn code.
import assert from "node:assert/strict";
import { test } from "node:test";

import { parseInvite, whatsappLink } from "../../site/modules/invite_share.js";
import { qrSvg } from "../../site/modules/qr_code.js";

test("a typed invite is read in any case, with or without its dash and spaces", () => {
  assert.deepEqual(parseInvite("K7P2QX-M3R9TA"), ["K7P2QX", "M3R9TA"]);
  assert.deepEqual(parseInvite(" k7p2qx m3r9ta "), ["K7P2QX", "M3R9TA"]);
  assert.deepEqual(parseInvite("k7p2qxm3r9ta"), ["K7P2QX", "M3R9TA"]);
});

test("an invite with a look-alike letter, or of the wrong length, is not one", () => {
  for (const typed of ["K7P2QX-M3R9T", "K7P2QX-M3R9TA1", "K7P2QO-M3R9TA", "K7P2Q1-M3R9TA", ""]) {
    assert.equal(parseInvite(typed), null, typed);
  }
});

test("the WhatsApp link carries the whole message, the link in it", () => {
  const message = "Jiunge na klabu yangu Simba & Co: https://ubao.example/sw/jamii/klabu/#K7P2QX-M3R9TA";
  const link = whatsappLink(message);
  assert.ok(link.startsWith("https://wa.me/?text="));
  assert.equal(decodeURIComponent(new URL(link).searchParams.get("text") ?? ""), message);
});

test("the QR code is SVG drawn without any network", async () => {
  globalThis.fetch = () => assert.fail("no network call");
  const svg = await qrSvg("https://ubao.example/sw/jamii/klabu/#K7P2QX-M3R9TA");
  assert.match(svg, /^<svg[^>]*viewBox="0 0 \d+ \d+"/);
  assert.match(svg, /<path[^>]* d="M/);
});
