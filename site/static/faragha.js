// @ts-check
// The privacy page's "Download my data" (GET /v1/players/me/export with this browser's token, saved as a file)
// and "Delete my data" (DELETE /v1/players/me, once the player confirms; then this browser forgets the player).
import { ApiError, call, forgetPlayer, storedPlayer } from "./api.js";

/** Sends of one delete at most: each rewrites what fits in the function's time (about 70 games on AWS). */
const MAX_SENDS = 100;

const section = /** @type {HTMLElement} */ (document.getElementById("your-data"));
const button = /** @type {HTMLButtonElement} */ (document.getElementById("download-data"));
const status = /** @type {HTMLElement} */ (section.querySelector(".status"));

/** This browser's player token, or null after saying that this browser has no player (nothing to download or delete). */
function playerToken() {
  const token = storedPlayer()?.token;
  if (!token) status.textContent = section.dataset.none || "";
  return token || null;
}

button.addEventListener("click", async () => {
  const token = playerToken();
  if (!token) return;
  button.disabled = true;
  try {
    const data = await call("GET", "/v1/players/me/export", { token });
    delete data._etag;
    const file = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = "ubao-my-data.json";
    link.click();
    URL.revokeObjectURL(link.href);
    status.textContent = "";
  } catch {
    status.textContent = section.dataset.failed || "";
  } finally {
    button.disabled = false;
  }
});

const remove = /** @type {HTMLButtonElement} */ (document.getElementById("delete-data"));
remove.addEventListener("click", async () => {
  const token = playerToken();
  if (!token || !confirm(remove.dataset.confirm || "")) return;
  remove.disabled = true;
  try {
    await deleteAll(token);
    forgetPlayer(); // the token no longer works: a new player starts when one is needed
    // The answer's Clear-Site-Data empties the browser's HTTP cache; the service worker's copies of API answers
    // (kept for reading offline) are dropped too, so this device shows nothing of the deleted player again.
    navigator.serviceWorker?.controller?.postMessage({ type: "forget-answers" });
    status.textContent = remove.dataset.deleted || "";
  } catch {
    status.textContent = remove.dataset.deleteFailed || "";
    remove.disabled = false;
  }
});

/**
 * DELETE /v1/players/me until it is done. A player of many games needs several sends: each answers 503 when the
 * function's time runs out, and the next goes on from there (the token works until the very end).
 * @param {string} token
 */
async function deleteAll(token) {
  for (let send = 1; ; send++) {
    try {
      return await call("DELETE", "/v1/players/me", { token });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || send >= MAX_SENDS) throw error;
      status.textContent = remove.dataset.deleting || "";
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the answer's Retry-After
    }
  }
}
