"""Hot keys: the daily puzzle at a million first attempts a day, against DynamoDB's per-partition limits.

Players open the daily puzzle and finish it (solved or failed) through the puzzles function on moto, over
three of its rating-cache periods; every DynamoDB call is recorded with the partition key it touches.
Keys one player owns (their item, their attempts) grow with players, not with the puzzle's fame; the
keys every player shares (the puzzle's counter shards and its rating item) are the possible hot keys. The
test scales what it measured to a million attempts a day, with the busiest second at PEAK_TO_MEAN times
the day's mean, and checks it against the limit of one partition, assuming the worst placement: every
shared key of the puzzle in the same partition. docs/capacity.md has the figures.
"""

from __future__ import annotations

import random
from collections import defaultdict

from common.persistence.deadline import BUDGETS
from puzzles_api.domain.puzzle_rating import CACHE_SECONDS

from local.template import Template
from tests.puzzles_api.sets import find

ATTEMPTS_A_DAY = 1_000_000
#: The busiest second against the day's mean: an evening in Dar es Salaam and Manila, or a push that tells
#: every player at once that today's puzzle is out.
PEAK_TO_MEAN = 20
#: DynamoDB's limits for one partition (on-demand or provisioned): write and read units per second.
PARTITION_WCU = 1_000
PARTITION_RCU = 3_000
PLAYERS = 48
PERIODS = 3  # rating-cache periods the attempts are spread over

_KEYS = {"PlayersTable": "token_hash", "PuzzleProgressTable": "pk", "RateLimitTable": "pk", "GamesTable": "pk"}


class KeyRecorder:
    """Every item key the calls touch: (table, partition key value, "read" | "write", capacity units)."""

    def __init__(self) -> None:
        self.touches: list[tuple[str, str, str, float]] = []

    def __call__(self, params, model, **_) -> None:
        operation = model.name
        if operation == "BatchGetItem":
            for table, request in params["RequestItems"].items():
                for key in request["Keys"]:
                    self._touch(table, key, "read", request.get("ConsistentRead", False))
        elif operation in ("GetItem", "Query"):
            key = params.get("Key") or {"pk": params["ExpressionAttributeValues"][":pk"]}
            self._touch(params["TableName"], key, "read", params.get("ConsistentRead", False))
        elif operation in ("PutItem", "UpdateItem", "DeleteItem"):
            self._touch(params["TableName"], params.get("Key") or params["Item"], "write", True)

    def _touch(self, table: str, key: dict, kind: str, consistent: bool) -> None:
        base = next(name for name in _KEYS if table.startswith(name))
        value = next(iter(key[_KEYS[base]].values()))
        # Items here are under 1 KB (writes) and 4 KB (reads): one unit, half for an eventually consistent read.
        self.touches.append((base, value, kind, 1.0 if kind == "write" or consistent else 0.5))


def _record(recorder: KeyRecorder) -> None:
    from common.persistence import store

    for budget in BUDGETS:
        store.client(budget).meta.events.register("before-parameter-build.dynamodb", recorder)


def _play_the_daily_puzzle(api, clock, recorder: KeyRecorder) -> tuple[str, int]:
    """PLAYERS players each open the daily chess puzzle and finish it; (its id, the first attempts counted)."""
    chooser = random.Random(29)
    step = PERIODS * CACHE_SECONDS / PLAYERS
    tokens = []
    for _ in range(PLAYERS):
        tokens.append(api.new_player())
        clock.advance(10)  # the per-address limit on new players: one every 10 s after a burst of 30
    recorder.touches.clear()
    counted = 0
    puzzle_id = ""
    for token in tokens:
        daily = api.daily("chess", token=token)
        assert daily.status == 200, daily.body
        puzzle = find(daily.body["id"])
        assert puzzle is not None
        puzzle_id = puzzle.id
        answer = api.solve(puzzle, token)[-1] if chooser.random() < 0.6 else api.fail(puzzle, token)
        counted += answer.body["rated"]
        clock.advance(step)
    return puzzle_id, counted


def _shared(recorder: KeyRecorder, puzzle_id: str, kind: str) -> dict[str, float]:
    """Units per key of the keys every player of the puzzle shares (its counters and rating), of ``kind``."""
    found: defaultdict[str, float] = defaultdict(float)
    for table, key, touched, units in recorder.touches:
        if table == "PuzzleProgressTable" and key.startswith(f"puzzle#{puzzle_id}") and touched == kind:
            found[key] += units
    return found


def test_the_daily_puzzle_stays_under_a_partitions_limits_at_a_million_attempts_a_day(api, clock):
    recorder = KeyRecorder()
    _record(recorder)
    puzzle_id, counted = _play_the_daily_puzzle(api, clock, recorder)
    assert counted == PLAYERS  # each player's first finished attempt counted once

    writes, reads = _shared(recorder, puzzle_id, "write"), _shared(recorder, puzzle_id, "read")
    # The counters: one write per counted attempt, spread over the shards; the rating item only at folds.
    shards = {key: units for key, units in writes.items() if not key.endswith(puzzle_id)}
    assert sum(shards.values()) == counted and len(shards) > 1
    peak_attempts = ATTEMPTS_A_DAY / 86_400 * PEAK_TO_MEAN
    write_units_per_attempt = sum(writes.values()) / counted
    worst_partition_wcu = peak_attempts * write_units_per_attempt  # every shared key in one partition
    assert worst_partition_wcu < PARTITION_WCU / 4, worst_partition_wcu  # room for 4x: a million is not the end

    # Reads of the shared keys come from the rating cache's refresh, once per period per instance, not per
    # request: at the reserved concurrency, every instance refreshing, still a trickle.
    instances = int(Template().parameters["PuzzlesConcurrency"]["Default"])
    per_instance_per_period = sum(reads.values()) / PERIODS
    assert per_instance_per_period <= 2 * (len(shards) + 1) + 1, reads
    assert instances * per_instance_per_period / CACHE_SECONDS < PARTITION_RCU / 100
