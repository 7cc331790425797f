// @ts-check
// A link to a game the server does not know (404): the game box says so, with a link to start a game, and
// its board, moves and actions are hidden (style.css hides all but the title line and this note).

/**
 * @param {HTMLElement} gameBox
 * @param {import("../types").Messages} m
 */
export function showMissingGame(gameBox, m) {
  gameBox.hidden = false;
  document.body.classList.add("game-open", "missing-game");
  /** @type {HTMLElement} */ (gameBox.querySelector(".game-title")).textContent = m.error_game_not_found;
  /** @type {HTMLElement} */ (gameBox.querySelector(".status")).textContent = "";
  if (gameBox.querySelector(".missing")) return;
  const note = document.createElement("p");
  note.className = "missing";
  const link = document.createElement("a");
  link.href = location.pathname;
  link.className = "button";
  link.textContent = m.start_a_game;
  note.append(link);
  gameBox.append(note);
}
