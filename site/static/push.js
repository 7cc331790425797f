// @ts-check
// Web Push on this device: the switches on Mchezo ("tell me when it is my move") and Fumbo ("the
// daily puzzle"). Permission is asked only when a switch is tapped, never on load. The browser has one push
// subscription per site, so the kinds wanted by every switch are kept here and posted together; turning the
// last one off deletes the subscription. While a switch is on, each visit posts the subscription again (the
// browser may have renewed it). Open pages hear of each push from the service worker (site/offline/sw.js)
// as a `ubao:push` event on window, {detail: {kind, game}}.
import { call, player } from "./api.js";

const KINDS_KEY = "ubao.push.kinds";
const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function wantedKinds() {
  try {
    const kinds = JSON.parse(localStorage.getItem(KINDS_KEY) || "[]");
    return Array.isArray(kinds) ? kinds : [];
  } catch {
    return [];
  }
}

function keepKinds(kinds) {
  localStorage.setItem(KINDS_KEY, JSON.stringify([...new Set(kinds)].sort()));
}

/** The VAPID public key (base64url) as the bytes `applicationServerKey` takes. */
function keyBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

async function subscription(create) {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing || !create) return existing;
  const { public_key: key } = await call("GET", "/v1/push/key");
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

// A browser whose push service cannot be reached never settles its subscribe(): after this long the switch
// gives up and says so, instead of staying grey for minutes.
const GIVE_UP_MS = 10000;
class PushTimeout extends Error {}

/** ``promise``, or a PushTimeout once GIVE_UP_MS have passed without it settling. */
function withinTime(promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new PushTimeout()), GIVE_UP_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// One change at a time, in order: a visit's refresh must not land after the tap that follows it (and one
// that never ends holds the next back GIVE_UP_MS at most).
let pending = Promise.resolve();
function inTurn(change) {
  pending = withinTime(pending.catch(() => undefined).then(change));
  return pending;
}

/** Post this device's subscription with the kinds wanted (the server replaces one of the same endpoint). */
async function register(kinds) {
  const current = await subscription(true);
  const me = await player();
  const lang = document.documentElement.lang || "en";
  const body = { ...current.toJSON(), lang, kinds, tz: timeZone() };
  await call("POST", "/v1/players/me/push-subscriptions", { body, token: me.token });
}

async function unregister() {
  const current = await subscription(false);
  if (!current) return;
  const me = await player();
  await call("DELETE", "/v1/players/me/push-subscriptions", { body: { endpoint: current.endpoint }, token: me.token });
  await current.unsubscribe();
}

function setUp(section) {
  const button = section.querySelector("button");
  const status = section.querySelector(".status");
  const mine = section.dataset.kinds.split(/\s+/).filter(Boolean);
  const isOn = () => Notification.permission === "granted" && mine.every((kind) => wantedKinds().includes(kind));
  const show = (on, message) => {
    button.setAttribute("aria-checked", String(on));
    status.textContent = message === undefined ? "" : message;
  };
  if (!supported) {
    show(false, section.dataset.unsupported);
    return;
  }
  button.disabled = false;
  show(isOn());
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (isOn()) {
        const rest = wantedKinds().filter((kind) => !mine.includes(kind));
        await inTurn(() => (rest.length ? register(rest) : unregister()));
        keepKinds(rest);
        show(false, section.dataset.off);
        return;
      }
      const permission = await Notification.requestPermission(); // asked here, on the tap, and only here
      if (permission !== "granted") return show(false, section.dataset.denied);
      const kinds = [...new Set([...wantedKinds(), ...mine])];
      await inTurn(() => register(kinds));
      keepKinds(kinds);
      show(true, section.dataset.on);
    } catch (error) {
      show(isOn(), error instanceof PushTimeout ? section.dataset.timeout : section.dataset.failed);
    } finally {
      button.disabled = false;
    }
  });
}

const switches = document.querySelectorAll(".push-switch[data-kinds]");
switches.forEach(setUp);

// Each visit while a switch is on: the subscription posted again, without asking anything.
if (supported && switches.length && wantedKinds().length && Notification.permission === "granted") {
  inTurn(() => register(wantedKinds())).catch(() => undefined);
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "push") dispatchEvent(new CustomEvent("ubao:push", { detail: { kind: data.kind, game: data.game } }));
  });
}
