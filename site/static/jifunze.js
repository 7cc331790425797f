// @ts-check
// Jifunze exercises: the legal moves and answers were computed at build time into one hashed JSON file per
// game (the page's config names it), fetched when the exercises come near, not with the page: on a phone the
// exercises are screens below the lesson, and their data (8-9 KB after Brotli for chess) would make a first
// visit miss its 30 KB budget. The service worker precaches the file with the shell: offline, it is there.
// An exercise of several moves is a tree: after a right move that does not finish it, the computer's reply
// (chosen at build time by the rules layer's search) is played and the player's next choices come with it.
import { Board } from "./board.js";
import { format } from "../modules/i18n.js";
import { matchTyped } from "../modules/notation.js";
import { config } from "../modules/page_config.js";

const cfg = config();
const m = cfg.messages;
// Why a legal move is wrong when it meets another rule ("that also escapes check, ..."), by its code.
const reasons = JSON.parse(document.getElementById("jifunze-reasons")?.textContent || "{}");
const REPLY_DELAY_MS = 500;
// A lesson has up to 40 exercises: each board is made playable when it comes within a screen of the
// view, not all before the page's load event (on a slow phone that took about 0.4 s of a first visit). Until
// then the board drawn at build time shows the same position.
const NEAR_VIEW = "100% 0px";
// The exercises' data is asked for when the first exercise is within three screens, or at the first tap on
// the jump to them: at 400 kbit/s it is there before the reader is.
const FETCH_NEAR = "300% 0px";

/** @type {Promise<any[]> | null} */
let exercises = null;
/** The exercises' data, fetched once; a failed fetch (offline, never cached) is asked again next time. */
function loadExercises() {
  if (exercises) return exercises;
  exercises = fetch(cfg.exercises_url)
    .then((response) => {
      if (!response.ok) throw new Error(`${cfg.exercises_url}: HTTP ${response.status}`);
      return response.json();
    })
    .catch((error) => {
      exercises = null;
      throw error;
    });
  return exercises;
}

/** The exercise in ``article`` made playable: its board, its typed-move form and its status.
 * @param {HTMLElement} article @param {any} exercise */
function setUpExercise(article, exercise) {
  const status = article.querySelector(".status");
  /** @type {HTMLFormElement} */
  const form = article.querySelector(".move-form");
  const input = form.querySelector("input");
  let choices = exercise.moves; // the player's legal moves in the position on the board
  let pending = null; // the computer's reply waiting to be shown
  const show = (text, kind) => {
    status.textContent = text;
    status.className = "status" + (kind ? " " + kind : "");
  };
  const board = new Board(article.querySelector(".board-host"), {
    game: cfg.game,
    fen: exercise.fen,
    squares: cfg.squares,
    orientation: exercise.turn,
    legal: exercise.moves,
    messages: m,
    onMove: play,
  });
  const reset = () => {
    clearTimeout(pending);
    choices = exercise.moves;
    board.setPosition(exercise.fen, { legal: choices });
    board.setInteractive(true);
    show(m.your_move);
  };

  function play(move) {
    choices = []; // nothing more to type until the reply or "Start again"
    board.setPosition(move.after, { last: [move.from, move.to] });
    board.setInteractive(false);
    const played = format(m.moved, { move: move.san });
    if (!move.correct) return show(played + " " + (reasons[move.why] || m.wrong), "bad");
    if (move.done) return show(played + " " + m.correct, "ok");
    show(played);
    pending = setTimeout(() => answer(move), REPLY_DELAY_MS);
  }

  function answer(move) {
    choices = move.next.moves;
    board.setPosition(move.reply.after, { legal: choices, last: [move.reply.from, move.reply.to] });
    board.setInteractive(true);
    show(format(m.exercise_reply, { move: move.reply.san }), "ok");
  }

  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let found = matchTyped(input.value, choices);
    if (found.length > 1 && found.every((move) => move.promotion)) found = found.filter((move) => move.promotion === "q");
    if (found.length === 1) {
      input.value = "";
      play(found[0]);
    } else {
      show(m.illegal, "bad");
    }
  });
  form.querySelector(".reset").addEventListener("click", reset);
  show(m.your_move);
}

/** Made playable once its data is here; without it (offline, never fetched) the drawn board, the hint and the
 * answer stay, and the exercise is tried again when the network is back. @param {HTMLElement} article */
function whenNear(article) {
  loadExercises().then(
    (list) => setUpExercise(article, list[Number(article.dataset.index)]),
    () => window.addEventListener("online", () => nearView.observe(article), { once: true }),
  );
}

const nearView = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      nearView.unobserve(entry.target);
      whenNear(/** @type {HTMLElement} */ (entry.target));
    }
  },
  { rootMargin: NEAR_VIEW },
);
const articles = document.querySelectorAll(".exercise");
for (const article of articles) nearView.observe(article);

const comingNear = new IntersectionObserver(
  (entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    comingNear.disconnect();
    loadExercises().catch(() => undefined); // an exercise in view asks again
  },
  { rootMargin: FETCH_NEAR },
);
if (articles.length) comingNear.observe(articles[0]);
for (const jump of document.querySelectorAll('a[href="#exercises"]')) {
  jump.addEventListener("pointerdown", () => loadExercises().catch(() => undefined), { once: true });
}
