"""Fixtures of the puzzles API tests: the puzzles function beside the games function (which makes players), on
the tables (moto or a real dynalite server) and the clock of tests/fixtures.py."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock


@pytest.fixture
def handlers(clock):
    """The puzzles function, and the games function (which makes players), both on the test's clock."""
    from games import handler as games
    from puzzles_api import handler as puzzles

    return Function(puzzles, on_clock(clock)), Function(games, on_clock(clock))


@pytest.fixture
def api(moto_tables, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    return PuzzlesApi(*handlers)


@pytest.fixture
def dynalite_api(dynalite_tables, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    return PuzzlesApi(*handlers)
