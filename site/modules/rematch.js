// @ts-check
// The rematch of a finished game by consent, as the game page shows it: which controls each player sees
// (offer, accept, decline, withdraw, block) and the line that says where the offer stands. Pure: the page
// (game.js) shows and hides the buttons and sends the actions.

/**
 * The rematch controls to show, by their `data-action`, for the player on `seat` (null: a spectator).
 * @param {{state: string, rematch?: string | null, rematch_offer?: string | null, players?: any}} game
 * @param {string | null} seat
 * @returns {Record<string, boolean>}
 */
export function rematchControls(game, seat) {
  const over = game.state === "finished";
  const offer = game.rematch_offer || null;
  const mine = over && !!seat;
  return {
    rematch: mine && !offer && !game.rematch, // an offer (against the computer: the new game at once)
    "open-rematch": mine && !!game.rematch, // agreed: the new game, one tap away
    "accept-rematch": mine && !!offer && offer !== seat,
    "decline-rematch": mine && !!offer && offer !== seat,
    "withdraw-rematch": mine && offer === seat,
    block: mine && opponentIsPerson(game, seat),
  };
}

/**
 * What the status line adds about the rematch for the player on `seat`, or "".
 * @param {{state: string, rematch?: string | null, rematch_offer?: string | null, rematch_declined?: string | null}} game
 * @param {string | null} seat
 * @param {import("../types").Messages} m
 */
export function rematchNote(game, seat, m) {
  if (game.state !== "finished" || !seat) return "";
  if (game.rematch) return m.rematch_started;
  if (game.rematch_offer) return game.rematch_offer === seat ? m.rematch_offered_by_you : m.rematch_offered_to_you;
  return game.rematch_declined === seat ? m.rematch_declined : "";
}

/**
 * Whether the page keeps polling a finished game: while a rematch can still be offered or answered by a
 * person opposite (an offer, an acceptance or a refusal then shows without a reload).
 * @param {{state: string, rematch?: string | null, players?: any}} game
 * @param {string | null} seat
 */
export function awaitsRematch(game, seat) {
  return game.state === "finished" && !!seat && !game.rematch && opponentIsPerson(game, seat);
}

/** The body of `POST /v1/games/{id}/rematch` for a control, or null for a control that is not a rematch action.
 * @param {string} control
 */
export function rematchBody(control) {
  const actions = { rematch: "offer", "accept-rematch": "accept", "decline-rematch": "decline", "withdraw-rematch": "withdraw" };
  return control in actions ? { action: actions[/** @type {keyof typeof actions} */ (control)] } : null;
}

/**
 * @param {{players?: any}} game
 * @param {string | null} seat
 */
export function opponentIsPerson(game, seat) {
  const other = seat === "white" ? "black" : "white";
  const opponent = game.players && game.players[other];
  return !!opponent && !opponent.cpu_level && opponent.player_id !== "cpu";
}

/**
 * Block the opponent of game `gameId` (`POST /v1/players/me/blocks`); the line to show once done.
 * @param {string} gameId
 * @param {import("../types").Messages} m
 * @param {{call: Function, player: Function}} api the page's API calls (static/api.js)
 */
export async function blockOpponent(gameId, m, api) {
  const me = await api.player();
  await api.call("POST", "/v1/players/me/blocks", { body: { game: gameId }, token: me.token });
  return m.player_blocked;
}
