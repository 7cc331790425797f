// @ts-check
// The puzzle page: each game's puzzle with its goal, the opponent's replies played on the board,
// "Try again" and "Show the solution" (stepped with Back and Forward) after a miss, "Next puzzle" near the
// player's rating with a theme filter, the rating (provisional while uncertain), streak, solved count and
// the last 20 outcomes. The server checks every move (POST /v1/puzzles/{id}/attempt) and draws each new
// position (POST /v1/validate), so the page holds no rules.
//
// Offline: today's puzzle and the next 20 of each game the player opened are kept in this
// browser (localStorage, from GET /v1/puzzles/pack); an attempt made offline is kept by the outbox and sent
// when the connection returns: the server stays the judge.
import { ApiError, call, player, storedPlayer, validate } from "./api.js";
import { Board } from "./board.js";
import { goalText, mineText, ratingChangeText, ratingText, themeText, turnText } from "../modules/fumbo_text.js";
import { format, plural, refusalText } from "../modules/i18n.js";
import { boardMoves, movedSquares, moveText, readableMove } from "../modules/notation.js";
import { config } from "../modules/page_config.js";
import { onFirstUse } from "../modules/first_use.js";
import { nextQuery, opensOnMistakes, setUpPuzzleTabs } from "../modules/puzzle_tabs.js";
import { PACK_SIZE, keepLegal, kept, keptLegal } from "../modules/fumbo_store.js";

const cfg = config();
const m = cfg.messages;
const f = cfg.fumbo;
const themeNames = cfg.theme_names || {};
const REPLY_DELAY_MS = 300;

// The outbox, fetched when a puzzle is first shown (to send an attempt kept offline) rather than with the
// page: a first visit's board does not wait for it. The service worker keeps it for offline use.
const outbox = onFirstUse(() => import("./outbox.js"));
const dropAttempt = (/** @type {string} */ id) => outbox().then((kept) => kept.dropAttempt(id));
const keptAttempt = (/** @type {string} */ id) => outbox().then((kept) => kept.keptAttempt(id));
const pick = ({ rated, rating, rating_change }) => ({ rated, rating, rating_change });
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const today = () => new Date().toLocaleDateString("en-CA"); // the player's date, YYYY-MM-DD

let progress = kept.get("progress"); // the server's last answer to /v1/players/me/puzzles

/** "solved" or "failed": the player's first finished attempt at ``id``, from the server or this browser. */
function outcomeOf(id) {
  const seen = progress && (progress.history || []).find((item) => item.id === id);
  if (seen) return seen.result;
  return (kept.get("done") || {})[id] || null;
}

function remember(id, result) {
  const done = kept.get("done") || {};
  if (!done[id]) done[id] = result;
  kept.set("done", done);
}

async function showProgress() {
  const known = storedPlayer();
  if (known) {
    try {
      progress = await call("GET", "/v1/players/me/puzzles?tz=" + encodeURIComponent(zone()), { token: known.token });
      kept.set("progress", progress);
    } catch {
      /* offline: the last answer kept here is shown */
    }
  }
  const box = document.getElementById("progress");
  if (!progress) return;
  box.textContent = [plural(m, "streak", progress.streak || 0), plural(m, "solved_count", progress.solved || 0),
    ratingText(m, f, progress)].join(" · ");
  box.hidden = false;
  const history = document.getElementById("history");
  const list = history.querySelector("ol");
  list.textContent = "";
  for (const item of progress.history || []) {
    const row = document.createElement("li");
    row.className = item.result === "solved" ? "ok" : "bad";
    row.dataset.id = item.id;
    const game = (m.game_titles || {})[item.game] || item.game;
    row.textContent = format(item.result === "solved" ? f.history_solved : f.history_failed, { game });
    list.append(row);
  }
  history.hidden = !(progress.history || []).length;
}

