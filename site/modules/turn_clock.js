// @ts-check
// A live table's turn clock (the game's `options.turn_seconds`): the seconds left of the turn, counted down
// on the board from the server's `turn_ms_left`, and the pace at which the page reads the game. The server
// keeps the real clock: this only shows it, timed from when the answer arrived, so a phone whose clock is
// wrong still shows the right count.

/** How often a live table's page reads the game: the opponent's move shows within about a second. */
export const LIVE_POLL_MS = 1000;

/**
 * Whether the game is at a live table (a turn of 30 or 60 seconds).
 * @param {{options?: Record<string, unknown>} | null | undefined} game
 * @returns {boolean}
 */
export function isLive(game) {
  return !!(game && game.options && game.options.turn_seconds);
}

/**
 * Whole seconds left of the turn ``elapsedMs`` after an answer that said ``msLeft`` (rounded up, never below 0).
 * @param {number | null | undefined} msLeft
 * @param {number} elapsedMs
 * @returns {number | null}
 */
export function secondsLeft(msLeft, elapsedMs) {
  if (msLeft === null || msLeft === undefined || !Number.isFinite(msLeft)) return null;
  return Math.max(0, Math.ceil((msLeft - Math.max(0, elapsedMs)) / 1000));
}

/** The countdown shown on the board: one text node, redrawn four times a second while a live turn runs. */
export class TurnClock {
  /**
   * @param {HTMLElement} node  where the count is written (hidden when there is no live turn)
   * @param {(seconds: number, mine: boolean) => string} text  the count in the page's language
   */
  constructor(node, text) {
    this.node = node;
    this.text = text;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
  }

  /**
   * Count down the turn of ``game`` (as just received) for the player on ``seat``; stop when there is none.
   * @param {{options?: Record<string, unknown>, turn_ms_left?: number | null, turn?: string}} game
   * @param {string | null} seat
   */
  show(game, seat) {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const received = performance.now();
    const msLeft = game.turn_ms_left;
    const running = isLive(game) && msLeft !== null && msLeft !== undefined;
    this.node.hidden = !running;
    if (!running) return;
    const mine = game.turn === seat;
    const draw = () => {
      const seconds = secondsLeft(msLeft, performance.now() - received) ?? 0;
      this.node.textContent = this.text(seconds, mine);
      this.node.classList.toggle("low", seconds <= 10);
    };
    draw();
    this.timer = setInterval(draw, 250);
  }
}
