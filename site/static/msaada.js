// @ts-check
// The help page's feedback form: POST /v1/feedback with the category, the text and the page's language; the
// thank-you (or why it failed) in the page's language, from the section's data- attributes.
import { ApiError, call, storedPlayer } from "./api.js";

const section = /** @type {HTMLElement} */ (document.getElementById("feedback"));
const form = /** @type {HTMLFormElement} */ (document.getElementById("feedback-form"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const category = /** @type {HTMLSelectElement} */ (form.elements.namedItem("category")).value;
  const textarea = /** @type {HTMLTextAreaElement} */ (form.elements.namedItem("text"));
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
  button.disabled = true;
  try {
    const body = { category, text: textarea.value, lang: document.documentElement.lang };
    await call("POST", "/v1/feedback", { body, token: storedPlayer()?.token });
    textarea.value = "";
    status.textContent = section.dataset.thanks || "";
  } catch (error) {
    const limited = error instanceof ApiError && error.status === 429;
    status.textContent = (limited ? section.dataset.limited : section.dataset.failed) || "";
  } finally {
    button.disabled = false;
  }
});
