"""Per-client limits through the functions, on moto with the limiter's clock injected: player
creation per address, validate with long histories weighed by their moves, games against the computer per
player and per address. Each refusal is a 429 with ``Retry-After`` and the JSON error body, and writes nothing."""

from __future__ import annotations

import pytest
from common.web import depends, ratelimit
from common.web.ratelimit import LIMITS, VALIDATE_FREE_MOVES

from tests.checks import known
from tests.games.client import invoke, snapshot
from tests.games.test_faults import fault
from tests.ratelimit.conftest import via_cloudfront

HOME = via_cloudfront("203.0.113.7:52311")
NEIGHBOUR = via_cloudfront("198.51.100.20:443")


def assert_429(answer, limit: str) -> int:
    assert answer.status == 429, answer.body
    assert answer.code == "rate_limited" and limit.split()[0] in answer.body["error"]["message"]
    retry_after = int(answer.headers["retry-after"])
    assert retry_after >= 1
    return retry_after


def new_player(api, headers=HOME):
    return api.call("POST", "/v1/players", {}, headers=headers)


# ------------------------------------------------------------------------------------------ players
def test_player_creation_is_limited_per_address(api, limit_clock):
    """The issue made 200 players in 1.7 s; now an address gets 30 at once, then one every 10 seconds."""
    capacity = int(LIMITS["players"].capacity)
    assert all(new_player(api).status == 201 for _ in range(capacity))
    before = snapshot()
    retry_after = assert_429(new_player(api), "new players")
    assert retry_after == 10 and snapshot() == before  # refused before anything is written
    assert new_player(api, NEIGHBOUR).status == 201  # another address is not held up
    limit_clock.advance(seconds=retry_after - 1)
    assert new_player(api).status == 429
    limit_clock.advance(seconds=1)
    assert new_player(api).status == 201
    assert new_player(api).status == 429


def test_the_contract_run_scales_every_limit_up(api, limit_clock, monkeypatch):
    """``make contract`` sets RATE_LIMIT_SCALE so thousands of generated requests from one address reach the
    routes; the same bucket then holds that many times more."""
    monkeypatch.setenv("RATE_LIMIT_SCALE", "2")
    capacity = int(LIMITS["players"].capacity)
    assert all(new_player(api).status == 201 for _ in range(2 * capacity))
    assert_429(new_player(api), "new players")


def test_the_address_is_cloudfronts_viewer_address_else_the_source_ip_and_ipv6_by_64(api, limit_clock):
    buckets = ratelimit.MemoryBuckets()
    api.app.dependency_overrides[depends.rate_buckets] = lambda: buckets
    first = via_cloudfront("[2001:db8:1:2::1]:443")
    same_64 = via_cloudfront("2001:db8:1:2:ffff::9:8443")  # CloudFront writes IPv6 unbracketed
    for _ in range(int(LIMITS["players"].capacity)):
        assert new_player(api, first).status == 201
    assert new_player(api, same_64).status == 429  # one subscriber's /64 is one address
    assert new_player(api, via_cloudfront("[2001:db8:1:3::1]:443")).status == 201
    assert new_player(api, via_cloudfront(None)).status == 201  # no header: API Gateway's sourceIp (127.0.0.1 here)


@pytest.mark.parametrize("viewer", ["garbage", "", "1.2.3.4.5:80", "[::1", None])
def test_a_malformed_or_missing_viewer_address_is_limited_as_the_connections_address(api, limit_clock, viewer):
    """A viewer address that cannot be read falls back to the source address: 60 creations, 30 pass."""
    buckets = ratelimit.MemoryBuckets()
    api.app.dependency_overrides[depends.rate_buckets] = lambda: buckets
    answers = [new_player(api, via_cloudfront(viewer)).status for _ in range(60)]
    capacity = int(LIMITS["players"].capacity)
    assert answers == [201] * capacity + [429] * (60 - capacity)


def test_the_viewer_header_is_not_trusted_where_no_origin_secret_is_checked(api, limit_clock, monkeypatch):
    """Without ``ORIGIN_VERIFY`` nothing proves CloudFront set the header: each request counts by its source."""
    monkeypatch.delenv("ORIGIN_VERIFY")
    buckets = ratelimit.MemoryBuckets()
    api.app.dependency_overrides[depends.rate_buckets] = lambda: buckets
    fresh = (via_cloudfront(f"198.51.100.{index}:443") for index in range(60))
    answers = [new_player(api, headers).status for headers in fresh]
    assert answers.count(201) == int(LIMITS["players"].capacity)


def test_a_store_failure_lets_the_request_through(api, limit_clock):
    with fault("UpdateItem", times=5) as failed:
        answer = new_player(api)
    assert failed and answer.status == 201


