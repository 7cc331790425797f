"""Web Push in Chromium: the switch asks for permission only when tapped and subscribes, a push
from the real notify function reaches the service worker (CDP ``ServiceWorker.deliverPushMessage``), the
notification shows the title in the page's language, and a tap takes the page to the game. Also the inbox,
the ``(1)`` title count, and the opponent's draw offer and resignation within 5 s.

The one stand-in: ``PushManager.subscribe``. Chromium subscribes through Google's push service (FCM), which
this machine cannot reach, and refuses the Push API in a browser context such as Playwright's. The stand-in
returns what a browser returns (``toJSON()``: endpoint and keys), made by the local push service
(local/push_service.py), so the real notify function's push to that endpoint is verified and decrypted
there, and its payload is what the test delivers to the service worker. Everything else is the browser's own.
"""

from __future__ import annotations

import json
import time

import pytest

from local.push_service import PushService
from tests.browser.harness import controlled, http, page_token

# Stands in for PushManager (see the module docstring); records what the page asked for.
PUSH_MANAGER_STAND_IN = """
(() => {
  const info = %s;
  const made = () => ({ endpoint: info.endpoint, expirationTime: null, toJSON: () => info,
    unsubscribe: async () => { sessionStorage.removeItem("stand-in.subscribed"); return true; } });
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem("stand-in.subscribed") ? made() : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    sessionStorage.setItem("stand-in.options", JSON.stringify({ userVisibleOnly: options.userVisibleOnly, key }));
    sessionStorage.setItem("stand-in.subscribed", "1");
    return made();
  };
  window.permissionRequests = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.permissionRequests += 1; return ask(...args); };
})();
"""


def subscriptions(server, page) -> list[dict]:
    return http(server.origin, "GET", "/v1/players/me/push-subscriptions", token=page_token(page))["subscriptions"]


def deliver_push(context, page, payload: dict) -> None:
    """What the push service does on a phone: the push event in the page's service worker (CDP)."""
    session = context.new_cdp_session(page)
    registrations: list[dict] = []
    session.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    session.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not registrations and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # lets Playwright dispatch the CDP events
    (registration,) = [found for found in registrations if not found["isDeleted"]]
    origin = page.evaluate("location.origin")
    session.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration["registrationId"], "data": json.dumps(payload)},
    )


@pytest.fixture
def push_service():
    with PushService() as service:
        yield service


