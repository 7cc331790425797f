// @ts-check
// Offline first on every page: registers the service worker (site/offline/sw.js, served as /sw.js),
// shows the offline indicator on the pages that use the API, and saves the rules and lessons of this language
// for offline reading when the player asks ("Save all lessons for offline").

function afterLoad(work) {
  if (document.readyState === "complete") work();
  else addEventListener("load", work, { once: true });
}

if ("serviceWorker" in navigator) {
  // After the load event: the worker's precache must not share a slow link with the page's first visit.
  afterLoad(() => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined)); // the site works without it
}

// The push switches (Fumbo, Mchezo; push.js) are not needed to show the page: their script comes after it.
if (document.querySelector(".push-switch")) afterLoad(() => import("./push.js").catch(() => undefined));

const note = document.getElementById("offline-note");
if (note) {
  const show = () => {
    note.hidden = navigator.onLine;
  };
  addEventListener("online", show);
  addEventListener("offline", show);
  show();
}

const section = document.getElementById("offline-save");
if (section && "serviceWorker" in navigator && "caches" in window) {
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("save-offline"));
  const status = document.getElementById("save-offline-status");
  section.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = status.dataset.saving;
    try {
      const registration = await navigator.serviceWorker.ready;
      const result = await ask(registration.active, { type: "save-pages", urls: JSON.parse(button.dataset.urls) });
      status.textContent = result.failed ? status.dataset.failed : status.dataset.saved;
    } catch {
      status.textContent = status.dataset.failed;
    } finally {
      button.disabled = false;
    }
  });
}

/** A message to the service worker and its answer. */
function ask(worker, message) {
  return new Promise((resolve, reject) => {
    if (!worker) {
      reject(new Error("no service worker"));
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
  });
}
