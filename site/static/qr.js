// @ts-check
// The QR code of an invite (site/modules/qr_code.js with its library bundled in), a file of its own: the pages
// that share an invite import it only when a player taps "QR code", so it costs nothing before.
export { qrSvg } from "../modules/qr_code.js";
