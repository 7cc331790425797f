"""Fixtures of the unit tier: the games service on its in-memory store (the clock is tests/fixtures.py's, or a
test module's own)."""

from __future__ import annotations

import pytest


@pytest.fixture
def store():
    from games.repository import InMemoryGameStore

    return InMemoryGameStore()


@pytest.fixture
def service(store, clock):
    from games.repository import in_memory_games
    from games.service import GamesService

    return GamesService(in_memory_games(store), clock=clock)