def test_the_switch_subscribes_and_a_push_shows_the_notification_that_opens_the_game(
    contexts, server, needs_dynamodb, push_service
):
    key = http(server.origin, "GET", "/v1/push/key")["public_key"]
    phone = push_service.subscribe(server_key=key)
    context = contexts.new()
    context.grant_permissions(["notifications"], origin=server.origin)
    context.add_init_script(PUSH_MANAGER_STAND_IN % json.dumps(phone.info()))
    page = context.new_page()
    page.goto("/sw/mchezo/")
    controlled(page)
    switch = page.get_by_role("switch", name="Niarifu ikiwa ni zamu yangu")
    switch.wait_for()
    page.wait_for_timeout(500)
    assert page.evaluate("window.permissionRequests") == 0  # never asked on load
    assert switch.get_attribute("aria-checked") == "false"

    switch.click()
    page.locator(".push-switch .status").filter(has_text="Arifa zimewashwa kwa kifaa hiki.").wait_for()
    assert switch.get_attribute("aria-checked") == "true"
    assert page.evaluate("window.permissionRequests") == 1
    asked = json.loads(page.evaluate("sessionStorage.getItem('stand-in.options')"))
    assert asked["userVisibleOnly"] is True
    assert asked["key"].rstrip("=").replace("+", "-").replace("/", "_") == key  # the site's VAPID key
    (stored,) = subscriptions(server, page)
    assert stored["endpoint"] == phone.endpoint and stored["lang"] == "sw"
    assert sorted(stored["kinds"]) == ["game_over", "reminder", "your_move"]

    # A game against Baraka; his move sends the real push to this "phone" through the local push service.
    token = page_token(page)
    created = http(server.origin, "POST", "/v1/games", {"game": "chess", "color": "white"}, token)
    game_id = created["game"]["id"]
    baraka = http(server.origin, "POST", "/v1/players", {"name": "Baraka"})
    http(server.origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, baraka["token"])
    http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "e4", "ply": 0}, token)
    http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "e5", "ply": 1}, baraka["token"])
    (delivery,) = push_service.wait_for(1, timeout=60)  # returns as soon as it arrives; a busy stream is slow
    assert delivery.endpoint == phone.endpoint and delivery.json["kind"] == "your_move"
    assert delivery.json["url"] == f"/sw/mchezo/?id={game_id}"

    # The inbox at the top: this game under "your move", and the count in the title.
    page.reload()
    inbox = page.locator("#inbox [data-group='your_move']")
    inbox.wait_for()
    assert "Baraka" in inbox.inner_text()
    page.wait_for_function("document.title.startsWith('(1) ')")

    page.goto("/sw/")  # the phone is on another page of ours when the push arrives
    controlled(page)
    deliver_push(context, page, delivery.json)
    worker = context.service_workers[0]
    notices = worker.evaluate(
        "async () => (await self.registration.getNotifications()).map(n => ({title: n.title, body: n.body, tag: n.tag}))"
    )
    assert notices == [{"title": "Ni zamu yako", "body": delivery.json["body"], "tag": f"game:{game_id}"}]
    # A tap: the notification's click, in the service worker as Chromium would fire it.
    worker.evaluate(
        """async () => {
          const [notice] = await self.registration.getNotifications();
          self.dispatchEvent(new NotificationEvent("notificationclick", { notification: notice }));
        }"""
    )
    page.wait_for_url(f"**/sw/mchezo/?id={game_id}")
    page.locator("#game .board-host [role='grid']").wait_for()
    assert worker.evaluate("async () => (await self.registration.getNotifications()).length") == 0

    # Fumbo's switch adds the daily puzzle to the same subscription; Mchezo's turned off leaves it alone.
    page.goto("/sw/fumbo/")
    daily = page.get_by_role("switch", name="Niarifu kuhusu fumbo la siku")
    daily.click()
    page.wait_for_function("document.querySelector('.push-switch .switch').getAttribute('aria-checked') === 'true'")
    assert sorted(subscriptions(server, page)[0]["kinds"]) == ["daily_puzzle", "game_over", "reminder", "your_move"]
    page.goto("/sw/mchezo/")
    switch.click()
    page.locator(".push-switch .status").filter(has_text="Arifa zimezimwa.").wait_for()
    assert subscriptions(server, page)[0]["kinds"] == ["daily_puzzle"]
    assert page.evaluate("window.permissionRequests") == 0  # this page load asked nothing: it was granted
    assert contexts.problems == []


def test_the_opponents_draw_offer_and_resignation_show_within_5_s(contexts, server, needs_dynamodb):
    page = contexts.new_page()
    page.goto("/en/mchezo/")
    created = page.evaluate(
        """async () => {
          const player = await (await fetch("/v1/players", {method: "POST", headers: {"content-type": "application/json"}, body: "{}"})).json();
          localStorage.setItem("ubao.player", JSON.stringify({player_id: player.player_id, token: player.token}));
          const answer = await fetch("/v1/games", {method: "POST", headers: {"content-type": "application/json",
            authorization: "Bearer " + player.token}, body: JSON.stringify({game: "chess", color: "white"})});
          return answer.json();
        }"""
    )
    game_id, token = created["game"]["id"], page_token(page)
    baraka = http(server.origin, "POST", "/v1/players", {"name": "Baraka"})
    http(server.origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, baraka["token"])
    http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "d4", "ply": 0}, token)
    page.goto(f"/en/mchezo/#game={game_id}")
    page.locator("#game .moves li").filter(has_text="d4").wait_for()  # Baraka's turn, on screen

    offered_at = time.monotonic()
    http(server.origin, "POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, baraka["token"])
    page.locator('[data-action="accept"]').wait_for(state="visible", timeout=5_000)
    assert time.monotonic() - offered_at < 5
    resigned_at = time.monotonic()
    http(server.origin, "POST", f"/v1/games/{game_id}/resign", {}, baraka["token"])
    page.locator('[data-action="rematch"]').wait_for(state="visible", timeout=5_000)
    assert time.monotonic() - resigned_at < 5
    assert contexts.problems == []
