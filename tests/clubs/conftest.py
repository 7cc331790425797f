"""Fixtures of the clubs tests (beside the functions' tables, clock and games API of tests/fixtures.py): the clubs
repository on each store, the clubs function."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock
from tests.stores import STORES, on_each_store


@pytest.fixture(params=STORES)
def repository(request):
    """The clubs repository on each store."""
    from common.clubs.repository import DynamoClubs, InMemoryClubs

    return on_each_store(request, InMemoryClubs, DynamoClubs)


@pytest.fixture
def clubs(clock):
    from clubs import handler as module

    return Function(module, on_clock(clock))
