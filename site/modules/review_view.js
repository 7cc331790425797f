// @ts-check
// The game review on the game page: "Review this game" on a finished game (POST /v1/games/{id}/review), then,
// once the engine is done (GET, polled), each side's accuracy, an evaluation graph (inline SVG: one point a
// move, White better above the middle line), the moves with their marks (?!, ?, ??) and, for the move chosen
// (a tap on the graph or on a move), its position on the board and, for a marked move, the engine's best move
// marked on the board. Everything it shows comes from the review: the page replays nothing.
import { colourName, refusalOf } from "./game_text.js";
import { format } from "./i18n.js";
import { movedSquares } from "./notation.js";

const POLL_MS = 4000;
const WIDTH = 320;
const HEIGHT = 96;
/** Winning chances from an evaluation, as the server marks moves (review/domain.py: per game's steepness). */
const STEEPNESS = { chess: 0.00368208, english: 0.009, tanzanian: 0.009 };
const MARK_KEYS = { "?!": "review_mark_inaccuracy", "?": "review_mark_mistake", "??": "review_mark_blunder" };

/** White's chances (-1 to 1) of an evaluation ``{score}`` or ``{winner, win_in}``. */
export function chances(game, evaluation) {
  if (evaluation.winner) return evaluation.winner === "white" ? 1 : -1;
  const score = Math.max(-1000, Math.min(1000, evaluation.score || 0));
  return 2 / (1 + Math.exp(-(STEEPNESS[game] || 0.004) * score)) - 1;
}

/** "+1.50", "-0.30", or "#3" / "#-2" for a win found (the winner's moves; minus: Black wins). */
export function evalText(evaluation) {
  if (evaluation.winner) return "#" + (evaluation.winner === "black" ? "-" : "") + evaluation.win_in;
  const score = (evaluation.score || 0) / 100;
  return (score > 0 ? "+" : "") + score.toFixed(2);
}

/**
 * @param {HTMLElement} box  the page's ``.review`` section
 * @param {{messages: Record<string, any>, board: () => import("../static/board.js").Board, backToGame: () => void,
 *   api: {call: (method: string, path: string, options?: object) => Promise<any>, player: () => Promise<any>},
 *   seat?: string | null}} page  ``api``: api.js's (an answer's error has its ``code``); ``seat``: the viewer's
 */
