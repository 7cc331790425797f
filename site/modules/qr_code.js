// @ts-check
// An invite's QR code, drawn as SVG by uqr (npm, MIT), which the site's build bundles in: no network call. Only
// site/static/qr.js imports it, so a page loads the library when a player first asks for a QR code.

/**
 * The QR code of `text` as SVG markup: dark modules on white with a quiet zone of four, error correction M.
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function qrSvg(text) {
  const { renderSVG } = await import("uqr");
  return renderSVG(text, { ecc: "M", border: 4 });
}
