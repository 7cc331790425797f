// @ts-check
// /game/?id=...#invite=...: the games API's invite links. Open the game page in the language this browser
// last used on ubao; otherwise let the reader choose, keeping the game and the invite in the link.
const rest = location.search + location.hash;
let lang = null;
try {
  lang = localStorage.getItem("ubao.lang");
} catch {
  lang = null;
}
// Never here before: a browser set to Tagalog (fil, tl) or Swahili says which. English says little (it is the
// phone's default for many who read Swahili or Tagalog), so such a browser still chooses.
const SAID = { fil: "tl", tl: "tl", sw: "sw" };
if (!lang) lang = (navigator.languages || [navigator.language]).map((tag) => SAID[String(tag).toLowerCase().split("-")[0]]).find(Boolean) || null;
/** @type {NodeListOf<HTMLAnchorElement>} one link per language of the site, as the builder writes them */
const links = document.querySelectorAll("a.open-game");
if ([...links].some((link) => link.dataset.lang === lang)) {
  location.replace(`/${lang}/mchezo/${rest}`);
} else {
  for (const link of links) link.href = `/${link.dataset.lang}/mchezo/${rest}`;
}
