"""Every write route and the costly read past its bucket: a 429 with ``Retry-After`` and the JSON error, and
nothing written. Each limit is shrunk to one token (no refill) so the second request is the refused one."""

from __future__ import annotations

import pytest
from common.web import ratelimit
from common.web.ratelimit import LIMITS, Limit

from tests.games.client import Answer, invoke, snapshot
from tests.ratelimit.conftest import via_cloudfront
from tests.ratelimit.test_limits_api import assert_429

HOME = via_cloudfront("203.0.113.7:52311")
SUBSCRIPTION_PATH = "/v1/players/me/push-subscriptions"


@pytest.fixture
def one_token(monkeypatch):
    """Shrink limit ``name`` to a single token, per player and per address, that never comes back."""

    def shrink(name: str) -> None:
        monkeypatch.setitem(LIMITS, name, Limit(name, capacity=1, per_second=1e-6, per_player=LIMITS[name].per_player))

    return shrink


def player(api, name: str = "Asha") -> str:
    return api.call("POST", "/v1/players", {"name": name}, headers=HOME).body["token"]


def finished_game(api) -> tuple[str, dict[str, str]]:
    game_id, seats = api.start_game()
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"], headers=HOME)
    return game_id, seats


def refused_without_a_write(answer: Answer, limit: str, before: dict) -> None:
    assert_429(answer, limit)
    assert answer.headers["content-type"] == "application/json"
    assert snapshot() == before


def test_human_game_creation(api, limit_clock, one_token):
    one_token("games")
    token = player(api)
    assert api.call("POST", "/v1/games", {"game": "chess"}, token=token, headers=HOME).status == 201
    before = snapshot()
    refused_without_a_write(api.call("POST", "/v1/games", {"game": "chess"}, token=token, headers=HOME), "new", before)


def test_rematch_offers(api, limit_clock, one_token):
    first, seats = finished_game(api)
    created = api.create(seats["white"], "chess", "white").body
    second = created["game"]["id"]
    api.join(seats["black"], second, created["invite"]["code"])
    api.call("POST", f"/v1/games/{second}/resign", token=seats["white"], headers=HOME)
    one_token("rematch")
    assert api.call("POST", f"/v1/games/{first}/rematch", token=seats["white"], headers=HOME).status == 200
    before = snapshot()
    answer = api.call("POST", f"/v1/games/{second}/rematch", token=seats["white"], headers=HOME)
    refused_without_a_write(answer, "rematch", before)


def test_renames(api, limit_clock, one_token):
    one_token("renames")
    token = player(api)
    assert api.call("PATCH", "/v1/players/me", {"name": "Asha K"}, token=token, headers=HOME).status == 200
    before = snapshot()
    refused_without_a_write(
        api.call("PATCH", "/v1/players/me", {"name": "Asha M"}, token=token, headers=HOME), "renames", before
    )


def test_blocks_and_unblocks(api, limit_clock, one_token):
    game_id, seats = finished_game(api)
    one_token("blocks")
    made = api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=seats["black"], headers=HOME)
    assert made.status == 201
    before = snapshot()
    again = api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=seats["black"], headers=HOME)
    refused_without_a_write(again, "block", before)
    path = f"/v1/players/me/blocks/{made.body['id']}"
    refused_without_a_write(api.call("DELETE", path, token=seats["black"], headers=HOME), "block", before)


def test_exports_are_charged_when_built_not_when_cached(api, limit_clock, one_token):
    first, _ = finished_game(api)
    second, _ = finished_game(api)
    one_token("exports")
    made = api.call("GET", f"/v1/games/{first}/export", headers=HOME)
    assert made.status == 200 and made.headers["etag"]
    again = api.call("GET", f"/v1/games/{first}/export", headers=HOME)  # this instance's copy: free
    assert again.status == 200 and again.text == made.text
    current = api.call("GET", f"/v1/games/{first}/export", headers={**HOME, "if-none-match": made.headers["etag"]})
    assert current.status == 304
    assert_429(api.call("GET", f"/v1/games/{second}/export", headers=HOME), "downloads")


def test_push_subscriptions(api, limit_clock, one_token, monkeypatch, tmp_path):
    from push import handler as push
    from push.vapid import vapid_key

    from local.push_service import PushService
    from tests.fixtures import on_clock

    monkeypatch.setenv("PUSH_TABLE", "PushTable")
    monkeypatch.setenv("PUSH_LOCAL_MODE", "1")
    monkeypatch.setenv("VAPID_KEY_FILE", str(tmp_path / "vapid.json"))
    push.app.dependency_overrides.update(on_clock(limit_clock))
    one_token("push")
    token = player(api)
    try:
        with PushService() as service:
            browsers = [service.subscribe(server_key=vapid_key().public_key) for _ in range(2)]
            bodies = [{**browser.info(), "lang": "sw"} for browser in browsers]
            first = invoke(
                push.app, "PushFunction", "POST", SUBSCRIPTION_PATH, body=bodies[0], token=token, headers=HOME
            )
            assert first.status == 201, first.body
            before = snapshot()
            second = invoke(
                push.app, "PushFunction", "POST", SUBSCRIPTION_PATH, body=bodies[1], token=token, headers=HOME
            )
            assert_429(second, "push")
            listed = invoke(push.app, "PushFunction", "GET", SUBSCRIPTION_PATH, token=token, headers=HOME)
            assert len(listed.body["subscriptions"]) == 1 and snapshot() == before
    finally:
        push.app.dependency_overrides.clear()


@pytest.mark.parametrize("anonymous", [True, False])
def test_puzzle_attempts_anonymous_ones_by_address(api, limit_clock, one_token, anonymous):
    from puzzles_api import handler as puzzles

    from tests.fixtures import on_clock

    puzzles.app.dependency_overrides.update(on_clock(limit_clock))
    one_token("anonymous_puzzles" if anonymous else "puzzles")
    token = None if anonymous else player(api)
    path, body = "/v1/puzzles/chess-000Zo/attempt", {"moves": ["Re1+"]}
    try:
        assert invoke(puzzles.app, "PuzzlesFunction", "POST", path, body=body, token=token, headers=HOME).status == 200
        refused = invoke(puzzles.app, "PuzzlesFunction", "POST", path, body=body, token=token, headers=HOME)
        assert_429(refused, "puzzle")
        neighbour = via_cloudfront("198.51.100.20:443")
        other = invoke(puzzles.app, "PuzzlesFunction", "POST", path, body=body, token=token, headers=neighbour)
        assert other.status == (200 if anonymous else 429)  # a player's bucket follows the player
    finally:
        puzzles.app.dependency_overrides.clear()


def test_every_limit_has_a_description():
    assert set(LIMITS) | {"anonymous_puzzle"} == set(ratelimit.DESCRIPTIONS)