class PuzzleSection {
  /** @param {HTMLElement} section  one game's puzzle on the page */
  constructor(section) {
    this.section = section;
    this.game = section.dataset.game;
    /** @param {string} selector @returns {any} */
    const q = (selector) => section.querySelector(selector);
    this.status = q(".status");
    this.goal = q(".goal");
    this.meta = q(".meta");
    this.themes = q(".themes");
    this.form = q(".move-form");
    this.retryButton = q(".retry");
    this.solutionButton = q(".show-solution");
    this.backButton = q(".back");
    this.forwardButton = q(".forward");
    this.nextButton = q(".next");
    this.mineButton = q(".your-mistakes"); // "Your mistakes": needs the player's token
    this.mineButton.hidden = !storedPlayer();
    this.mineButton.addEventListener("click", () => this.next(true));
    this.filter = q(".theme-filter select");
    /** @type {any} the puzzle on the board, as the server gave it */
    this.puzzle = null;
    /** @type {Board} */
    this.board = null;
    /** @type {string[] | null} the solution, once the server has shown it */
    this.solution = null;
    /** @type {{fen: string, move: string | null, last: string[] | null}[] | null} the solution's positions */
    this.frames = null;
    this.frame = 0;
    this.fen = "";
    /** @type {string[]} every move on the board since the puzzle's start; ``mine``: the solver's alone */
    this.played = [];
    /** @type {string[]} */
    this.mine = [];
    this.busy = false;
    this.retryButton.addEventListener("click", () => this.retry());
    this.solutionButton.addEventListener("click", () => this.showSolution());
    this.backButton.addEventListener("click", () => this.step(-1));
    this.forwardButton.addEventListener("click", () => this.step(1));
    this.nextButton.addEventListener("click", () => this.next(false));
    this.filter.value = kept.get("theme." + this.game) || "";
    this.filter.addEventListener("change", () => {
      kept.set("theme." + this.game, this.filter.value);
      this.next(false);
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = this.form.querySelector("input");
      const text = input.value.trim();
      if (text) this.attempt(text);
      input.value = "";
    });
    window.addEventListener("online", () => this.sendKept());
  }

  show(text, kind) {
    this.status.textContent = text;
    this.status.className = "status" + (kind ? " " + kind : "");
  }

  async start() {
    this.show(m.loading);
    if (opensOnMistakes(this.game) && (await this.next(true), this.puzzle)) return; // else the day's puzzle
    const current = kept.get("current." + this.game);
    let puzzle = null;
    if (current && current.day === today()) puzzle = await this.fetchPuzzle(current.id);
    if (!puzzle) puzzle = await this.daily();
    if (!puzzle) return this.show(m.network_error, "bad");
    this.load(puzzle);
    this.sendKept();
  }

  async daily() {
    try {
      const puzzle = await call("GET", "/v1/puzzles/daily?game=" + encodeURIComponent(this.game));
      kept.set("daily." + this.game, puzzle);
      return puzzle;
    } catch {
      return kept.get("daily." + this.game); // offline: today's puzzle as kept on the last visit
    }
  }

  async fetchPuzzle(id) {
    try {
      return await call("GET", "/v1/puzzles/" + encodeURIComponent(id));
    } catch {
      const daily = kept.get("daily." + this.game);
      if (daily && daily.id === id) return daily;
      return (kept.get("pack." + this.game) || []).find((p) => p.id === id) || null;
    }
  }

  load(puzzle) {
    Object.assign(this, { puzzle, fen: puzzle.fen, played: [], mine: [], frames: null });
    this.solution = kept.get("solution." + puzzle.id);
    this.section.dataset.puzzle = puzzle.id;
    this.goal.textContent = goalText(f, puzzle);
    this.meta.textContent = puzzle.from_game ? mineText(f, puzzle) : puzzle.date
      ? format(m.puzzle_meta, { rating: puzzle.rating, date: puzzle.date })
      : format(f.puzzle_meta_next, { rating: puzzle.rating });
    this.themes.hidden = true;
    const options = { legal: null, orientation: puzzle.turn };
    if (this.board) this.board.setPosition(puzzle.fen, options);
    else {
      this.board = new Board(this.section.querySelector(".board-host"), {
        game: this.game, fen: puzzle.fen, squares: cfg.squares[this.game], orientation: puzzle.turn, legal: null,
        messages: m, onMove: (move) => this.attempt(moveText(this.game, move)),
      });
    }
    const outcome = outcomeOf(puzzle.id);
    if (outcome) this.finished(outcome, { before: true });
    else this.solving();
  }

  legalOf(answer) {
    return boardMoves(this.game, answer.legal_moves_uci || answer.legal_moves, answer.legal_moves);
  }

  solving() {
    this.board.setInteractive(true);
    this.form.hidden = false;
    for (const button of [this.retryButton, this.solutionButton, this.backButton, this.forwardButton, this.nextButton]) {
      button.hidden = true;
    }
    this.show(turnText(m, this.game, this.puzzle.turn) + " " + m.your_move);
    const { game, puzzle } = this;
    const known = keptLegal(game, puzzle.fen);
    if (known) {
      this.board.setLegal(boardMoves(game, known.moves, known.notations));
      return;
    }
    validate(game, puzzle.fen, [], "?")
      .then((answer) => {
        const legal = answer.legal_moves_uci || answer.legal_moves;
        if (Array.isArray(legal)) keepLegal(game, puzzle.fen, legal, answer.legal_moves);
        if (this.puzzle.id === puzzle.id && !this.played.length) this.board.setLegal(this.legalOf(answer));
      })
      .catch(() => {});
  }

