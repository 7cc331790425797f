// @ts-check
// The create form's choices kept on this phone (localStorage "ubao.choices"): the game chosen last, the
// opponent, colour, time, rated and "swap who starts", and each game's own table options, so the next game
// (after a reload, a finished game or a new visit) starts from them. Nothing of it goes to the server.

const KEY = "ubao.choices";

/** Where a field's value is kept: a game's table option under its game (two games can share a name). */
function keyOf(field) {
  const fieldset = field.closest("fieldset[data-game]");
  return fieldset ? `${fieldset.dataset.game}.${field.name}` : field.name;
}

function read() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** The game this phone last chose in the create form (the rating list opens on it), or null. */
export function lastGameChosen() {
  const game = read().game;
  return typeof game === "string" ? game : null;
}

/**
 * Put the kept choices into ``form``, then keep every later change.
 * @param {HTMLFormElement} form
 */
export function rememberChoices(form) {
  const fields = () => /** @type {(HTMLInputElement | HTMLSelectElement)[]} */ ([...form.querySelectorAll("input[name], select[name]")]);
  const kept = read();
  for (const field of fields()) {
    const value = kept[keyOf(field)];
    if (value === undefined) continue;
    if (field instanceof HTMLInputElement && field.type === "checkbox") field.checked = value === true;
    else if (field instanceof HTMLSelectElement && ![...field.options].some((option) => option.value === value)) continue;
    else field.value = String(value);
  }
  form.addEventListener("change", () => {
    const now = {};
    for (const field of fields()) {
      now[keyOf(field)] = field instanceof HTMLInputElement && field.type === "checkbox" ? field.checked : field.value;
    }
    try {
      localStorage.setItem(KEY, JSON.stringify(now));
    } catch {
      /* storage full or private mode: the form keeps its defaults */
    }
  });
}
