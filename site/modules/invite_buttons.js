// @ts-check
// The invitation link's buttons on the game page: Share (the system's share sheet, where the browser has
// one) and Copy the link (to the clipboard, else the link selected for the player to copy).
import { format } from "./i18n.js";

/**
 * @param {import("../types").Messages} m
 * @param {() => string} gameTitle  the open game's name in the page's language
 * @param {(text: string, kind?: string) => void} say  the game's status line
 */
export function setUpInviteButtons(m, gameTitle, say) {
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
