// @ts-check
// The lobby on the game page: the open challenges of every game, the one chosen in the create form first,
// each labelled with its game, and "Play anyone", which takes the best-matching challenge of the chosen game
// (of the kind the form's rated switch says, else of the other kind), else of another game, saying which
// game and kind before taking one that is not what the form says; with none, it makes one and waits for an
// opponent (polling it with its ETag). The page hands in its API calls: this imports modules only.

import { refusalOf } from "./game_text.js";
import { format, plural } from "./i18n.js";
import { formOptions, ratingIn, ratingText, takeOrder } from "./lobby_match.js";

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

  /** Every game's open challenges, by game (the games of the form's choice). @returns {Promise<Record<string, any[]>>} */
  async function refresh() {
    const games = [...form.querySelectorAll("#game-choice option")].map((option) => /** @type {HTMLOptionElement} */ (option).value);
    try {
      const pages = await Promise.all(games.map((name) => call("GET", `/v1/seeks?game=${encodeURIComponent(name)}`, { token: token() })));
      const byGame = Object.fromEntries(games.map((name, i) => [name, pages[i].seeks]));
      render(byGame);
      return byGame;
    } catch (error) {
      say(failure(error), "bad");
      return {};
    }
  }

  /** @param {any} seek @param {string} name  its game */
  const described = (seek, name) => {
    const who = format(m.lobby_seeker, { name: seek.seeker.name || m.anonymous, rating: ratingText(seek.seeker) });
    return { game: m.game_titles[name] || name, who: who.charAt(0).toUpperCase() + who.slice(1), kind: seek.rated ? m.lobby_rated_tag : m.lobby_casual_tag };
  };

  /** @param {Record<string, any[]>} byGame */
  function render(byGame) {
    const chosen = game();
    const games = [chosen, ...Object.keys(byGame).filter((name) => name !== chosen)];
    const seeks = games.flatMap((name) => (byGame[name] || []).map((seek) => ({ seek, name })));
    list.replaceChildren(
      ...seeks.map(({ seek, name }) => {
        const item = document.createElement("li");
        item.dataset.game = name;
        const days = plural(m, "days_per_move", seek.options.days_per_move);
        const { game: title, who, kind } = described(seek, name);
        const label = document.createElement("strong");
        label.textContent = title;
        item.append(label, ` · ${who} · ${kind} · ${days} `);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = seek.mine ? m.lobby_withdraw : m.lobby_accept;
        button.addEventListener("click", () => (seek.mine ? withdraw(seek.id) : accept(seek.id).catch((e) => say(failure(e), "bad"))));
        item.append(button);
        return item;
      }),
    );
    $(".lobby-empty").hidden = (byGame[chosen] || []).length > 0; // "none for this game yet"
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
      for (const seek of takeOrder(await refresh(), game(), (name) => ratingIn(mine, name), rated).slice(0, 3)) {
        // Not what the form says (another kind, or another game): said, and taken only if the player agrees.
        if ((seek.game !== game() || seek.rated !== rated) && !confirm(format(m.lobby_take_other, described(seek, seek.game)))) break;
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
