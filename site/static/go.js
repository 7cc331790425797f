// /game/?id=...#invite=...: the games API's invite links. Open the game page in the language this browser
// last used on ubao; otherwise let the reader choose, keeping the game and the invite in the link.
const rest = location.search + location.hash;
let lang = null;
try {
  lang = localStorage.getItem("ubao.lang");
} catch {
  lang = null;
}
if (["sw", "tl", "en"].includes(lang)) {
  location.replace(`/${lang}/mchezo/${rest}`);
} else {
  for (const link of document.querySelectorAll("a.open-game")) link.href = `/${link.dataset.lang}/mchezo/${rest}`;
}