export function setUpReview(box, page) {
  const m = page.messages;
  const mistakesUrl = box.dataset.mistakesUrl;
  /** The board shows a position of the review, with two squares marked; no move can be made on it. */
  const showPosition = (fen, last) => {
    page.board().setPosition(fen, { last, legal: null });
    page.board().setInteractive(false);
  };
  let game = null;
  let review = null;
  let timer = null;
  let chosen = 0;

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (className.startsWith("review-line")) node.setAttribute("aria-live", "polite"); // what a tap chose, said
    if (text !== undefined) node.textContent = text;
    return node;
  };

  async function fetchReview(method) {
    clearTimeout(timer);
    try {
      const me = method === "POST" ? await page.api.player() : null;
      review = await page.api.call(method, `/v1/games/${encodeURIComponent(game.id)}/review`, { token: me && me.token });
    } catch (error) {
      if (error.code === "review_not_found") return draw(null);
      return draw(null, error.code ? refusalOf(m, error.body && error.body.error) : m.network_error);
    }
    if (review.status === "pending") timer = setTimeout(() => fetchReview("GET"), POLL_MS);
    draw(review);
  }

  function draw(answer, problem = "") {
    box.textContent = "";
    box.hidden = false;
    if (!answer) {
      const ask = el("button", "button review-ask", m.review_ask);
      ask.type = "button";
      ask.hidden = !page.seat;
      ask.addEventListener("click", () => fetchReview("POST"));
      box.append(ask);
      if (problem) box.append(el("p", "review-line bad", problem));
      box.hidden = !page.seat && !problem;
      return;
    }
    box.append(el("h3", "", m.review_title));
    if (answer.status === "pending") return box.append(el("p", "review-line", m.review_pending));
    const accuracy = ["white", "black"].map((side) => format(m.review_accuracy, {
      colour: colourName(m, game.game, side), score: answer.accuracy[side].toFixed(1),
    }));
    box.append(el("p", "review-accuracy", accuracy.join(" · ")), graph(answer), moveList(answer), el("p", "review-line"));
    const actions = el("p", "actions");
    const best = el("button", "review-best", m.review_show_best);
    best.type = "button";
    best.hidden = true;
    best.addEventListener("click", () => showBest());
    const back = el("button", "review-back", m.review_back);
    back.type = "button";
    back.addEventListener("click", () => page.backToGame());
    actions.append(best, back);
    if (page.seat && mistakesUrl && (answer.puzzles || {})[page.seat]) {
      const link = el("a", "review-mistakes", m.review_mistakes);
      link.href = `${mistakesUrl}?mine=${encodeURIComponent(game.id)}#${game.game}`;
      actions.append(link);
    }
    box.append(actions);
  }

  /** The evaluation graph: a point per position (the start, then after each move), tappable. */
  function graph(answer) {
    const svgNS = "http://www.w3.org/2000/svg";
    const points = [answer.start.eval, ...answer.moves.map((move) => move.eval)].map((e) => chances(game.game, e));
    const step = WIDTH / Math.max(1, points.length - 1);
    const y = (value) => (HEIGHT / 2) * (1 - value);
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    svg.setAttribute("class", "review-graph");
    svg.setAttribute("role", "img");
    const [first, second] = ["white", "black"].map((side) => colourName(m, game.game, side));
    svg.setAttribute("aria-label", format(m.review_graph_label, { first, second }));
    const add = (tag, attributes) => {
      const node = document.createElementNS(svgNS, tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
      svg.append(node);
      return node;
    };
    const line = points.map((value, i) => `${(i * step).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
    add("polygon", { points: `0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`, class: "review-area" });
    add("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "review-middle" });
    add("polyline", { points: line, class: "review-curve" });
    add("line", { x1: 0, y1: 0, x2: 0, y2: HEIGHT, class: "review-cursor" });
    answer.moves.forEach((move, i) => {
      if (move.mark) add("circle", { cx: (i + 1) * step, cy: y(points[i + 1]), r: 3, class: "review-dot", "data-mark": move.mark });
    });
    points.forEach((_, ply) => {
      const band = add("rect", { x: Math.max(0, (ply - 0.5) * step), y: 0, width: step, height: HEIGHT, class: "review-band" });
      band.dataset.ply = String(ply);
    });
    svg.addEventListener("click", (event) => {
      const target = /** @type {Element} */ (event.target);
      if (target instanceof SVGRectElement && target.dataset.ply) choose(Number(target.dataset.ply));
    });
    return svg;
  }

  /** The moves, each with its mark: a tap shows its position. */
  function moveList(answer) {
    const list = el("ol", "review-moves");
    for (const move of answer.moves) {
      const item = el("li", "");
      const button = el("button", "review-move", move.move + (move.mark || ""));
      button.type = "button";
      button.dataset.ply = String(move.ply);
      if (move.mark) button.dataset.mark = move.mark;
      button.addEventListener("click", () => choose(move.ply));
      item.append(button);
      list.append(item);
    }
    return list;
  }

  /** Show the position after ``ply`` (0: the start) and what the review says of its move. */
  function choose(ply) {
    chosen = ply;
    const move = ply > 0 ? review.moves[ply - 1] : null;
    const before = ply > 1 ? review.moves[ply - 2].fen : review.start.fen;
    showPosition(move ? move.fen : review.start.fen, move ? movedSquares(game.game, before, move.fen) : null);
    const cursor = box.querySelector(".review-cursor");
    const x = String((WIDTH / Math.max(1, review.moves.length)) * ply);
    if (cursor) {
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll(".review-move"))) {
      button.toggleAttribute("aria-current", button.dataset.ply === String(ply));
    }
    // Numbered as the move list numbers them: "6" for the pair, "…" before the second move of it.
    const text = !move ? m.review_start : format(move.mark ? m.review_move_marked : m.review_move_plain, {
      ply: Math.ceil(ply / 2), move: (ply % 2 ? "" : "…") + move.move, eval: evalText(move.eval),
      mark: move.mark ? m[MARK_KEYS[move.mark]] : "", best: move.best,
    });
    const line = box.querySelector(".review-line");
    if (line) line.textContent = text;
    const best = /** @type {HTMLButtonElement | null} */ (box.querySelector(".review-best"));
    if (best) best.hidden = !(move && move.mark && move.best_squares);
  }

  /** The chosen marked move's position before it, with the engine's best move's squares marked. */
  function showBest() {
    const move = review.moves[chosen - 1];
    const before = chosen > 1 ? review.moves[chosen - 2].fen : review.start.fen;
    showPosition(before, move.best_squares);
    const line = box.querySelector(".review-line");
    if (line) line.textContent = format(m.review_best_shown, { best: move.best });
  }

  return {
    /** The game changed (or was first read): a finished game offers or shows its review. */
    update(current, seat) {
      const first = !game || game.id !== current.id;
      if (first) review = null;
      game = current;
      page.seat = seat;
      const over = current.status && current.status.result !== "ongoing";
      if (!over) {
        box.hidden = true;
        return;
      }
      if (!first && review) return;
      // The game's view says whether there is a review to read: none asked yet, the page offers to ask.
      if (current.review === "none") draw(null);
      else fetchReview("GET");
    },
  };
}
