// @ts-check
// The page's config: the JSON the builder writes into <script id="ubao-config"> (the page's language, its
// messages, boards' square maps, exercises ...). Reading it also remembers the page's language, so that
// the /game/ link of an invitation opens in it (go.js).

/**
 * @returns {Record<string, any>}
 */
export function config() {
  const node = document.getElementById("ubao-config");
  const cfg = node ? JSON.parse(node.textContent) : {};
  try {
    if (cfg.lang) localStorage.setItem("ubao.lang", cfg.lang); // the /game/ link opens in this language
  } catch {
    /* private mode: nothing to remember */
  }
  return cfg;
}
