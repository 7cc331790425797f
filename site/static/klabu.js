// @ts-check
// The clubs page (Vilabu, /{lang}/jamii/klabu/): your clubs, joining one by its invite code (typed, or opened
// from an invite link, #<id>-<code>), making one; and one club (#<id>): its invite to share (share sheet,
// WhatsApp, copy, QR code), its members' leaderboard per game, its tournaments and members, and what its owner
// does (renew the code, remove a member). Every text is the page's own (data- attributes), in its language.
import { ApiError, call, player } from "./api.js";
import { parseInvite, showInvite } from "../modules/invite_share.js";

const root = /** @type {HTMLElement} */ (document.getElementById("clubs"));
const texts = root.dataset;
const home = /** @type {HTMLElement} */ (root.querySelector(".clubs-home"));
const view = /** @type {HTMLElement} */ (root.querySelector(".club-view"));
const status = /** @type {HTMLElement} */ (root.querySelector(".status"));
const CLUB_ID = /^[23456789A-HJKMNP-Z]{6}$/;
/** @param {string} selector */
const $ = (selector) => /** @type {HTMLElement} */ (root.querySelector(selector));

/** @param {string} text @param {Record<string, string | number>} values */
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

/** @param {unknown} error */
function refusal(error) {
  const code = error instanceof ApiError ? error.code || "" : "";
  const key = "error" + code.replace(/(^|_)(\w)/g, (_, __, letter) => letter.toUpperCase());
  return texts[key] || texts.failed || "";
}

/** @param {string} game */
function gameTitle(game) {
  return texts["game" + game[0].toUpperCase() + game.slice(1)] || game;
}

/** @param {string} invite */
function inviteLink(invite) {
  return `${location.origin}${location.pathname}#${invite}`;
}

/** The QR code of a text as SVG, from site/static/qr.js, loaded on the first tap. @param {string} text */
const drawQr = async (text) => (await import("./qr.js")).qrSvg(text);

