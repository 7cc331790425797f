"""Fixtures of the review tests through the API: the tables of template.yaml on moto (tests/fixtures.py), the
games and puzzles functions on one clock, a review queue that records what it is sent, and the review worker on
the same tables."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock


class RecordingQueue:
    """The review queue as the games function sees it: what was sent, in order."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, game_id: str) -> None:
        self.sent.append(game_id)


@pytest.fixture
def queue() -> RecordingQueue:
    return RecordingQueue()


@pytest.fixture
def apis(moto_tables, queue, clock):
    """(games API, puzzles API) on moto, on one ``clock``, the games function sending reviews to ``queue``."""
    from games import handler as games_handler
    from puzzles_api import handler as puzzles_handler

    from tests.games.client import Api
    from tests.puzzles_api.client import PuzzlesApi

    games_overrides = {**on_clock(clock), games_handler.review_queue: lambda: queue}
    games = Function(games_handler, games_overrides)
    puzzles = Function(puzzles_handler, on_clock(clock))
    return Api(games), PuzzlesApi(puzzles, games)
