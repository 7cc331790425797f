"""The store failing mid-request: throttling, errors and crashes between the two writes of a move.

Faults are injected at the AWS boundary: a botocore event handler on the client raises the ClientError
DynamoDB would send (or a network error, or a crash that kills the request) before the call goes out. The
game must be unchanged or fully applied, never half; a 503 carries Retry-After; a retry finishes the job.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError
from common.persistence import store

from tests.games.client import Api, snapshot


def dynamodb_error(code: str, message: str, status: int, operation: str) -> ClientError:
    """The ClientError botocore raises for DynamoDB's error answer ``code`` with HTTP ``status``."""
    return ClientError(
        {
            "Error": {"Code": code, "Message": message},
            "ResponseMetadata": {
                "HTTPStatusCode": status,
                "HTTPHeaders": {},
                "RequestId": "",
                "HostId": "",
                "RetryAttempts": 0,
            },
        },
        operation,
    )


class Crash(BaseException):
    """The Lambda instance dies here (no handler catches it, as none survives a crash)."""


@contextmanager
def fault(operation: str, error: BaseException | None = None, when=lambda params: True, times: int = 1):
    """Make the next ``times`` calls of ``operation`` whose parameters satisfy ``when`` fail with ``error``."""
    error = error or dynamodb_error("ProvisionedThroughputExceededException", "slow down", 400, operation)
    failed: list[Any] = []

    def inject(params, **_):
        if len(failed) < times and when(params):
            failed.append(operation)
            raise error

    with before_each(operation, inject):
        yield failed


@contextmanager
def before_each(operation: str, hook: Callable[..., None]) -> Iterator[None]:
    """Call ``hook(params=...)`` before each request of ``operation`` is built (botocore's event), meanwhile."""
    events = store.client().meta.events
    name = f"before-parameter-build.dynamodb.{operation}"
    events.register_first(name, hook)
    try:
        yield
    finally:
        events.unregister(name, hook)


def is_head(params) -> bool:
    return params.get("Item", {}).get("sk", {}).get("S") == "H"


def is_player(params) -> bool:
    return params.get("TableName") == os.environ["PLAYERS_TABLE"]


def is_event(params) -> bool:
    return params.get("Item", {}).get("sk", {}).get("S", "").startswith("E")


def assert_503(answer):
    assert answer.status == 503, answer.body
    assert answer.code == "store_unavailable" and answer.headers["retry-after"] == "1"


@pytest.fixture
def game(api):
    game_id, seats = api.start_game()
    api.move(seats["white"], game_id, "e4", 0)
    return game_id, seats


@pytest.mark.parametrize(
    ("operation", "when", "ply"),
    [
        ("GetItem", lambda params: True, 1),
        ("PutItem", is_event, 1),
        ("Query", lambda params: True, 0),  # a stale ply reads the log before it refuses
    ],
)
def test_a_move_refused_by_the_store_changes_nothing(api, game, handler, operation, when, ply):
    game_id, seats = game
    before = snapshot()
    with fault(operation, when=when, times=99) as failed:  # on an instance that must read the game first
        answer = Api(handler).move(seats["black"], game_id, "e5", ply)
    assert failed
    assert_503(answer)
    assert snapshot() == before
    assert api.move(seats["black"], game_id, "e5", 1).status == 200  # and the retry goes through


def test_the_move_is_committed_when_only_the_head_write_fails(api, game):
    game_id, seats = game
    with fault("PutItem", when=is_head) as failed:
        answer = api.move(seats["black"], game_id, "e5", 1)
    assert failed and answer.status == 200 and answer.body["ply"] == 2  # the event is the commit
    assert api.move(seats["white"], game_id, "Nf3", 2).status == 200  # the stale head catches up
    assert api.get(game_id).body["moves"] == ["e4", "e5", "Nf3"]


def test_network_failures_are_503(api, game, handler):
    game_id, seats = game
    before = snapshot()
    with fault("GetItem", error=EndpointConnectionError(endpoint_url="http://dynamodb")):
        assert_503(Api(handler).move(seats["black"], game_id, "e5", 1))
    with fault("Query", error=EndpointConnectionError(endpoint_url="http://dynamodb")):
        assert_503(api.get(game_id))
    assert snapshot() == before


@pytest.mark.parametrize("code", ["ThrottlingException", "InternalServerError", "RequestLimitExceeded"])
def test_every_unavailable_code_is_503(api, game, code):
    game_id, _ = game
    error = dynamodb_error(code, "x", 500, "Query")
    with fault("Query", error=error):
        assert_503(api.get(game_id))


def test_players_and_games_need_the_store(api):
    before = snapshot()
    with fault("PutItem"):
        assert_503(api.call("POST", "/v1/players", {"name": "Asha"}))
    assert snapshot() == before
    token = api.new_player()["token"]
    before = snapshot()
    with fault("GetItem"):
        assert_503(api.call("POST", "/v1/games", {"game": "chess"}, token=token))
    with fault("PutItem", when=is_event):
        assert_503(api.call("POST", "/v1/games", {"game": "chess"}, token=token))
    with fault("UpdateItem", when=is_player):  # the rename's own write (the limiter's lets a request through)
        assert_503(api.call("PATCH", "/v1/players/me", {"name": "Baraka"}, token=token))
    with fault("Query"):
        assert_503(api.call("GET", "/v1/players/me/games", token=token))
    assert snapshot() == before


def _crash_between_the_writes(api, game_id, token, move, ply):
    with fault("PutItem", error=Crash(), when=is_head) as failed, pytest.raises(Crash):
        api.move(token, game_id, move, ply)
    assert failed


