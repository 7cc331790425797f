// @ts-check
// TV (Tazama): on the play page opened with #game=<id>&tv=<game>, follow the game as any spectator does and,
// a few seconds after it ends, move on to the next game on the air (GET /v1/games/live?game=). mchezo.js
// loads this only in TV mode. The game page itself shows and follows each game (the live socket, or polling
// when the socket cannot): TV reads no game of its own, it hears each one the page draws ("ubao:game").
import { call } from "./api.js";
import { nextOnAir } from "../modules/on_air_text.js";

const LINGER_MS = 8000; // the result stays on screen this long
const RETRY_MS = 10000; // nothing on the air yet: look again
const kind = new URLSearchParams(location.hash.slice(1)).get("tv") || "";
let leaving = "";

function current() {
  return new URLSearchParams(location.hash.slice(1)).get("game") || "";
}

/** @param {Event} event */
function drawn(event) {
  const game = /** @type {CustomEvent} */ (event).detail;
  if (!game || game.id !== current() || game.state !== "finished" || leaving === game.id) return;
  leaving = game.id;
  setTimeout(moveOn, LINGER_MS);
}

async function moveOn() {
  try {
    const answer = await call("GET", "/v1/games/live?game=" + encodeURIComponent(kind));
    const next = nextOnAir(answer.games, leaving);
    if (next) {
      location.hash = `#game=${encodeURIComponent(next)}&tv=${encodeURIComponent(kind)}`;
      scrollTo(0, 0);
      return;
    }
  } catch {
    /* offline for a moment: look again */
  }
  setTimeout(moveOn, RETRY_MS);
}

/** This script may load after the page drew the game (a game over already): one read of it at the start. */
async function first() {
  try {
    const game = await call("GET", `/v1/games/${encodeURIComponent(current())}`);
    drawn(new CustomEvent("ubao:game", { detail: game }));
  } catch {
    /* the page's next drawing tells */
  }
}

if (kind) {
  document.addEventListener("ubao:game", drawn);
  first();
}
