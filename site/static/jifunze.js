// Jifunze exercises: the legal moves and answers were computed at build time and are embedded in the page.
import { Board, config, format, matchTyped } from "./board.js";

const cfg = config();
const m = cfg.messages;

for (const article of document.querySelectorAll(".exercise")) {
  const exercise = cfg.exercises[Number(article.dataset.index)];
  const status = article.querySelector(".status");
  const form = article.querySelector(".move-form");
  const input = form.querySelector("input");
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
    board.setPosition(exercise.fen, { legal: exercise.moves });
    board.setInteractive(true);
    show(m.your_move);
  };

  function play(move) {
    board.setPosition(move.after, { last: [move.from, move.to] });
    board.setInteractive(false);
    const played = format(m.moved, { move: move.san });
    if (move.correct) show(played + " " + m.correct, "ok");
    else show(played + " " + m.wrong, "bad");
  }

  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let found = matchTyped(input.value, exercise.moves);
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
