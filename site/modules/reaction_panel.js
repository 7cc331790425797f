// @ts-check
// Reactions, not chat, on the game page: the fixed set as buttons (each worded in the page's language by the
// builder, so the other player's reactions show in this page's language too), the latest reactions of the game,
// and two mutes: this game's (the server's, POST /v1/games/{id}/reactions/mute) and every game's (this browser's,
// which holds the player's token). Shown to the two players of a game against a person only.

const MUTE_ALWAYS_KEY = "ubao.reactions.muted";
/** How many of the latest reactions the page shows. */
const SHOWN = 3;

/** @returns {boolean} */
export function mutedEverywhere() {
  try {
    return localStorage.getItem(MUTE_ALWAYS_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * The reactions to show, newest last: none when muted everywhere; the other player's and one's own.
 * @param {{reactions?: {seq: number, by: string, reaction: string}[]}} game
 * @param {boolean} muted
 */
export function reactionsShown(game, muted) {
  return muted ? [] : (game.reactions || []).slice(-SHOWN);
}

/**
 * @param {HTMLElement} root the page's `.reactions` section
 * @param {{send: (key: string) => Promise<unknown>, mute: (muted: boolean) => Promise<unknown>}} api
 * @returns {(game: any, seat: string | null, personOpposite: boolean) => void} shows a game's state
 */
export function setUpReactions(root, api) {
  const list = /** @type {HTMLElement} */ (root.querySelector(".reaction-list"));
  const muteGame = /** @type {HTMLInputElement} */ (root.querySelector(".mute-game"));
  const muteAlways = /** @type {HTMLInputElement} */ (root.querySelector(".mute-always"));
  /** @type {any} */
  let shownGame = null;
  const words = (/** @type {string} */ key) =>
    root.querySelector(`[data-reaction="${key}"]`)?.textContent?.trim() || "";

  root.addEventListener("click", async (event) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest("[data-reaction]"));
    if (!button || !button.dataset.reaction) return;
    /** @type {HTMLButtonElement} */ (button).disabled = true;
    try {
      await api.send(button.dataset.reaction);
    } catch {
      /* refused (a block, too many): the other player sees nothing either way */
    }
    /** @type {HTMLButtonElement} */ (button).disabled = false;
  });
  muteGame.addEventListener("change", () => api.mute(muteGame.checked).catch(() => {}));
  muteAlways.addEventListener("change", () => {
    try {
      localStorage.setItem(MUTE_ALWAYS_KEY, muteAlways.checked ? "1" : "0");
    } catch {
      /* private mode: the box holds for this page only */
    }
    if (shownGame) render(shownGame);
  });

  /** @param {any} game */
  function render(game) {
    list.replaceChildren(
      ...reactionsShown(game, muteAlways.checked).map((/** @type {any} */ item) => {
        const row = document.createElement("li");
        row.dataset.seq = String(item.seq);
        row.dataset.by = item.by;
        const who = (game.players && game.players[item.by] && game.players[item.by].name) || "";
        row.textContent = who ? `${who}: ${words(item.reaction)}` : words(item.reaction);
        return row;
      }),
    );
  }

  return (game, seat, personOpposite) => {
    root.hidden = !seat || !personOpposite;
    if (root.hidden) return;
    shownGame = game;
    muteAlways.checked = mutedEverywhere();
    muteGame.checked = (game.reactions_muted || []).includes(seat);
    render(game);
  };
}
