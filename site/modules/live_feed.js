// @ts-check
// A live table's game, or a tournament, from the live socket (docs/games.md, "Live over a WebSocket"): the page
// asks for a single-use ticket, connects to the site's /live, follows the game with its last ply (or the
// tournament), and gets each new event as the game's state (the body GET /v1/games/{id}?moves_after= answers;
// for a tournament, GET /v1/tournaments/{id}'s). When the socket cannot open, closes, or says nothing after it
// opened, the page keeps polling as before and nothing tells the player: the socket only makes the other
// side's move arrive sooner and the polls rarer.

/** How long a subscription may go unanswered before the page stops counting on the socket. */
export const SUBSCRIBE_TIMEOUT_MS = 5000;
/** Waits before reconnecting after a drop: a flaky phone link gets a few quick tries, then one a minute. */
export const RECONNECT_MS = [1000, 2000, 5000, 15000, 60000];

/**
 * The event number of one of our ETags ("<layout>.<seq>"), or -1.
 * @param {string | null | undefined} etag
 * @returns {number}
 */
export function etagSeq(etag) {
  const found = /\.(\d+)"?$/.exec(etag || "");
  return found ? Number(found[1]) : -1;
}

/**
 * What the page does with a message of the socket, given the game it shows and that game's ETag:
 * "apply" (a newer state whose moves join the ones it holds), "poll" (newer, but moves are missing between:
 * read the game over HTTP), or "ignore" (another game, an error, or not newer than what it shows).
 * @param {any} message
 * @param {{id: string, moves?: unknown[]} | null} game
 * @param {string | null} etag
 * @returns {"apply" | "poll" | "ignore"}
 */
export function messageAction(message, game, etag) {
  if (!game || !message || (message.type !== "game" && message.type !== "subscribed")) return "ignore";
  if (message.game !== game.id || !message.state || typeof message.seq !== "number") return "ignore";
  if (message.seq <= etagSeq(etag)) return "ignore";
  const from = message.state.moves_from;
  if (typeof from !== "number" || from > (game.moves || []).length) return "poll";
  return "apply";
}

/**
 * The tournament's view a message carries, when it is the tournament ``id``'s; else null.
 * @param {any} message
 * @param {string | null} id
 * @returns {any}
 */
export function tournamentState(message, id) {
  if (!message || !id || (message.type !== "tournament" && message.type !== "subscribed")) return null;
  if (message.tournament !== id || !message.state || !message.state.tournament) return null;
  return message.state;
}

/**
 * The wait before reconnect attempt number ``attempt`` (0 the first).
 * @param {number} attempt
 */
export function reconnectDelay(attempt) {
  return RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)];
}

/**
 * The socket of one page, following at most one game (or one tournament) at a time.
 */
export class LiveFeed {
  /**
   * @param {{
   *   ticket: () => Promise<{url: string}>,
   *   onMessage: (message: any) => void,
   *   onChange: (live: boolean) => void,
   *   origin: string,
   *   socket?: (url: string) => WebSocket,
   * }} parts  ``ticket`` asks POST /v1/live/tickets; ``onChange`` says whether the socket now carries the game
   */
  constructor(parts) {
    this.parts = parts;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {{game: string, ply: number} | {tournament: string} | null} what the subscription asks */
    this.want = null;
    this.live = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | null} the next reconnection */
    this.timer = null;
    /** @type {ReturnType<typeof setTimeout> | null} the subscription's answer awaited */
    this.answer = null;
    this.opening = false;
  }

  /** Follow ``game`` from ``ply`` (opening the socket when it is not open). @param {string} game @param {number} ply */
  follow(game, ply) {
    this.wish({ game, ply }, Boolean(this.want && "game" in this.want && this.want.game === game));
  }

  /** Follow the tournament ``id`` (opening the socket when it is not open). @param {string} id */
  followTournament(id) {
    this.wish({ tournament: id }, Boolean(this.want && "tournament" in this.want && this.want.tournament === id));
  }

  /**
   * @param {{game: string, ply: number} | {tournament: string}} want
   * @param {boolean} same  the same game or tournament as now: nothing to ask while the socket is there
   */
  wish(want, same) {
    this.want = want;
    if (same && this.ws) return;
    if (this.ws && this.ws.readyState === 1) this.subscribe();
    else if (!this.ws && !this.timer && !this.opening) this.open();
  }

  /** Follow nothing and close the socket. */
  stop() {
    this.want = null;
    for (const timer of [this.timer, this.answer]) if (timer) clearTimeout(timer);
    this.timer = this.answer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.setLive(false);
  }

  /** @param {boolean} live */
  setLive(live) {
    if (live === this.live) return;
    this.live = live;
    this.parts.onChange(live);
  }

  async open() {
    if (!this.want) return;
    let url;
    this.opening = true;
    try {
      url = (await this.parts.ticket()).url;
    } catch {
      return this.retry();
    } finally {
      this.opening = false;
    }
    if (!this.want || this.ws) return;
    const address = this.parts.origin.replace(/^http/, "ws") + url;
    let ws;
    try {
      ws = this.parts.socket ? this.parts.socket(address) : new WebSocket(address);
    } catch {
      return this.retry();
    }
    this.ws = ws;
    ws.onopen = () => this.subscribe();
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.setLive(false);
      this.retry();
    };
  }

  subscribe() {
    if (!this.ws || !this.want) return;
    this.ws.send(JSON.stringify({ action: "subscribe", ...this.want }));
    if (this.answer) clearTimeout(this.answer);
    // No answer in time: the socket is not to be counted on (polls carry the game); it may still answer later.
    this.answer = setTimeout(() => ((this.answer = null), this.setLive(false)), SUBSCRIBE_TIMEOUT_MS);
  }

  /** @param {unknown} data */
  receive(data) {
    let message;
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (message && message.type === "subscribed") {
      if (this.answer) clearTimeout(this.answer);
      this.answer = null;
      this.attempt = 0;
      this.setLive(true);
    }
    if (message && message.type === "error") this.setLive(false);
    this.parts.onMessage(message);
  }

  retry() {
    if (!this.want || this.timer) return;
    const wait = reconnectDelay(this.attempt++);
    this.timer = setTimeout(() => ((this.timer = null), this.open()), wait);
  }
}
