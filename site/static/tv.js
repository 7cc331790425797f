// @ts-check
// TV (Tazama): on the play page opened with #game=<id>&tv=<game>, follow the game as any spectator does and,
// a few seconds after it ends, move on to the next game on the air (GET /v1/games/live?game=). mchezo.js
// loads this only in TV mode. The game page itself shows and follows each game.
import { call } from "./api.js";
import { nextOnAir } from "../modules/on_air_text.js";

const CHECK_MS = 10000; // a cheap 304 while nothing changed
const LINGER_MS = 8000; // the result stays on screen this long
const kind = new URLSearchParams(location.hash.slice(1)).get("tv") || "";
let etag = null;
let watching = "";

function current() {
  return new URLSearchParams(location.hash.slice(1)).get("game") || "";
}

async function check() {
  const id = current();
  if (id !== watching) {
    watching = id;
    etag = null;
  }
  try {
    const game = await call("GET", `/v1/games/${encodeURIComponent(id)}`, { etag });
    if (!game.notModified) etag = game._etag;
    if (!game.notModified && game.state === "finished") {
      setTimeout(moveOn, LINGER_MS);
      return;
    }
  } catch {
    /* offline for a moment: look again */
  }
  setTimeout(check, CHECK_MS);
}

async function moveOn() {
  try {
    const answer = await call("GET", "/v1/games/live?game=" + encodeURIComponent(kind));
    const next = nextOnAir(answer.games, watching);
    if (next) {
      location.hash = `#game=${encodeURIComponent(next)}&tv=${encodeURIComponent(kind)}`;
      scrollTo(0, 0);
    }
  } catch {
    /* nothing to move to yet */
  }
  setTimeout(check, CHECK_MS);
}

if (kind) check();
