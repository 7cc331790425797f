"""What each request costs in DynamoDB calls, how big the items get, and the store failing mid-attempt:
throttling, a crash between the writes, and a second request slipping in between a read and a write."""

from __future__ import annotations

import os
from contextlib import contextmanager

import pytest
from common.persistence import store
from common.persistence.store import item_size
from common.players.repository import PUZZLE_PROGRESS, PlayerStore
from common.players.service import hash_token
from puzzles_api.domain.progress import HISTORY_MAX, RECENT_MAX, Attempt, Progress
from puzzles_api.repository import PuzzleStore, progress_record
from puzzles_api.service import IN_FLIGHT_SECONDS

from puzzles.catalog import load
from tests.checks import known
from tests.games.test_faults import Crash, assert_503, before_each, fault
from tests.puzzles_api.client import snapshot
from tests.puzzles_api.sets import find

READS = {"GetItem", "Query", "BatchGetItem", "Scan"}
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"}
PUZZLE = "chess-000Zo"  # Re1+ Kf2 Rf1#


class Meter:
    """The DynamoDB calls made inside ``with meter:``, by operation and table."""

    def __init__(self):
        self.calls: list[tuple[str, str]] = []
        store.client().meta.events.register("before-parameter-build.dynamodb", self._seen)
        self._active = False

    def _seen(self, params, model, **_):
        if self._active and is_puzzles_table(params):  # the limits' buckets are docs/limits.md's cost
            self.calls.append((model.name, params.get("TableName", "")))

    def __enter__(self):
        self.calls, self._active = [], True
        return self

    def __exit__(self, *exc_info):
        self._active = False

    @property
    def cost(self) -> tuple[int, int]:
        return sum(name in READS for name, _ in self.calls), sum(name in WRITES for name, _ in self.calls)


@pytest.fixture
def meter(api):
    return Meter()


def test_what_each_request_costs(api, meter):
    token = api.new_player()
    with meter:
        api.daily("chess")
        api.call("GET", f"/v1/puzzles/{PUZZLE}")
    # Serving a puzzle reads its rating and counters (one BatchGetItem), once per process per few minutes.
    assert [name for name, _ in meter.calls] == ["BatchGetItem", "BatchGetItem"]
    with meter:
        api.daily("chess")
        api.call("GET", f"/v1/puzzles/{PUZZLE}")
        api.attempt(PUZZLE, ["Re1+"])
    assert meter.cost == (0, 0)  # the puzzles are in the code, their ratings in the process
    with meter:
        api.attempt(PUZZLE, ["Re1+"], token)
    assert meter.cost == (1, 0)  # the token is checked; nothing to record yet
    with meter:
        assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is True
    # One read (token and progress), then the attempt, the progress and a counter.
    assert meter.cost == (1, 3)
    assert [name for name, _ in meter.calls] == ["GetItem", "PutItem", "UpdateItem", "UpdateItem"]
    with meter:
        assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is False
    assert meter.cost == (1, 0)  # a replay of a recent puzzle is recognised from the progress
    with meter:
        api.call("GET", "/v1/puzzles/next", token=token, query={"game": "chess"})
    assert [name for name, _ in meter.calls] == ["GetItem", "Query", "BatchGetItem"]
    with meter:
        api.progress(token, "Asia/Manila")
        api.progress(token, "Asia/Manila")
    assert meter.cost == (2, 1)  # the time zone is written once, when it changes


def test_an_old_puzzle_played_again_costs_a_refused_write_and_a_read(api, meter):
    token = api.new_player()
    first = find(PUZZLE)
    api.solve(first, token)
    for puzzle in load("english")[:RECENT_MAX]:  # push it out of the recent attempts
        api.fail(puzzle, token)
    with meter:
        assert api.solve(first, token)[-1].body["rated"] is False
    assert [name for name, _ in meter.calls] == ["GetItem", "GetItem", "PutItem", "GetItem"]


def test_items_stay_under_1_kb_at_their_largest(api):
    longest_id = max((puzzle.id for game in ("chess", "english", "tanzanian") for puzzle in load(game)), key=len)
    progress = Progress(tz="America/Argentina/ComodRivadavia")
    for index in range(HISTORY_MAX + 3):
        attempt = Attempt(longest_id[:-2] + f"{index:02d}", bool(index % 2), 4_102_444_800 + index, True)
        progress = progress.after(attempt, 2800 if index % 2 else 400, "America/Argentina/ComodRivadavia")
    player = {
        "token_hash": "f" * 64,
        "player_id": "x" * 12,
        "name": "Ŵ" * 24,
        "created": 4_102_444_800_000,
        PUZZLE_PROGRESS: {**progress_record(progress), "v": 10**9},
    }
    assert item_size(player) < 1024, item_size(player)
    attempt_item = {
        "pk": "player#" + "x" * 12,
        "sk": longest_id,
        "result": "solved",
        "at": 4_102_444_800,
        "daily": True,
    }
    counter = {"pk": f"puzzle#{longest_id}#7", "sk": "count", "plays": 10**9, "solves": 10**9}
    assert item_size(attempt_item) < 100 and item_size(counter) < 100
    # And what the function really writes is what was measured.
    token = api.new_player()
    api.solve(find(PUZZLE), token)
    for item in snapshot()["PuzzleProgressTable"]:
        assert item_size(item) < 100