/** @param {string} tag @param {string} text @param {string} [className] */
function element(tag, text, className) {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

async function showHome() {
  view.hidden = true;
  home.hidden = false;
  const list = $(".club-list");
  try {
    const me = await player();
    const { clubs } = await call("GET", "/v1/players/me/clubs", { token: me.token });
    list.replaceChildren(
      ...clubs.map((/** @type {any} */ club) => {
        const item = document.createElement("li");
        const link = element("a", club.name);
        /** @type {HTMLAnchorElement} */ (link).href = "#" + club.id;
        item.append(link, " ", element("span", `${gameTitle(club.game)} · ${fill(texts.members || "", { n: club.members_count })}`));
        return item;
      }),
    );
    if (!clubs.length) list.replaceChildren(element("li", texts.none || ""));
  } catch (error) {
    status.textContent = refusal(error);
  }
}

/** @param {string} clubId @param {string} code @returns {Promise<any>} */
async function join(clubId, code) {
  const me = await player();
  const club = await call("POST", `/v1/clubs/${clubId}/join`, { token: me.token, body: { code } });
  status.textContent = fill(texts.joined || "", { name: club.name });
  history.replaceState(null, "", "#" + clubId);
  return club;
}

/** @param {any} club @param {string} game */
function showBoard(club, game) {
  for (const tab of $(".club-tabs").querySelectorAll("a")) tab.toggleAttribute("aria-current", tab.dataset.game === game);
  const rows = (club.boards[game] || []).map((/** @type {any} */ row, /** @type {number} */ index) => {
    const line = document.createElement("tr");
    const name = element("a", row.name || texts.unnamed || "");
    /** @type {HTMLAnchorElement} */ (name).href = `${texts.profileUrl}?id=${encodeURIComponent(row.player_id)}`;
    const cell = document.createElement("td");
    cell.append(name);
    line.append(element("td", String(index + 1)), cell, element("td", `${row.rating}${row.provisional ? "?" : ""}`));
    line.append(element("td", String(row.games)));
    return line;
  });
  const body = /** @type {HTMLElement} */ ($(".club-board").querySelector("tbody"));
  if (!rows.length) {
    const empty = element("td", texts.noRating || "");
    /** @type {HTMLTableCellElement} */ (empty).colSpan = 4;
    rows.push(document.createElement("tr"));
    rows[0].append(empty);
  }
  body.replaceChildren(...rows);
}

/** @param {any} club @param {string} token */
function showMembers(club, token) {
  $(".club-members").replaceChildren(
    ...club.members.map((/** @type {any} */ member) => {
      const item = element("li", member.name || texts.unnamed || "");
      if (member.player_id === club.owner) item.append(" ", element("span", texts.owner || "", "badge"));
      if (club.owner_is_you && member.player_id !== club.owner) {
        const remove = element("button", texts.remove || "");
        remove.addEventListener("click", () => act(club.id, "DELETE", `/v1/clubs/${club.id}/members/${member.player_id}`, token));
        item.append(" ", remove);
      }
      return item;
    }),
  );
}

/** @param {any} club @param {string} token */
function showClub(club, token) {
  home.hidden = true;
  view.hidden = false;
  $(".club-name").textContent = club.name;
  $(".club-terms").textContent = `${gameTitle(club.game)} · ${fill(texts.members || "", { n: club.members_count })}`;
  $(".join-this").hidden = club.member;
  $(".member-part").hidden = !club.member;
  if (!club.member) return;
  const link = inviteLink(club.invite);
  const message = fill(texts.message || "", { name: club.name, link });
  showInvite($(".invite-share"), link, message, (text) => (status.textContent = text), drawQr);
  $(".owner-part").hidden = !club.owner_is_you;
  const games = Object.keys(club.boards);
  $(".club-tabs").replaceChildren(
    ...games.map((game) => {
      const tab = element("a", gameTitle(game));
      /** @type {HTMLAnchorElement} */ (tab).href = "#" + club.id;
      tab.dataset.game = game;
      tab.addEventListener("click", (event) => (event.preventDefault(), showBoard(club, game)));
      return tab;
    }),
  );
  showBoard(club, games[0]);
  $(".club-tournaments").replaceChildren(
    ...club.tournaments.map((/** @type {any} */ tournament) => {
      const item = document.createElement("li");
      const link = element("a", tournament.name || gameTitle(tournament.game));
      /** @type {HTMLAnchorElement} */ (link).href = `${texts.tournamentUrl}?id=${tournament.id}`;
      item.append(link);
      if (tournament.name) item.append(" ", element("span", gameTitle(tournament.game)));
      return item;
    }),
  );
  /** @type {HTMLAnchorElement} */ ($(".club-league")).href = `${texts.tournamentUrl}?club=${club.id}`;
  if (!club.tournaments.length) $(".club-tournaments").replaceChildren(element("li", texts.noTournament || ""));
  showMembers(club, token);
}

/** @param {string} clubId @param {string} method @param {string} path @param {string} token */
async function act(clubId, method, path, token) {
  try {
    const answer = await call(method, path, { token });
    if (answer && answer.id) return showClub(answer, token);
    await showOne(clubId);
  } catch (error) {
    status.textContent = refusal(error);
  }
}

/** @param {string} clubId @param {string | null} [code] */
async function showOne(clubId, code = null) {
  try {
    const me = await player();
    let club = await call("GET", `/v1/clubs/${clubId}`, { token: me.token });
    if (!club.member && code) club = await join(clubId, code).catch((error) => ((status.textContent = refusal(error)), club));
    /** @type {HTMLInputElement} */ ($("#this-code")).value = code ? `${clubId}-${code}` : "";
    showClub(club, me.token);
  } catch (error) {
    status.textContent = refusal(error);
  }
}

function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  const invite = parseInvite(hash);
  if (invite) return showOne(invite[0], invite[1]);
  if (CLUB_ID.test(hash)) return showOne(hash);
  return showHome();
}

/** @param {HTMLFormElement} form */
function onJoin(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const invite = parseInvite(/** @type {HTMLInputElement} */ (form.elements.namedItem("code")).value);
    if (!invite) return void (status.textContent = texts.badCode || "");
    try {
      const club = await join(...invite);
      showClub(club, (await player()).token);
    } catch (error) {
      status.textContent = refusal(error);
    }
  });
}

onJoin(/** @type {HTMLFormElement} */ ($(".join-club")));
onJoin(/** @type {HTMLFormElement} */ ($(".join-this")));
$(".new-club").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const body = { name: /** @type {HTMLInputElement} */ (form.elements.namedItem("name")).value, game: /** @type {HTMLSelectElement} */ (form.elements.namedItem("game")).value };
  try {
    const me = await player();
    const club = await call("POST", "/v1/clubs", { token: me.token, body });
    history.replaceState(null, "", "#" + club.id);
    showClub(club, me.token);
  } catch (error) {
    status.textContent = refusal(error);
  }
});
$(".renew").addEventListener("click", async () => {
  const clubId = location.hash.slice(1, 7);
  await act(clubId, "POST", `/v1/clubs/${clubId}/code`, (await player()).token);
  status.textContent = texts.renewed || "";
});
$(".leave").addEventListener("click", async () => {
  const clubId = location.hash.slice(1, 7);
  try {
    await call("POST", `/v1/clubs/${clubId}/leave`, { token: (await player()).token });
    history.replaceState(null, "", location.pathname);
    status.textContent = texts.left || "";
    showHome();
  } catch (error) {
    status.textContent = refusal(error);
  }
});
addEventListener("hashchange", route);
route();
