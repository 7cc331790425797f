// @ts-check
// Fumbo shows one puzzle at a time with its board near the top of a phone's screen: the three games'
// puzzles sit side by side in a row that scrolls sideways (style.css), and the links above it move the row
// to a game's puzzle and mark the one in view. A swipe moves it too; the links follow.

/**
 * @param {HTMLElement | null} nav  the ``.puzzle-tabs`` links, one per game (``data-game``)
 * @param {HTMLElement | null} row  the ``.puzzles`` row of ``.puzzle`` sections
 */
export function setUpPuzzleTabs(nav, row) {
  if (!nav || !row) return;
  const links = /** @type {HTMLAnchorElement[]} */ ([...nav.querySelectorAll("a[data-game]")]);
  const sections = /** @type {HTMLElement[]} */ ([...row.querySelectorAll(".puzzle")]);
  const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  const mark = () => {
    const index = Math.round(row.scrollLeft / Math.max(1, row.clientWidth));
    links.forEach((link, i) => (i === index ? link.setAttribute("aria-current", "true") : link.removeAttribute("aria-current")));
  };
  /** @param {string} game @param {boolean} animate */
  const show = (game, animate) => {
    const section = sections.find((s) => s.dataset.game === game);
    if (!section) return;
    row.scrollTo({ left: section.offsetLeft - row.offsetLeft, behavior: animate && smooth ? "smooth" : "auto" });
    mark();
  };
  nav.addEventListener("click", (event) => {
    const link = /** @type {HTMLElement} */ (event.target).closest("a[data-game]");
    if (!(link instanceof HTMLAnchorElement)) return;
    event.preventDefault(); // the row moves sideways; the page stays where it is
    show(link.dataset.game || "", true);
    history.replaceState(null, "", "#" + link.dataset.game);
  });
  let pending = false;
  row.addEventListener("scroll", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      mark();
    });
  });
  const fromHash = location.hash.slice(1).replace(/^puzzle-/, "");
  show(links.some((link) => link.dataset.game === fromHash) ? fromHash : links[0].dataset.game || "", false);
}

/**
 * The query of ``GET /v1/puzzles/next`` for a game: near the player's rating (with ``theme``), or with
 * ``mine`` the player's own puzzles, made by game reviews from their mistakes ("Your mistakes"), of one game
 * when the page was opened from its review (``?mine=<game id>``).
 * @param {string} game @param {string} theme @param {boolean} mine
 */
export function nextQuery(game, theme, mine) {
  const from = new URLSearchParams(location.search).get("mine");
  if (mine) return "?source=mine&game=" + encodeURIComponent(game) + (from ? "&game_id=" + encodeURIComponent(from) : "");
  return "?game=" + encodeURIComponent(game) + (theme ? "&theme=" + encodeURIComponent(theme) : "");
}

/** Whether the page was opened on this game's own mistakes (a review's link: ``?mine=<game id>#<game>``). */
export function opensOnMistakes(game) {
  return new URLSearchParams(location.search).has("mine") && location.hash.slice(1) === game;
}
