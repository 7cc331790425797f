// @ts-check
// The player's display name on the game page: shown to the opponent, on the invitation and in the
// downloaded game. The game page saves it before creating or joining a game too, since a seat keeps the
// name its player had then; its own form saves it alone.

const NAME_KEY = "ubao.name";

/**
 * Save the name typed in ``form`` when it is new: ``save`` sends it (PATCH /v1/players/me), then this
 * browser remembers it.
 * @param {HTMLFormElement} form
 * @param {(name: string) => Promise<void>} save
 */
export async function saveName(form, save) {
  const name = form.querySelector("input").value.trim();
  if (!name || name === localStorage.getItem(NAME_KEY)) return;
  await save(name);
  localStorage.setItem(NAME_KEY, name);
}

/**
 * The form shows the name saved before, and saves a new one; ``done`` hears whether it was saved.
 * @param {HTMLFormElement} form
 * @param {(name: string) => Promise<void>} save
 * @param {(saved: boolean, error?: unknown) => void} done
 */
export function setUpNameForm(form, save, done) {
  form.querySelector("input").value = localStorage.getItem(NAME_KEY) || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await saveName(form, save);
    } catch (error) {
      done(false, error);
      return;
    }
    done(true);
  });
}