def test_a_crash_between_the_writes_then_a_retry(api, game):
    game_id, seats = game
    _crash_between_the_writes(api, game_id, seats["black"], "e5", 1)
    retried = api.move(seats["black"], game_id, "e5", 1)  # the client never got an answer: it retries
    assert retried.status == 200 and retried.body["ply"] == 2 and retried.body["last_move"] == "e5"
    assert api.get(game_id).body["moves"] == ["e4", "e5"]


def test_a_crash_between_the_writes_then_the_opponent_moves(api, game):
    game_id, seats = game
    _crash_between_the_writes(api, game_id, seats["black"], "e5", 1)
    # The opponent saw the move (a GET folds the log into the head) and answers it.
    assert api.get(game_id).body["ply"] == 2
    assert api.move(seats["white"], game_id, "Nf3", 2).status == 200
    # The crashed client retries late: the same move, already played, is still a 200.
    assert api.move(seats["black"], game_id, "e5", 1).status == 200
    assert api.get(game_id).body["moves"] == ["e4", "e5", "Nf3"]


def test_a_crash_between_the_writes_then_a_move_without_any_read(api, game):
    game_id, seats = game
    _crash_between_the_writes(api, game_id, seats["black"], "e5", 1)
    # White was told e5 by another route (say the crashed request's log): the head is behind, the log is not.
    assert api.move(seats["white"], game_id, "Nf3", 2).status == 200
    assert api.get(game_id).body["moves"] == ["e4", "e5", "Nf3"]


def test_a_crash_after_the_first_event_of_a_game(api):
    token = api.new_player()["token"]
    with fault("PutItem", error=Crash(), when=is_head), pytest.raises(Crash):
        api.call("POST", "/v1/games", {"game": "chess"}, token=token)
    [event] = [item for item in snapshot()["GamesTable"] if item["sk"] == "E000001"]
    recovered = api.get(event["pk"])  # the game exists from its first event; reading stores its head
    assert recovered.status == 200 and recovered.body["state"] == "waiting"
    assert any(item["sk"] == "H" for item in snapshot()["GamesTable"])


SCRIPT = [("white", "d4"), ("black", "Nf6"), ("white", "c4"), ("black", "e6"), ("white", "Nc3"), ("black", "Bb4")]


@pytest.mark.parametrize("failing_call", range(4))
def test_a_whole_game_with_a_fault_at_each_call(api, failing_call):
    """Every request of a game fails once, at its n-th store call: after a retry the game is the same."""
    game_id, seats = api.start_game()
    calls = {"count": 0}

    def nth(params):
        calls["count"] += 1
        return calls["count"] == failing_call + 1

    for ply, (color, move) in enumerate(SCRIPT):
        calls["count"] = 0
        with fault("GetItem", when=nth), fault("PutItem", when=nth), fault("Query", when=nth):
            first = api.move(seats[color], game_id, move, ply)
        assert first.status in (200, 503), first.body
        state = api.get(game_id).body
        assert state["ply"] in (ply, ply + 1)  # unchanged or applied, never in between
        if first.status == 503:
            assert state["ply"] == ply or state["last_move"] == move
        again = api.move(seats[color], game_id, move, ply)
        assert again.status == 200 and again.body["ply"] == ply + 1
    assert api.get(game_id).body["moves"] == [move for _, move in SCRIPT]


@contextmanager
def answer_lost(operation: str, when=lambda params: True):
    """The store does ``operation`` but its answer never arrives (a read timeout after the write landed)."""
    lost: list[Any] = []

    def drop(params, **_):
        if not lost and when(params):
            lost.append(operation)
            raise ReadTimeoutError(endpoint_url="http://dynamodb")

    events = store.client().meta.events
    seen: dict = {}

    def remember(params, **_):
        seen["params"] = params

    before, after = f"before-parameter-build.dynamodb.{operation}", f"after-call.dynamodb.{operation}"
    events.register(before, remember)
    handler = lambda **kwargs: drop(seen.get("params", {}))  # noqa: E731 - the params of this very call
    events.register(after, handler)
    try:
        yield lost
    finally:
        events.unregister(before, remember)
        events.unregister(after, handler)


def test_a_move_stored_whose_answer_was_lost_is_a_503_then_the_same_move_again_is_a_success(api, game):
    """The 503 says "the move may or may not be stored; send the same move with the same ply again": here it
    was stored, and the retry is answered as the move played (200), not a conflict and not a second move."""
    game_id, seats = game
    with answer_lost("PutItem", when=is_event) as lost:
        answer = api.move(seats["black"], game_id, "e5", 1)
    assert lost and answer.status == 503 and answer.headers["retry-after"] == "1"
    retried = api.move(seats["black"], game_id, "e5", 1)
    assert retried.status == 200 and retried.body["ply"] == 2 and retried.body["last_move"] == "e5"
    again = api.move(seats["black"], game_id, "e7e5", 1)  # the same move spelt in UCI: the same answer
    assert again.status == 200 and again.body["ply"] == 2
    assert api.get(game_id).body["moves"] == ["e4", "e5"]


def test_a_move_whose_answer_was_lost_and_was_not_stored_is_played_by_the_retry(api, game):
    game_id, seats = game
    with fault("PutItem", error=ReadTimeoutError(endpoint_url="http://dynamodb"), when=is_event) as failed:
        assert_503(api.move(seats["black"], game_id, "e5", 1))
    assert failed
    retried = api.move(seats["black"], game_id, "e5", 1)
    assert retried.status == 200 and api.get(game_id).body["moves"] == ["e4", "e5"]
