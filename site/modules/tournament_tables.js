// @ts-check
// A tournament's tables on the Mashindano page (site/static/mashindano.js): a league's crosstable, and a cup's
// groups (each a small crosstable) then its knockout bracket, drawn from GET /v1/tournaments/{id}'s view with
// plain DOM. The bracket's rounds are columns on a wide screen and stacked on a phone (pages.css, `.bracket`).

/**
 * The title key of a knockout round (the page's data- texts): the last round is the final.
 * @param {number} round  0 for the first round
 * @param {number} rounds  how many rounds the bracket has
 */
export function roundKey(round, rounds) {
  return ["final", "semi", "quarter", "last16"][rounds - 1 - round] || "last16";
}

/**
 * The bracket's rows grouped by round, in round order (each round's matches in the order the view gives them).
 * @template {{round: number}} T
 * @param {T[]} bracket
 * @returns {T[][]}
 */
export function byRound(bracket) {
  /** @type {T[][]} */
  const rounds = [];
  for (const row of bracket) {
    if (!rounds[row.round]) rounds[row.round] = [];
    rounds[row.round].push(row);
  }
  return rounds.filter(Boolean);
}

/** A's letter, B's ... of group `index`. @param {number} index */
export const groupLetter = (index) => String.fromCharCode(65 + index);

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** A date as the page's language writes it (5 Jan). @param {string} iso */
function day(iso) {
  return new Date(iso).toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" });
}

/** @param {string} tag @param {string} text @param {string} [className] */
function cell(tag, text, className) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

/**
 * A crosstable: one row per player by rank, the match score against each opponent, then points and
 * Sonneborn-Berger.
 * @param {HTMLTableElement} table
 * @param {any} view  the tournament's view
 * @param {any[]} standings  the rows of this table (a league's standings, or one group's)
 * @param {Record<string, string>} texts
 * @param {(seat: number) => string} nameOf
 */
export function crosstable(table, view, standings, texts, nameOf) {
  const order = standings.length ? standings.map((s) => s.seat) : view.players.map((p) => p.seat);
  const head = document.createElement("tr");
  head.append(cell("th", "#"), cell("th", texts.player));
  for (let i = 0; i < order.length; i++) head.append(cell("th", String(i + 1)));
  head.append(cell("th", texts.points), cell("th", texts.sb));
  /** @type {Record<string, string>} */
  const scores = {};
  for (const match of view.matches) {
    const [a, b] = match.seats;
    scores[`${a}-${b}`] = match.score;
    scores[`${b}-${a}`] = match.score.split("-").reverse().join("-");
  }
  const rows = order.map((seat, index) => {
    const tr = document.createElement("tr");
    const standing = standings.find((s) => s.seat === seat);
    const me = view.players.find((p) => p.seat === seat);
    if (me && me.you) tr.className = "you";
    tr.dataset.seat = String(seat);
    tr.append(cell("td", String(standing ? standing.rank : index + 1)), cell("th", nameOf(seat)));
    for (const other of order) tr.append(cell("td", other === seat ? "×" : scores[`${seat}-${other}`] || ""));
    tr.append(cell("td", standing ? String(standing.points) : ""), cell("td", standing ? String(standing.sonneborn_berger) : ""));
    return tr;
  });
  table.tHead?.replaceChildren(head);
  table.tBodies[0].replaceChildren(...rows);
}

/**
 * One knockout match: both names (the winner marked), the two games' score ("2-0", "1½-½"), the decider.
 * @param {any} row  a bracket row of the view
 * @param {Record<string, string>} texts
 * @param {(seat: number) => string} nameOf
 * @param {Set<number>} yours  the reader's seat, if they play
 */
function matchItem(row, texts, nameOf, yours) {
  const li = document.createElement("li");
  li.className = "match";
  li.dataset.round = String(row.round);
  for (const seat of row.seats) {
    const known = seat !== null && seat !== undefined;
    const name = cell("span", known ? nameOf(seat) : texts.unknown, "seat");
    if (known && yours.has(seat)) name.classList.add("you");
    if (known && row.winner === seat) {
      name.classList.add("won");
      name.append(cell("span", " ✓", "mark"), cell("span", ` (${texts.won})`, "vh"));
    }
    li.append(name);
  }
  li.append(cell("span", row.score, "score"));
  if (row.decider) li.append(cell("span", fill(texts.decider, { score: row.decider }), "decider"));
  if (row.by_group_record) li.append(cell("span", texts.byRecord, "decider"));
  return li;
}

/**
 * A cup: each group's table (titled Group A, B ...), then the bracket round by round.
 * @param {HTMLElement} host  the page's `.cup` block
 * @param {any} view
 * @param {Record<string, string>} texts
 * @param {(seat: number) => string} nameOf
 */
export function cupTables(host, view, texts, nameOf) {
  const groups = /** @type {HTMLElement} */ (host.querySelector(".cup-groups"));
  groups.replaceChildren(
    ...view.groups.map((/** @type {any[]} */ standings, /** @type {number} */ index) => {
      const block = document.createElement("section");
      block.className = "cup-group";
      const table = document.createElement("table");
      table.className = "crosstable";
      table.append(document.createElement("thead"), document.createElement("tbody"));
      crosstable(table, view, standings, texts, nameOf);
      const scroll = document.createElement("div");
      scroll.className = "scroll";
      scroll.append(table);
      block.append(cell("h3", fill(texts.group, { letter: groupLetter(index) })), scroll);
      return block;
    }),
  );
  const yours = new Set(view.players.filter((p) => p.you).map((p) => p.seat));
  const rounds = byRound(/** @type {any[]} */ (view.bracket));
  const bracket = /** @type {HTMLElement} */ (host.querySelector(".bracket"));
  bracket.replaceChildren(
    ...rounds.map((matches, round) => {
      const column = document.createElement("section");
      column.className = "bracket-round";
      const list = document.createElement("ol");
      list.append(...matches.map((row) => matchItem(row, texts, nameOf, yours)));
      column.append(cell("h4", texts[roundKey(round, rounds.length)]));
      const deadline = matches[0].deadline; // a leg still going on then is lost by the side to move
      if (deadline) column.append(cell("p", fill(texts.deadline, { date: day(deadline) }), "round-deadline"));
      column.append(list);
      return column;
    }),
  );
  host.hidden = false;
}

/**
 * The opponent's seat in the reader's game `gameId`: a group game's other side, or the other seat of the
 * knockout match the game belongs to; null when the game is not in the view.
 * @param {any} view
 * @param {string} gameId
 * @param {number} mine
 */
export function opponentIn(view, gameId, mine) {
  const game = view.games.find((g) => g.id === gameId);
  if (game) return game.white === mine ? game.black : game.white;
  const match = (view.bracket || []).find((row) => row.games.includes(gameId));
  if (!match) return null;
  return match.seats[0] === mine ? match.seats[1] : match.seats[0];
}
