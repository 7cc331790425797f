// @ts-check
// An invite that travels (a club's, a game's, a tournament's): the phone's share sheet where it has one (Web
// Share), a WhatsApp link with the message in the page's language, copy, and a QR code that a friend at the same
// table scans, drawn when the player asks for it by the drawer the page passes (site/static/qr.js, loaded then).

/**
 * A club's invite as typed or linked (`K7P2QX-M3R9TA`, any case, dashes and spaces allowed) as [club id, code],
 * or null when it is not one (six characters each, from the alphabet without 0/O and 1/I/L).
 * @param {string} typed
 * @returns {[string, string] | null}
 */
export function parseInvite(typed) {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "");
  return /^[23456789A-HJKMNP-Z]{12}$/.test(plain) ? [plain.slice(0, 6), plain.slice(6)] : null;
}

/**
 * The WhatsApp link that opens a chat with `message` written, ready to send to anyone.
 * @param {string} message
 */
export function whatsappLink(message) {
  return "https://wa.me/?text=" + encodeURIComponent(message);
}

/**
 * Fill the invite block of `_invite_share.html` with `link` and show it; again with a new link (a renewed code)
 * it replaces the old one everywhere, the QR code too.
 * @param {HTMLElement} root
 * @param {string} link
 * @param {string} message  what WhatsApp and the share sheet send, the link in it, in the page's language
 * @param {(text: string) => void} say
 * @param {(text: string) => Promise<string>} qrSvg  the QR code of a text as SVG markup
 */
export function showInvite(root, link, message, say, qrSvg) {
  const input = /** @type {HTMLInputElement} */ (root.querySelector(".invite-link"));
  const share = /** @type {HTMLButtonElement} */ (root.querySelector(".share"));
  const copy = /** @type {HTMLButtonElement} */ (root.querySelector(".copy"));
  const toggle = /** @type {HTMLButtonElement} */ (root.querySelector(".show-qr"));
  const figure = /** @type {HTMLElement} */ (root.querySelector(".invite-qr"));
  const drawing = /** @type {HTMLElement} */ (figure.querySelector(".qr"));
  input.value = link;
  /** @type {HTMLAnchorElement} */ (root.querySelector(".whatsapp")).href = whatsappLink(message);
  share.hidden = !navigator.share;
  share.onclick = () => navigator.share({ title: "ubao", text: message, url: link }).catch(() => {});
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(link);
      say(root.dataset.copied || "");
    } catch {
      input.select();
    }
  };
  const draw = async () => {
    drawing.innerHTML = await qrSvg(link);
    drawing.dataset.link = link;
  };
  toggle.onclick = async () => {
    const opening = figure.hidden;
    figure.hidden = !opening;
    toggle.setAttribute("aria-expanded", String(opening));
    if (opening && drawing.dataset.link !== link) await draw();
  };
  if (!figure.hidden && drawing.dataset.link !== link) draw();
  root.hidden = false;
}
