// @ts-check
// A status line of the game page (the game's, the create form's, the name form's): its text and its kind.

/**
 * @param {Element} node
 * @param {string} text
 * @param {string} [kind]  "ok", "bad" or "queued" (a style of style.css)
 */
export function say(node, text, kind) {
  node.textContent = text;
  node.classList.remove("ok", "bad", "queued"); // its own classes stay: the join box finds its text again after a refusal
  node.classList.add("status");
  if (kind) node.classList.add(kind);
}
