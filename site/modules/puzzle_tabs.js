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
