// @ts-check
// The lobby on the game page: the open challenges of the game chosen in the create form, and "Play anyone"
// (rated or casual as the form's switch says), which accepts the best-matching challenge or makes one and
// waits for an opponent (polling it with its ETag). The page hands in its API calls: this imports modules only.

import { refusalOf } from "./game_text.js";
import { format, plural } from "./i18n.js";
import { bestMatches, formOptions, ratingIn, ratingText } from "./lobby_match.js";

const WAITING_KEY = "ubao.seek";
const POLL_MS = 5000;
/** Refusals after which "Play anyone" tries the next challenge: someone was quicker, or it closed. */
const TRY_NEXT = new Set(["seek_taken", "seek_not_found", "out_of_range", "own_seek"]);

/**
 * @typedef {{
 *   m: import("../types").Messages,
 *   call: (method: string, path: string, request?: {body?: unknown, token?: string | null, etag?: string | null}) => Promise<any>,
 *   player: () => Promise<{token: string, player_id: string}>,
 *   storedPlayer: () => {token?: string} | null,
 *   isRefusal: (error: unknown) => boolean,
 *   beforeActing: () => Promise<void>,
 *   openGame: (id: string, seat: string | null) => void,
 * }} LobbyParts
 */

/**
 * @param {HTMLElement} section  the lobby's section of the page
 * @param {HTMLFormElement} form  the create form (its game, colour and options)
 * @param {LobbyParts} parts
 */
export function setUpLobby(section, form, parts) {
  const { m, call } = parts;
  const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (section.querySelector(selector));
  const list = $(".seek-list");
  const note = $(".lobby-status");
  const waitingBox = $(".lobby-waiting");
  let timer = 0;
  let etag = /** @type {string | null} */ (null);

  const game = () => String(new FormData(form).get("game"));
  const token = () => (parts.storedPlayer() || {}).token || null;
  const say = (/** @type {string} */ text, /** @type {string} */ kind = "") => {
    note.textContent = text;
    note.className = `lobby-status status ${kind}`.trim();
  };
  const failure = (/** @type {any} */ error) => (parts.isRefusal(error) ? refusalOf(m, error.body.error) : m.network_error);

  async function refresh() {
    try {
      const page = await call("GET", `/v1/seeks?game=${encodeURIComponent(game())}`, { token: token() });
      render(page.seeks);
      return page.seeks;
    } catch (error) {
      say(failure(error), "bad");
      return [];
    }
  }

  /** @param {any[]} seeks */
  function render(seeks) {
    list.replaceChildren(
      ...seeks.map((seek) => {
        const item = document.createElement("li");
        const days = plural(m, "days_per_move", seek.options.days_per_move);
        const who = format(m.lobby_seeker, { name: seek.seeker.name || m.anonymous, rating: ratingText(seek.seeker) });
        item.append(`${who} · ${seek.rated ? m.lobby_rated_tag : m.lobby_casual_tag} · ${days} `);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = seek.mine ? m.lobby_withdraw : m.lobby_accept;
        button.addEventListener("click", () => (seek.mine ? withdraw(seek.id) : accept(seek.id).catch((e) => say(failure(e), "bad"))));
        item.append(button);
        return item;
      }),
    );
    $(".lobby-empty").hidden = seeks.length > 0;
  }

  /** Accept one challenge and open its game. @param {string} id */
  async function accept(id) {
    await parts.beforeActing();
    const me = await parts.player();
    const answer = await call("POST", `/v1/seeks/${encodeURIComponent(id)}/accept`, { token: me.token });
    say(m.lobby_found, "ok");
    parts.openGame(answer.game.id, answer.seat);
    refresh();
  }

  /** @param {string} id */
  async function withdraw(id) {
    try {
      const me = await parts.player();
      await call("DELETE", `/v1/seeks/${encodeURIComponent(id)}`, { token: me.token });
      stopWaiting();
    } catch (error) {
      say(failure(error), "bad");
    }
    await refresh();
  }

  async function playAnyone() {
    say(m.loading);
    try {
      await parts.beforeActing();
      const me = await parts.player();
      const mine = await call("GET", "/v1/players/me", { token: me.token }).catch(() => null);
      const rated = new FormData(form).get("rated") === "on";
      for (const seek of bestMatches(await refresh(), ratingIn(mine, game()), rated).slice(0, 3)) {
        try {
          return await accept(seek.id);
        } catch (error) {
          if (!(parts.isRefusal(error) && TRY_NEXT.has(/** @type {any} */ (error).body.error.code))) throw error;
        }
      }
      const data = new FormData(form);
      const body = { game: game(), rated, options: formOptions(data, form.querySelector(`fieldset[data-game="${game()}"]`)) };
      const colour = data.get("color");
      if (colour === "white" || colour === "black") body.color = colour;
      const made = await call("POST", "/v1/seeks", { body, token: me.token });
      wait(made.seek.id);
      await refresh();
    } catch (error) {
      say(failure(error), "bad");
    }
  }

  /** Wait for someone to accept challenge ``id`` (kept across reloads). @param {string} id */
  function wait(id) {
    localStorage.setItem(WAITING_KEY, id);
    waitingBox.hidden = false;
    waitingBox.dataset.seek = id;
    say(m.lobby_waiting);
    clearTimeout(timer);
    timer = window.setTimeout(poll, POLL_MS);
  }

  function stopWaiting() {
    localStorage.removeItem(WAITING_KEY);
    waitingBox.hidden = true;
    clearTimeout(timer);
    etag = null;
    say("");
  }

  async function poll() {
    const id = localStorage.getItem(WAITING_KEY);
    if (!id) return;
    try {
      const answer = await call("GET", `/v1/seeks/${encodeURIComponent(id)}`, { token: token(), etag });
      if (!answer.notModified) {
        etag = answer._etag;
        if (answer.seek.game_id) {
          stopWaiting();
          say(m.lobby_found, "ok");
          refresh();
          return parts.openGame(answer.seek.game_id, null);
        }
      }
    } catch (error) {
      if (parts.isRefusal(error)) return stopWaiting(); // withdrawn or lapsed
    }
    timer = window.setTimeout(poll, POLL_MS);
  }

  $("#play-anyone").addEventListener("click", playAnyone);
  $(".lobby-withdraw").addEventListener("click", () => withdraw(waitingBox.dataset.seek || ""));
  form.querySelector("#game-choice")?.addEventListener("change", refresh);
  section.hidden = false;
  refresh();
  const waiting = localStorage.getItem(WAITING_KEY);
  if (waiting) wait(waiting);
}
