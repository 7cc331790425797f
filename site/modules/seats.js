// @ts-check
// The game page's memory of its games in this browser: the seat taken in each game and the invite link of
// each game created here (localStorage), and the game and invite code a page's address names.

const SEATS_KEY = "ubao.seats";
const INVITES_KEY = "ubao.invites";

/**
 * The game and invite code of this page's address. Invite links look like /game/?id=ID#invite=CODE (the
 * games API) or #game=ID&invite=CODE (this page).
 * @returns {{id: string | null, invite: string | null}}
 */
export function gamePlace() {
  const params = new URLSearchParams(location.search.slice(1));
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) params.set(key, value);
  return { id: params.get("game") || params.get("id"), invite: params.get("invite") || params.get("code") };
}

/** @param {string} key @returns {Record<string, string>} */
function remembered(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

/** @param {string} key @param {string} id @param {string} value */
function remember(key, id, value) {
  const all = remembered(key);
  all[id] = value;
  localStorage.setItem(key, JSON.stringify(all));
}

/** @param {string} id @param {string} seat */
export const rememberSeat = (id, seat) => remember(SEATS_KEY, id, seat);
/** @param {string} id @param {string} url */
export const rememberInvite = (id, url) => remember(INVITES_KEY, id, url);

/**
 * The game inside an answer: POST /v1/games and /join and /rematch wrap it as {game, seat, invite}.
 * @param {any} answer
 */
export function unwrap(answer) {
  return answer && answer.game && typeof answer.game === "object" ? answer.game : answer;
}

/**
 * This browser's seat in ``game``: the one remembered, else the one its player ``me`` holds; null for a
 * spectator.
 * @param {any} game
 * @param {string[]} colours
 * @param {{player_id: string} | null} me  the player of this browser (api.js, storedPlayer)
 * @returns {string | null}
 */
export function mySeat(game, colours, me) {
  if (!game || !me) return null;
  const seat = remembered(SEATS_KEY)[game.id];
  if (seat) return seat;
  for (const colour of colours) {
    const seat = game.players && game.players[colour];
    if (seat && seat.player_id && seat.player_id === me.player_id) return colour;
  }
  return null;
}

/**
 * The invite link of a game created in this browser, or null.
 * @param {{id: string}} game
 */
export function inviteUrl(game) {
  const url = remembered(INVITES_KEY)[game.id];
  return url ? new URL(url, location.origin).href : null;
}

/**
 * The game ``id`` in the page's address (``#game=ID``, without a new history entry), and in the language links.
 * @param {string} id
 */
export function showGameInAddress(id) {
  history.replaceState(null, "", `#game=${encodeURIComponent(id)}`);
  keepGameInLanguageLinks();
}

/** The language links carry the game (and invite) in their hash, so switching language keeps the game. */
export function keepGameInLanguageLinks() {
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll(".langs a[hreflang]"))) {
    const url = new URL(link.href, location.href);
    url.search = location.search;
    url.hash = location.hash;
    link.href = url.pathname + url.search + url.hash;
  }
}
