"""Section ``puzzles``: the puzzles function's requests."""

from __future__ import annotations

import time

from tests.bench.common import _function, _moto_environment, _no_limits, _validate_event, best_of, heading
from tests.bench.replay import _StoreMeter


class _BenchClock:
    """The real time, moved on by the bench to end a puzzle's rating period without waiting."""

    def __init__(self):
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def bench_puzzles() -> None:
    """DynamoDB reads and writes per puzzles request, item sizes, and the warm attempt vs the validate request."""

    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from common.players.repository import PlayerStore, player_record
        from common.players.service import hash_token
        from games import handler as games_handler
        from puzzles_api import handler
        from puzzles_api.domain import puzzle_rating
        from validate_move.handler import lambda_handler as validate_handler

        from local.dynamodb import create_tables, table_definitions
        from local.events import LambdaContext
        from puzzles.catalog import load
        from tests.checks import known
        from tests.puzzles_api.client import PuzzlesApi
        from tests.puzzles_api.sets import find

        store.reset_clients(session=True)
        create_tables(table_definitions())
        from tests.fixtures import Function, on_clock

        clock = _BenchClock()
        api = PuzzlesApi(Function(handler, {**_no_limits(), **on_clock(clock)}), _function(games_handler))
        meter = _StoreMeter(store)
        token = api.new_player()
        puzzle = find("chess-000Zo")  # Re1+ Kf2 Rf1#

        heading("puzzles: DynamoDB calls per request (moto)")
        steps = [
            ("daily puzzle", lambda: api.daily("chess")),
            ("puzzle by id", lambda: api.call("GET", f"/v1/puzzles/{puzzle.id}")),
            ("attempt, going on, no token", lambda: api.attempt(puzzle.id, ["Re1+"])),
            ("attempt, going on, with a token", lambda: api.attempt(puzzle.id, ["Re1+"], token)),
            ("attempt, finished, first (counts)", lambda: api.attempt(puzzle.id, ["Re1+", "Rf1#"], token)),
            ("attempt, finished, played again", lambda: api.attempt(puzzle.id, ["Re1+", "Rf1#"], token)),
            ("next puzzle", lambda: api.call("GET", "/v1/puzzles/next", token=token, query={"game": "chess"})),
            (
                "next puzzle with a theme",
                lambda: api.call("GET", "/v1/puzzles/next", token=token, query={"game": "chess", "theme": "fork"}),
            ),
            (
                "pack of 20 (offline)",
                lambda: api.call("GET", "/v1/puzzles/pack", token=token, query={"game": "english", "count": 20}),
            ),
            ("progress, new time zone", lambda: api.progress(token, "Asia/Manila")),
            ("progress", lambda: api.progress(token, "Asia/Manila")),
        ]
        print(f"{'request':<40}{'reads':>7}{'writes':>8}")
        for label, step in steps:
            with meter:
                step()
            print(f"{label:<40}{meter.reads:>7}{meter.writes:>8}")
        for other in load("english")[:22]:  # a full history: the progress at its usual largest
            api.attempt(other.id, list(other.solution[::2]), token)
        import gzip

        packs = [
            api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game, "count": 20}).text.encode()
            for game in ("chess", "english", "tanzanian")
        ]
        print(
            f"offline puzzles (20 per game, three games): {sum(map(len, packs)) / 1024:.1f} KB of JSON, "
            f"{sum(len(gzip.compress(p)) for p in packs) / 1024:.1f} KB gzipped"
        )
        clock.advance(puzzle_rating.FOLD_SECONDS + puzzle_rating.CACHE_SECONDS + 1)
        with meter:
            api.call("GET", f"/v1/puzzles/{puzzle.id}")
        print(f"{'puzzle by id, its period over (a fold)':<40}{meter.reads:>7}{meter.writes:>8}")
        player = player_record(known(PlayerStore().get(hash_token(token))))
        attempt = store.from_item(store.client().scan(TableName="PuzzleProgressTable", Limit=1)["Items"][0])
        print(
            f"item sizes: player with its puzzle progress {store.item_size(player)} B (limit 1,024), "
            f"an attempt {store.item_size(attempt)} B"
        )

        heading("puzzles: warm attempt request vs the validate request (the same chess position; moto)")
        context = LambdaContext(function_name="bench")
        validate_event = _validate_event({"game": "chess", "fen": puzzle.fen, "move": "Re1+"})
        validate = best_of(lambda: validate_handler(validate_event, context), repeat=5, number=200)
        going_on = best_of(lambda: api.attempt(puzzle.id, ["Re1+"]), repeat=5, number=200)
        print(f"validate request (Re1+)            {validate * 1e3:7.2f} ms")
        print(f"attempt request (Re1+, no token)   {going_on * 1e3:7.2f} ms  {going_on / validate:.2f}x validate")
