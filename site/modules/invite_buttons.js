// @ts-check
// The invitation link's buttons on the game page: Share (the system's share sheet, where the browser has
// one), Copy the link (to the clipboard, else the link selected for the player to copy), Send by WhatsApp (the
// message in the page's language) and the QR code a friend at the same table scans.
import { format } from "./i18n.js";
import { whatsappLink } from "./invite_share.js";

/**
 * @param {import("../types").Messages} m
 * @param {() => string} gameTitle  the open game's name in the page's language
 * @param {(text: string, kind?: string) => void} say  the game's status line
 * @param {(text: string) => Promise<string>} qrSvg  the QR code of a text as SVG markup
 */
export function setUpInviteButtons(m, gameTitle, say, qrSvg) {
  const share = /** @type {HTMLButtonElement} */ (document.getElementById("share-invite"));
  const copy = /** @type {HTMLButtonElement} */ (document.getElementById("copy-invite"));
  const input = /** @type {HTMLInputElement} */ (document.getElementById("invite-link"));
  share.hidden = !navigator.share;
  share.addEventListener("click", async () => {
    const text = format(m.share_text, { game: gameTitle() });
    try {
      await navigator.share({ title: "ubao", text, url: input.value });
      say(m.share_done, "ok");
    } catch {
      /* the player closed the share sheet: nothing to say */
    }
  });
  const whatsapp = /** @type {HTMLAnchorElement} */ (document.getElementById("whatsapp-invite"));
  const aim = () => (whatsapp.href = whatsappLink(`${format(m.share_text, { game: gameTitle() })}: ${input.value}`));
  for (const event of ["pointerdown", "focus", "click"]) whatsapp.addEventListener(event, aim);
  const toggle = /** @type {HTMLButtonElement} */ (document.getElementById("qr-invite"));
  const figure = /** @type {HTMLElement} */ (toggle.parentElement?.querySelector(".invite-qr"));
  toggle.addEventListener("click", async () => {
    figure.hidden = !figure.hidden;
    toggle.setAttribute("aria-expanded", String(!figure.hidden));
    const drawing = /** @type {HTMLElement} */ (figure.querySelector(".qr"));
    if (!figure.hidden && drawing.dataset.link !== input.value) {
      drawing.innerHTML = await qrSvg(input.value);
      drawing.dataset.link = input.value;
    }
  });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
      say(m.link_copied, "ok");
    } catch {
      input.select();
      say(m.copy_failed);
    }
  });
}
