"""Fixtures of the community tests (beside the functions' tables, clock and games API of tests/fixtures.py): the
community repository on each store, the community function."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock
from tests.stores import STORES, on_each_store


@pytest.fixture(params=STORES)
def repository(request):
    """The community repository on each store."""
    from community.repository import DynamoCommunity, InMemoryCommunity

    return on_each_store(request, InMemoryCommunity, DynamoCommunity)


@pytest.fixture
def community(clock):
    from community import handler as module

    return Function(module, on_clock(clock))