def test_a_throttled_attempt_write_changes_nothing_and_the_retry_counts(api):
    token = api.new_player()
    before = snapshot()
    with fault("PutItem") as failed:
        assert_503(api.attempt(PUZZLE, ["Re1+", "Rf1#"], token))
    assert failed and snapshot() == before
    assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is True


def is_puzzles_table(params) -> bool:
    """Not the limits' buckets (their store failures let a request through; tests/ratelimit covers them)."""
    return params.get("TableName") != os.environ["RATE_LIMIT_TABLE"]


def is_progress_write(params) -> bool:
    return ":progress" in params.get("ExpressionAttributeValues", {})


@pytest.mark.parametrize("retry", ["same attempt", "another try at it"])
def test_a_crash_between_the_attempt_and_the_progress_is_repaired_by_the_retry(api, clock, retry):
    token = api.new_player()
    with fault("UpdateItem", error=Crash(), when=is_progress_write) as failed, pytest.raises(Crash):
        api.attempt(PUZZLE, ["Re1+", "Rf1#"], token)
    assert failed
    assert api.progress(token)["solved"] == 0  # committed, not applied yet
    # The client retries (or plays the puzzle again, even wrongly): the stored first attempt is what counts.
    moves = ["Re1+", "Rf1#"] if retry == "same attempt" else ["Rd8"]
    if retry != "same attempt":  # another answer within IN_FLIGHT_SECONDS is taken for a racing request's
        clock.advance(IN_FLIGHT_SECONDS + 1)
    answer = api.attempt(PUZZLE, moves, token)
    if retry == "same attempt":
        assert answer.body["rated"] is True and answer.body["rating_change"] > 0
    else:  # the reply is this answer's own (wrong, not rated); the stored first attempt is applied beside it
        assert answer.body["rated"] is False
    progress = api.progress(token)
    assert (progress["solved"], progress["failed"]) == (1, 0)
    assert api.attempt(PUZZLE, moves, token).body["rated"] is False
    assert PuzzleStore().counts(PUZZLE) == {"plays": 1, "solves": 1}


def test_a_throttled_progress_write_is_a_503_and_the_retry_counts_once(api):
    token = api.new_player()
    with fault("UpdateItem", when=is_progress_write) as failed:
        assert_503(api.attempt(PUZZLE, ["Re1+", "Rf1#"], token))
    assert failed and api.progress(token)["solved"] == 0
    assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is True
    assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is False
    assert api.progress(token)["solved"] == 1


def test_a_throttled_counter_does_not_fail_the_attempt(api):
    token = api.new_player()
    with fault("UpdateItem", when=lambda params: is_puzzles_table(params) and not is_progress_write(params)) as failed:
        answer = api.attempt(PUZZLE, ["Re1+", "Rf1#"], token)
    assert failed and answer.status == 200 and answer.body["rated"] is True
    assert api.progress(token)["solved"] == 1  # the rating counted; the statistics lost one play
    assert PuzzleStore().counts(PUZZLE) == {"plays": 0, "solves": 0}
    assert api.attempt(PUZZLE, ["Re1+", "Rf1#"], token).body["rated"] is False


@contextmanager
def before_first(operation: str, when, action):
    """Run ``action()`` once, just before the first call of ``operation`` that satisfies ``when``."""
    done: list[bool] = []

    def hook(params, **_):
        if not done and when(params):
            done.append(True)
            action()

    with before_each(operation, hook):
        yield done


def test_two_puzzles_finished_at_the_same_moment_both_count(api, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    token = api.new_player()
    other_instance = PuzzlesApi(*handlers)
    other = find("english-5a5c999cac")
    # Between this request's read of the progress and its write, another instance finishes another puzzle.
    with before_first("UpdateItem", is_progress_write, lambda: other_instance.solve(other, token)) as done:
        answer = api.attempt(PUZZLE, ["Re1+", "Rf1#"], token)
    assert done and answer.body["rated"] is True
    progress = api.progress(token)
    assert progress["solved"] == 2 and {item["id"] for item in progress["recent"]} == {PUZZLE, other.id}
    record = known(known(PlayerStore().get(hash_token(token))).puzzles)
    assert record["v"] == 2


def test_the_same_puzzle_finished_twice_at_the_same_moment_counts_once(api, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    token = api.new_player()
    other_instance = PuzzlesApi(*handlers)

    def is_attempt_write(params):
        return params.get("Item", {}).get("pk", {}).get("S", "").startswith("player#")

    # Both requests have read the progress; the other one writes its attempt first (and fails the puzzle).
    with before_first("PutItem", is_attempt_write, lambda: other_instance.attempt(PUZZLE, ["Rd8"], token)):
        answer = api.attempt(PUZZLE, ["Re1+", "Rf1#"], token)
    assert answer.body["result"] == "solved" and answer.body["rated"] is False
    progress = api.progress(token)
    assert (progress["solved"], progress["failed"]) == (0, 1)
    assert PuzzleStore().counts(PUZZLE) == {"plays": 1, "solves": 0}
