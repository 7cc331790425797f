// @ts-check
// The lobby's choices that need no page: which open challenge "Play anyone" accepts, how a seeker's rating
// reads, and the options of the create form (the lobby's challenge takes the same ones as a new game).

/**
 * @typedef {{id: string, rated: boolean, mine: boolean, rating_range: [number, number] | null,
 *   seeker: {name: string | null, rating: number, provisional: boolean}, created: number}} Seek
 */

/**
 * The open challenges "Play anyone" may accept, best first: not the player's own, of the rated kind asked
 * for, whose range admits ``rating``; the closest seeker's rating first, then the oldest challenge.
 * @param {Seek[]} seeks
 * @param {number} rating  the player's rating in the game
 * @param {boolean} rated
 * @returns {Seek[]}
 */
export function bestMatches(seeks, rating, rated) {
  const fits = seeks.filter(
    (seek) =>
      !seek.mine &&
      seek.rated === rated &&
      (!seek.rating_range || (seek.rating_range[0] <= rating && rating <= seek.rating_range[1])),
  );
  const distance = (/** @type {Seek} */ seek) => Math.abs(seek.seeker.rating - rating);
  return fits.sort((a, b) => distance(a) - distance(b) || a.created - b.created);
}

/**
 * Every open challenge "Play anyone" may take, best first: the chosen game's, of the kind asked for and then
 * of the other kind, then the other games' the same way (each in ``bestMatches``' order), each with its game.
 * @param {Record<string, Seek[]>} seeksByGame
 * @param {string} chosen  the game chosen in the form
 * @param {(game: string) => number} ratingOf  the player's rating in a game
 * @param {boolean} rated  the kind the form's switch asks for
 * @returns {(Seek & {game: string})[]}
 */
export function takeOrder(seeksByGame, chosen, ratingOf, rated) {
  const games = [chosen, ...Object.keys(seeksByGame).filter((game) => game !== chosen)];
  return games.flatMap((game) =>
    [rated, !rated].flatMap((kind) => bestMatches(seeksByGame[game] || [], ratingOf(game), kind).map((seek) => ({ ...seek, game }))),
  );
}

/**
 * A rating as players read it: "1500?" while it is provisional.
 * @param {{rating: number, provisional: boolean}} rating
 */
export function ratingText(rating) {
  return `${Math.round(rating.rating)}${rating.provisional ? "?" : ""}`;
}

/**
 * The player's rating in ``game`` from GET /v1/players/me (``ratings``), else the start rating.
 * @param {any} me
 * @param {string} game
 * @returns {number}
 */
export function ratingIn(me, game) {
  const entry = me && me.ratings && me.ratings[game];
  return entry && typeof entry.rating === "number" ? Math.round(entry.rating) : 1500;
}

/**
 * The options of a new game as the create form holds them: the days per move, the swap, and the chosen
 * game's table options (its fieldset: a checkbox is true or false, an empty number is left out).
 * @param {FormData} data
 * @param {{querySelectorAll: (selector: string) => Iterable<any>} | null} fieldset
 * @returns {Record<string, number | boolean>}
 */
export function formOptions(data, fieldset) {
  /** @type {Record<string, number | boolean>} */
  const options = { days_per_move: Number(data.get("days_per_move")), swap_colors: data.get("swap_colors") === "on" };
  if (Number(data.get("turn_seconds"))) options.turn_seconds = Number(data.get("turn_seconds")); // a live table
  if (data.get("private") === "on") options.private = true; // a friend's game: in no one else's list
  for (const input of fieldset ? fieldset.querySelectorAll("input") : []) {
    if (input.type === "checkbox") options[input.name] = input.checked;
    else if (input.value !== "") options[input.name] = Number(input.value);
  }
  return options;
}