# ----------------------------------------------------------------------------------------- validate
def validate(body: dict, headers=HOME):
    from validate_move import handler

    return invoke(handler.app, "ValidateMoveFunction", "POST", "/v1/validate", body=body, headers=headers)


def shuffle(count: int) -> dict:
    """A validate request after ``count`` plies of two Tanzanian kings shuffling (legal for ever)."""
    cycle = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"]
    return {"game": "tanzanian", "fen": "W:WKa1:BKh2", "moves": [cycle[i % 4] for i in range(count)], "move": "a1-b2"}


def test_validate_charges_long_histories_by_their_moves(moto_tables, limit_clock):
    long = shuffle(1000)
    capacity = LIMITS["validate"].capacity
    for _ in range(int(capacity // 1000)):
        assert validate(long).status == 200
    retry_after = assert_429(validate(long), "long histories")
    assert retry_after == 20  # 1,000 moves at 50 a second
    # Short histories cost no token (and no DynamoDB call): still answered.
    assert validate(shuffle(VALIDATE_FREE_MOVES)).status == 200
    assert validate(long, NEIGHBOUR).status == 200
    limit_clock.advance(seconds=retry_after)
    assert validate(long).status == 200


def test_a_malformed_request_costs_nothing(moto_tables, limit_clock):
    too_long = {**shuffle(1000), "moves": ["a1-b2"] * 5000}
    for _ in range(10):
        assert validate(too_long).status == 422  # refused by the model, before the limit is asked
    for _ in range(int(LIMITS["validate"].capacity // 1000)):
        assert validate(shuffle(1000)).status == 200


# ----------------------------------------------------------------------------------------- computer
def cpu_game(api, token: str, level: int, headers=HOME, color: str = "white"):
    """A game against the computer; as White the player moves first, so creating it runs no search (it is
    charged all the same: creating one is one of the limited requests)."""
    body = {"game": "chess", "color": color, "opponent": {"type": "cpu", "level": level}}
    return api.call("POST", "/v1/games", body, token=token, headers=headers)


def test_games_against_the_computer_are_limited_per_player(api, limit_clock):
    """Level 5's budget is a second: a player gets 30 such computer moves at once, then one every 5 s."""
    token = new_player(api).body["token"]
    created = [cpu_game(api, token, 5, color="black")]  # the computer opens: one real level-5 search
    created += [cpu_game(api, token, 5) for _ in range(int(LIMITS["computer"].capacity) - 1)]
    assert all(answer.status == 201 for answer in created)
    assert created[0].body["game"]["ply"] == 1
    before = snapshot()
    retry_after = assert_429(cpu_game(api, token, 5), "computer")
    assert retry_after == 5 and snapshot() == before
    # A move in a running game that would make the computer answer is refused the same way, unchanged.
    game = created[0].body["game"]
    answer = api.move(token, game["id"], game["legal_moves"][0], game["ply"])
    assert_429(answer, "computer")
    assert snapshot() == before
    other = new_player(api, NEIGHBOUR).body["token"]
    assert cpu_game(api, other, 5, NEIGHBOUR).status == 201  # another player elsewhere plays on
    limit_clock.advance(seconds=retry_after)
    moved = api.move(token, game["id"], game["legal_moves"][0], game["ply"])
    assert moved.status == 200 and moved.body["ply"] == game["ply"] + 2  # the computer answered


def test_weaker_levels_cost_less_and_games_between_people_nothing(api, limit_clock):
    token = new_player(api).body["token"]
    level_1 = LIMITS["computer"].capacity / 0.25  # chess level 1's time budget: a quarter of a second
    assert all(cpu_game(api, token, 1).status == 201 for _ in range(int(level_1)))
    assert cpu_game(api, token, 1).status == 429
    friend = new_player(api).body["token"]
    people = api.call("POST", "/v1/games", {"game": "chess", "color": "white"}, token=friend, headers=HOME)
    assert people.status == 201


def test_many_players_behind_one_address_share_its_bucket(api, limit_clock):
    tokens = [new_player(api).body["token"] for _ in range(5)]
    per_player = int(LIMITS["computer"].capacity)
    answers = [cpu_game(api, token, 5).status for token in tokens for _ in range(per_player)]
    from_the_address = int(known(LIMITS["computer"].address_capacity))
    assert answers.count(201) == from_the_address  # 120 from the address's bucket
    assert set(answers[from_the_address:]) == {429}


@pytest.fixture(autouse=True)
def _quiet_logs(monkeypatch):
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")


def test_every_limited_route_is_in_the_template_and_documents_its_429():
    from local.openapi import generate
    from local.template import Template

    declared = {(route.method.lower(), route.path) for route in Template().routes}
    paths = generate()["paths"]
    for method, path in ratelimit.LIMITED_ROUTES:
        assert (method, path) in declared
        assert "Retry-After" in paths[path][method]["responses"]["429"]["headers"]