  /** The end of a try: ``result`` "solved" or "failed"; ``before``: found finished when the page opened;
   * ``answer``: the server's answer to a first try, whose rating change the status line carries. */
  finished(result, { before = false, replay = false, answer = null } = {}) {
    this.board.setInteractive(false);
    this.form.hidden = true;
    this.themes.textContent = themeText(f, themeNames[this.game] || {}, this.puzzle.themes || []);
    this.themes.hidden = false;
    this.nextButton.hidden = false;
    const missed = outcomeOf(this.puzzle.id) === "failed";
    this.retryButton.hidden = !missed;
    this.solutionButton.hidden = !(missed && this.solution);
    this.backButton.hidden = this.forwardButton.hidden = true;
    if (before) this.show(result === "solved" ? f.puzzle_solved_before : f.puzzle_missed_before, result === "solved" ? "ok" : "bad");
    else if (result === "solved") this.show(replay ? f.replay_solved : f.puzzle_solved_next, "ok");
    else this.show(f.puzzle_missed, "bad");
    // Right under the board, in place of the puzzle's own rating: what this first try did, and the streak.
    const change = answer && answer.rated ? ratingChangeText(m, f, answer, progress, (n) => plural(m, "streak", n)) : "";
    if (change) this.meta.textContent = change;
  }

  async attempt(text) {
    if (this.busy || !this.puzzle) return false;
    this.busy = true;
    const puzzle = this.puzzle;
    let checkedMove = null; // set once the move is on the board: then the attempt alone is left to send
    try {
      const checked = await validate(this.game, puzzle.fen, this.played, text);
      if (!checked.legal) {
        await dropAttempt(puzzle.id).catch(() => {}); // a kept move the server refuses is not kept again
        this.show(refusalText(m, checked.error && checked.error.reason, { game: this.game, moves: checked.legal_moves || [] }), "bad");
        return false;
      }
      this.board.setPosition(checked.fen, { last: movedSquares(this.game, this.fen, checked.fen) });
      this.fen = checked.fen;
      checkedMove = checked.move;
      this.mine.push(checked.move);
      this.played.push(checked.move);
      const who = await player().catch(() => null);
      // The time zone dates the solve for the streak, in the player's own days.
      const answer = await call("POST", "/v1/puzzles/" + encodeURIComponent(puzzle.id) + "/attempt?tz="
        + encodeURIComponent(zone()), { body: { moves: this.mine }, token: who && who.token });
      const waiting = await keptAttempt(puzzle.id).catch(() => null);
      // Sent by the service worker before (from any page): its answer was the one that counted, not this replay.
      const counted = waiting && waiting.outcome && waiting.outcome.rated != null ? waiting.outcome : null;
      if (counted && this.mine.length >= waiting.moves.length) Object.assign(answer, pick(counted));
      if (waiting && this.mine.length >= waiting.moves.length) await dropAttempt(puzzle.id).catch(() => {}); // the server has judged it
      if (answer.result === "continue") {
        const reply = await validate(this.game, puzzle.fen, this.played, answer.reply);
        await new Promise((done) => setTimeout(done, REPLY_DELAY_MS)); // the player sees their move, then the reply
        const last = movedSquares(this.game, this.fen, reply.fen);
        this.played.push(reply.move);
        this.fen = reply.fen;
        this.board.setPosition(reply.fen, { last, slide: last, legal: this.legalOf(reply) });
        this.show(format(m.puzzle_continue, { move: reply.move }));
        return true;
      }
      const result = answer.result;
      if (answer.solution) {
        this.solution = answer.solution;
        kept.set("solution." + puzzle.id, answer.solution);
      }
      if (answer.rated) remember(puzzle.id, result);
      else if (!outcomeOf(puzzle.id)) remember(puzzle.id, result); // no token: this browser's own record
      this.finished(result, { replay: answer.rated === false, answer });
      await showProgress();
      this.finished(result, { replay: answer.rated === false, answer }); // the buttons, the streak now known
      this.refreshPack();
    } catch (error) {
      if (error instanceof ApiError) {
        await dropAttempt(puzzle.id).catch(() => {}); // refused (e.g. attempt_over): sending it again would change nothing
        this.show(m.network_error, "bad");
        return false;
      }
      // Offline: the moves are kept and the server checks them when the connection returns.
      const kept = await outbox().catch(() => null);
      await kept?.keepAttempt(puzzle.id, checkedMove ? [...this.mine] : [...this.mine, text]).catch(() => {});
      // Named as players write it (SAN for chess), not by the squares the board sent.
      const move = readableMove(this.game, this.board.legal, text);
      this.show(kept ? kept.offlineText("attemptQueued", { move }) : m.network_error, "bad");
      return false;
    } finally {
      this.busy = false;
    }
    return true;
  }

  /** An attempt kept offline, sent move by move as if played now: the server is the judge. */
  async sendKept() {
    if (!this.puzzle || this.busy) return;
    const waiting = await keptAttempt(this.puzzle.id).catch(() => null);
    if (!waiting) return;
    for (const move of waiting.moves.slice(this.mine.length)) {
      if (!(await this.attempt(move))) return;
    }
  }

