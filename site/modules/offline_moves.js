// @ts-check
// Moves made on the game page without a network: kept in the outbox (outbox.js, fetched only once a game is
// open) with their ply, drawn on the board as waiting, and sent when the connection returns or the service
// worker has sent them meanwhile (Background Sync).
import { refusalOf } from "./game_text.js";
import { moveText } from "./notation.js";

/**
 * @param {{
 *   messages: Record<string, any>,
 *   game: () => any,
 *   board: () => any,
 *   say: (text: string, kind?: string) => void,
 *   load: (id: string) => Promise<unknown>,
 *   lock: { busy: boolean },
 *   outbox: () => Promise<any>,
 * }} page what the page shares: its messages, the game and board on screen, its status line, how it reloads
 *   a game, the flag that keeps one action at a time, and the outbox module (loaded by the page's own script)
 */
export function setUpOfflineMoves({ messages: m, game, board, say, load, lock, outbox }) {
  /** A move the network did not carry: kept with its ply and drawn on the board as waiting. */
  async function keepOffline(body) {
    const kept = await outbox().catch(() => null);
    if (!kept) return say(m.network_error, "bad");
    const state = game();
    await kept.queueMove(state.id, body).catch(() => {});
    const move = (board().legal || []).find((legal) => moveText(state.game, legal) === body.move);
    if (move) board().showQueued(move);
    say(kept.offlineText("moveQueued", { move: body.move }), "queued"); // nothing went wrong: it waits
  }

  /** The game's kept move: sent now, or what the server said when the worker sent it. A 409: they moved first. */
  async function sendQueued() {
    if (!game() || lock.busy) return;
    const id = game().id;
    const kept = await outbox().catch(() => null);
    if (!kept || lock.busy) return;
    const { deliverMove, dropMove, offlineText, queuedMove, withOutbox } = kept;
    lock.busy = true;
    try {
      await withOutbox(async () => {
        const queued = await queuedMove(id).catch(() => null);
        if (!queued) return;
        const outcome = queued.outcome || (await deliverMove(id, queued));
        if (!outcome) return; // still offline: kept for the next try
        await dropMove(id);
        await load(id).catch(() => {});
        if (outcome.kind === "sent") say(offlineText("moveSent", { move: queued.move }), "ok");
        else if (outcome.kind === "conflict") say(offlineText("opponentFirst", { move: queued.move }), "bad");
        else say(refusalOf(m, outcome, [], game().game), "bad"); // {code, reason}, as the page or the worker kept it
      });
    } finally {
      lock.busy = false;
    }
  }

  window.addEventListener("online", sendQueued);
  return { keepOffline, sendQueued };
}
