// @ts-check
// The friends strip (home and play pages; templates/_friends_strip.html): challenges waiting for the player's
// answer (accept opens the game, decline), their friends with who has a game going (watch) and a "challenge"
// button, and the challenges they sent with the answers (an accepted one opens the game). Only for a browser that
// is a player already: the strip never makes one. Every text is the page's own (data- attributes).
import { ApiError, call, storedPlayer } from "./api.js";

/** How often the strip looks again while a challenge of the player's waits for an answer (ms). */
const WAITING_POLL_MS = 10000;

/**
 * @typedef {{player_id: string, name: string | null}} Side
 * @typedef {{id: string, sender: Side, receiver: Side, game: string, status: string, game_id: string | null}} Challenge
 * @typedef {{player_id: string, name: string | null, playing: string | null}} Friend
 */

const strip = /** @type {HTMLElement | null} */ (document.getElementById("friends-strip"));

/** @param {string} text @param {Record<string, string>} values */
function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");
}

/** @param {string} tag @param {string} [text] @param {string} [className] */
function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** @param {HTMLElement} root @param {string} token */
function startStrip(root, token) {
  const texts = root.dataset;
  const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
  const status = $(".status");
  const gameChoice = /** @type {HTMLSelectElement} */ ($("#strip-game"));
  /** @type {number | undefined} */
  let timer;

  const nameOf = (/** @type {Side | Friend} */ side) => side.name || texts.unnamed || "";
  const gameTitle = (/** @type {string} */ game) => texts["game" + game[0].toUpperCase() + game.slice(1)] || game;
  const gameUrl = (/** @type {string} */ id) => `${texts.gamePage}#game=${encodeURIComponent(id)}`;

  /** @param {unknown} error */
  const refusal = (error) => {
    const code = error instanceof ApiError ? error.code || "" : "";
    const key = "error" + code.replace(/(^|_)(\w)/g, (_, __, letter) => letter.toUpperCase());
    return texts[key] || texts.failed || "";
  };

  /** @param {string} text @param {() => Promise<void>} action */
  const button = (text, action) => {
    const made = /** @type {HTMLButtonElement} */ (element("button", text));
    made.type = "button";
    made.addEventListener("click", async () => {
      made.disabled = true;
      try {
        await action();
      } catch (error) {
        status.textContent = refusal(error);
      }
      made.disabled = false;
    });
    return made;
  };

  /** @param {string} href @param {string} text */
  const link = (href, text) => {
    const made = /** @type {HTMLAnchorElement} */ (element("a", text, "button"));
    made.href = href;
    return made;
  };

  /** @param {Challenge} challenge @param {string} action */
  const answer = (challenge, action) =>
    call("POST", `/v1/players/me/challenges/${encodeURIComponent(challenge.id)}`, { body: { action }, token });

  /** @param {Challenge} challenge */
  const receivedRow = (challenge) => {
    const row = element("li", fill(texts.received || "", { name: nameOf(challenge.sender), game: gameTitle(challenge.game) }));
    row.dataset.challenge = challenge.id;
    row.append(
      " ",
      button(texts.accept || "", async () => {
        const accepted = await answer(challenge, "accept");
        location.assign(gameUrl(accepted.game_id));
      }),
      " ",
      button(texts.decline || "", async () => {
        await answer(challenge, "decline");
        await refresh();
      }),
    );
    return row;
  };

  /** @param {Challenge} challenge */
  const sentRow = (challenge) => {
    const key = "sent" + challenge.status[0].toUpperCase() + challenge.status.slice(1);
    const row = element("li", fill(texts[key] || "", { name: nameOf(challenge.receiver), game: gameTitle(challenge.game) }));
    row.dataset.challenge = challenge.id;
    row.dataset.status = challenge.status;
    if (challenge.status === "open") {
      row.append(" ", button(texts.withdraw || "", async () => {
        await answer(challenge, "withdraw");
        await refresh();
      }));
    } else if (challenge.status === "accepted" && challenge.game_id) {
      row.append(" ", link(gameUrl(challenge.game_id), texts.open || ""));
    }
    return row;
  };

  /** @param {Friend} friend */
  const friendRow = (friend) => {
    const row = element("li");
    row.dataset.player = friend.player_id;
    row.append(element("span", nameOf(friend), "friend-name"));
    if (friend.playing) {
      row.append(" ", element("span", texts.playing || "", "badge"), " ", link(gameUrl(friend.playing), texts.watch || ""));
    }
    row.append(" ", button(texts.challenge || "", async () => {
      const body = { player: friend.player_id, game: gameChoice.value };
      await call("POST", "/v1/players/me/challenges", { body, token });
      await refresh();
      status.textContent = fill(texts.challenged || "", { name: nameOf(friend) });
    }));
    return row;
  };

  async function refresh() {
    window.clearTimeout(timer);
    const [friends, challenges] = await Promise.all([
      call("GET", "/v1/players/me/friends", { token }),
      call("GET", "/v1/players/me/challenges", { token }),
    ]);
    /** @type {Challenge[]} */
    const sent = challenges.sent.filter((/** @type {Challenge} */ item) => item.status !== "withdrawn");
    $(".received").replaceChildren(...challenges.received.map(receivedRow));
    $(".friend-list").replaceChildren(...friends.friends.map(friendRow));
    $(".sent").replaceChildren(...sent.map(sentRow));
    $(".strip-game").hidden = !friends.friends.length;
    root.hidden = !(friends.friends.length || challenges.received.length || sent.length);
    status.textContent = "";
    if (sent.some((item) => item.status === "open") || challenges.received.length) {
      timer = window.setTimeout(() => refresh().catch(() => {}), WAITING_POLL_MS);
    }
  }

  refresh().catch((error) => {
    status.textContent = refusal(error);
  });
}

const me = storedPlayer();
if (strip && me && me.token) startStrip(strip, me.token);
