// @ts-check
// The community page (Jamii): the player's friend link (share, WhatsApp, copy, QR code), the players they follow with
// friends marked (GET /v1/players/me/follows), unfollow, and "follow this player?" when the page is opened from
// someone's link (#follow=<player id>). Every text is the page's own (data- attributes), in its language.
import { ApiError, call, player } from "./api.js";
import "./friends.js";
import { showInvite } from "../modules/invite_share.js";

const section = /** @type {HTMLElement} */ (document.getElementById("follows"));
const list = /** @type {HTMLElement} */ (section.querySelector(".follow-list"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));
const texts = section.dataset;

/** @param {string} text @param {Record<string, string>} values */
function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");
}

/** @param {unknown} error */
function refusal(error) {
  const code = error instanceof ApiError ? error.code || "" : "";
  const key = "error" + code.replace(/(^|_)(\w)/g, (_, __, letter) => letter.toUpperCase());
  return texts[key] || texts.failed || "";
}

function followedFromLink() {
  const match = /(?:^#|&)follow=([A-Za-z0-9_-]{8,40})/.exec(location.hash);
  return match ? match[1] : null;
}

/** @param {{player_id: string, name: string | null, friend: boolean}} follow @param {string} token */
function row(follow, token) {
  const item = document.createElement("li");
  const name = document.createElement("span");
  name.className = "follow-name";
  name.textContent = follow.name || texts.unnamed || "";
  item.append(name);
  if (follow.friend) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = texts.friend || "";
    item.append(" ", badge);
  }
  const unfollow = document.createElement("button");
  unfollow.type = "button";
  unfollow.textContent = texts.unfollow || "";
  unfollow.addEventListener("click", async () => {
    try {
      await call("DELETE", "/v1/players/me/follows", { body: { player: follow.player_id }, token });
      await showFollows(token);
    } catch (error) {
      status.textContent = refusal(error);
    }
  });
  item.append(" ", unfollow);
  return item;
}

/** @param {string} token */
async function showFollows(token) {
  const answer = await call("GET", "/v1/players/me/follows", { token });
  list.replaceChildren(...answer.follows.map((follow) => row(follow, token)));
  status.textContent = answer.follows.length ? "" : texts.empty || "";
  return answer;
}

/** The QR code of a text as SVG, from site/static/qr.js, loaded on the first tap. @param {string} text */
const drawQr = async (text) => (await import("./qr.js")).qrSvg(text);

/** @param {string} playerId */
function showLink(playerId) {
  const link = new URL(location.pathname, location.origin).href + "#follow=" + playerId;
  const root = /** @type {HTMLElement} */ (document.querySelector("#friend-link .invite-share"));
  showInvite(root, link, fill(texts.whatsapp || "", { link }), (text) => (status.textContent = text), drawQr);
}

/** @param {string} token */
function setUpFollowOffer(token) {
  const offer = /** @type {HTMLElement} */ (document.getElementById("follow-offer"));
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("follow-button"));
  const show = () => {
    offer.hidden = !followedFromLink();
    button.disabled = false;
  };
  button.addEventListener("click", async () => {
    const playerId = followedFromLink();
    if (!playerId) return;
    button.disabled = true;
    try {
      const made = await call("POST", "/v1/players/me/follows", { body: { player: playerId }, token });
      offer.hidden = true;
      history.replaceState(null, "", location.pathname);
      await showFollows(token);
      status.textContent = fill(texts.followed || "", { name: made.name || texts.unnamed || "" });
    } catch (error) {
      status.textContent = refusal(error);
      button.disabled = false;
    }
  });
  window.addEventListener("hashchange", show); // a friend link opened on this very page
  show();
}

async function start() {
  try {
    const me = await player();
    const answer = await showFollows(me.token);
    showLink(answer.player_id);
    setUpFollowOffer(me.token);
  } catch (error) {
    status.textContent = refusal(error);
  }
}

start();