  retry() {
    Object.assign(this, { fen: this.puzzle.fen, played: [], mine: [], frames: null });
    this.board.setPosition(this.puzzle.fen, { legal: null });
    this.themes.hidden = true;
    this.solving();
  }

  async showSolution() {
    if (!this.solution) return;
    if (!this.frames) {
      const frames = [{ fen: this.puzzle.fen, move: null, last: null }];
      try {
        for (let i = 0; i < this.solution.length; i++) {
          const answer = await validate(this.game, this.puzzle.fen, this.solution.slice(0, i), this.solution[i]);
          frames.push({ fen: answer.fen, move: answer.move, last: movedSquares(this.game, frames[i].fen, answer.fen) });
        }
      } catch {
        return this.show(m.network_error, "bad");
      }
      this.frames = frames;
    }
    this.board.setInteractive(false);
    this.form.hidden = true;
    this.backButton.hidden = this.forwardButton.hidden = false;
    this.solutionButton.hidden = true;
    this.frame = 0;
    this.step(1);
  }

  /** One move back or forward in the solution. */
  step(by) {
    const frames = this.frames;
    if (!frames) return;
    const previous = this.frame;
    this.frame = Math.max(0, Math.min(frames.length - 1, this.frame + by));
    const frame = frames[this.frame];
    const moving = this.frame > previous ? frame.last : null;
    this.board.setPosition(frame.fen, { last: frame.last, slide: moving, legal: null });
    this.board.setInteractive(false);
    this.show(this.frame === 0
      ? f.solution_start
      : format(f.solution_step, { step: this.frame, total: frames.length - 1, move: frame.move }));
    this.backButton.disabled = this.frame === 0;
    this.forwardButton.disabled = this.frame === frames.length - 1;
  }

  /** The next puzzle near the player's rating (with the chosen theme), or with ``mine`` the next of the
   * player's own (never offline); offline, the next one kept here. */
  async next(mine) {
    if (this.busy) return;
    this.busy = true;
    const theme = this.filter.value;
    let puzzle;
    try {
      const who = await player();
      puzzle = await call("GET", "/v1/puzzles/next" + nextQuery(this.game, theme, mine), { token: who.token });
    } catch (error) {
      if (error instanceof ApiError) {
        this.show(error.code === "no_puzzle_left" ? (mine ? f.mine_none : f.no_puzzle_left) : m.network_error, "bad");
        return;
      }
      puzzle = !mine && (kept.get("pack." + this.game) || []).find((p) => p.id !== this.puzzle?.id && !outcomeOf(p.id)
        && (!theme || (p.themes || []).includes(theme)));
      if (!puzzle) {
        this.show(m.network_error, "bad");
        return;
      }
    } finally {
      this.busy = false;
    }
    if (!mine) kept.set("current." + this.game, { id: puzzle.id, day: today() }); // one's own: not served by id
    this.load(puzzle);
    this.refreshPack();
  }

  /** Keep the next puzzles of this game for offline use (the player opened this game): asked
   * again only when fewer than half are left unplayed, the theme changed, or the pack is a day old. */
  async refreshPack() {
    const known = storedPlayer();
    if (!known || !navigator.onLine) return;
    const theme = this.filter.value;
    const pack = kept.get("pack." + this.game);
    const meta = kept.get("packed." + this.game) || {};
    const left = (pack || []).filter((p) => !outcomeOf(p.id) && p.id !== this.puzzle?.id).length;
    if (pack && meta.theme === theme && meta.day === today() && left >= PACK_SIZE / 2) return;
    const query = "?game=" + encodeURIComponent(this.game) + "&count=" + PACK_SIZE
      + (theme ? "&theme=" + encodeURIComponent(theme) : "");
    try {
      const answer = await call("GET", "/v1/puzzles/pack" + query, { token: known.token });
      kept.set("pack." + this.game, answer.puzzles);
      kept.set("packed." + this.game, { theme, day: today() });
    } catch {
      /* the pack kept before stays */
    }
  }
}

async function main() {
  setUpPuzzleTabs(document.querySelector(".puzzle-tabs"), document.querySelector(".puzzles"));
  await showProgress(); // first: the day's outcomes decide what each board shows
  const sections = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".puzzle"))].map((section) => new PuzzleSection(section));
  // The board in view first: on a slow link the other two games' puzzles must not share its bandwidth.
  const shown = location.hash.slice(1).replace(/^puzzle-/, "");
  const first = sections.find((section) => section.game === shown) || sections[0];
  await first.start();
  await Promise.all(sections.filter((section) => section !== first).map((section) => section.start()));
  document.body.dataset.fumbo = "ready";
}

main();
