// The puzzle page: fetch each game's daily puzzle, play the attempt through the API, show result and streak.
// The server checks every move (POST /v1/puzzles/{id}/attempt) and draws each new position
// (POST /v1/validate), so the page holds no rules. The legal moves the board marks come from the same
// validate answers (the first ones from a refused placeholder move, whose answer lists the legal moves).
import { ApiError, boardMoves, call, player, storedPlayer, validate, moveText } from "./api.js";
import { Board, config, format, plural, refusalText } from "./board.js";
import { dropAttempt, keepAttempt, keptAttempt, offlineText } from "./outbox.js";

const cfg = config();
const m = cfg.messages;

function turnText(game, turn) {
  if (turn === "white") return game === "english" ? m.red_to_move : m.white_to_move;
  return m.black_to_move;
}

async function showProgress() {
  const known = storedPlayer();
  if (!known) return;
  const box = document.getElementById("progress");
  try {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const p = await call("GET", "/v1/players/me/puzzles?tz=" + encodeURIComponent(tz), { token: known.token });
    box.textContent = [plural(m, "streak", p.streak || 0), plural(m, "solved_count", p.solved || 0),
      format(m.rating, { rating: Math.round(p.rating) })].join(" · ");
    box.hidden = false;
  } catch {
    box.hidden = true;
  }
}

async function setUp(section) {
  const game = section.dataset.game;
  const status = section.querySelector(".status");
  const meta = section.querySelector(".meta");
  const form = section.querySelector(".move-form");
  const input = form.querySelector("input");
  const show = (text, kind) => {
    status.textContent = text;
    status.className = "status" + (kind ? " " + kind : "");
  };
  show(m.loading);
  let puzzle;
  try {
    puzzle = await call("GET", "/v1/puzzles/daily?game=" + encodeURIComponent(game));
  } catch {
    show(m.network_error, "bad");
    return;
  }
  meta.textContent = format(m.puzzle_meta, { rating: puzzle.rating, date: puzzle.date });
  let fen = puzzle.fen;
  const played = []; // every move since the puzzle's position, both sides, canonical notation
  const mine = []; // the solver's moves, as the attempt route wants them
  let busy = false;

  const board = new Board(section.querySelector(".board-host"), {
    game,
    fen,
    squares: cfg.squares[game],
    orientation: puzzle.turn,
    legal: null,
    messages: m,
    onMove: (move) => attempt(moveText(game, move)),
  });
  show(turnText(game, puzzle.turn) + " " + m.your_move);
  const legalOf = (answer) => boardMoves(game, answer.legal_moves_uci || answer.legal_moves);
  validate(game, puzzle.fen, [], "?").then((answer) => board.setLegal(legalOf(answer))).catch(() => {});

  async function attempt(text) {
    if (busy) return false;
    busy = true;
    let checkedMove = null; // set once the move is on the board: then the attempt alone is left to send
    try {
      const checked = await validate(game, puzzle.fen, played, text);
      if (!checked.legal) {
        const reason = checked.error && checked.error.reason;
        await dropAttempt(puzzle.id).catch(() => {}); // a kept move the server refuses is not kept again
        const text = refusalText(m, reason, { moves: checked.legal_moves || [] });
        show(text, "bad"); // the status line under the board: the board's own note stays for taps
        return;
      }
      board.setPosition(checked.fen);
      checkedMove = checked.move;
      mine.push(checked.move);
      played.push(checked.move);
      const who = await player().catch(() => null);
      // The time zone dates the solve for the streak, in the player's own days.
      const answer = await call("POST", "/v1/puzzles/" + encodeURIComponent(puzzle.id) + "/attempt?tz="
        + encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"),
        { body: { moves: mine }, token: who && who.token });
      const kept = await keptAttempt(puzzle.id).catch(() => null);
      if (kept && mine.length >= kept.moves.length) await dropAttempt(puzzle.id).catch(() => {}); // judged
      if (answer.result === "continue") {
        const reply = await validate(game, puzzle.fen, played, answer.reply);
        played.push(reply.move);
        fen = reply.fen;
        board.setPosition(fen, { last: lastSquares(game, reply.move), legal: legalOf(reply) });
        show(format(m.puzzle_continue, { move: reply.move }));
      } else if (answer.result === "solved") {
        board.setInteractive(false);
        form.hidden = true;
        show(m.puzzle_solved, "ok");
        showProgress();
      } else {
        board.setInteractive(false);
        form.hidden = true;
        show(format(m.puzzle_failed, { moves: (answer.solution || []).join(" ") }), "bad");
        showProgress();
      }
    } catch (error) {
      if (error instanceof ApiError) {
        await dropAttempt(puzzle.id).catch(() => {}); // refused (e.g. attempt_over): sending it again would change nothing
        show(m.network_error, "bad");
        return false;
      }
      // Offline (issue 12): the moves are kept and the server checks them when the connection returns.
      await keepAttempt(puzzle.id, checkedMove ? [...mine] : [...mine, text]).catch(() => {});
      show(offlineText("attemptQueued", { move: text }), "bad");
      return false;
    } finally {
      busy = false;
    }
    return true;
  }

  /** An attempt kept offline, sent move by move as if played now: the server is the judge. */
  async function sendKept() {
    const kept = await keptAttempt(puzzle.id).catch(() => null);
    if (!kept || busy) return;
    for (const move of kept.moves.slice(mine.length)) {
      if (!(await attempt(move))) return;
    }
  }
  window.addEventListener("online", sendKept);
  sendKept();

  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) attempt(text);
    input.value = "";
  });
}

function lastSquares(game, notation) {
  if (game === "chess") return null;
  const squares = String(notation).split(/[-x]/);
  return [squares[0], squares[squares.length - 1]];
}

for (const section of document.querySelectorAll(".puzzle")) setUp(section);
showProgress();
