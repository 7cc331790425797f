"""Fixtures of the community tests (beside the functions' tables, clock and games API of tests/fixtures.py): the
community repository on each store, the community function."""

from __future__ import annotations

from community.repository import DynamoCommunity, InMemoryCommunity

from tests.fixtures import function_fixture
from tests.stores import repository_fixture

repository = repository_fixture(InMemoryCommunity, DynamoCommunity)
community = function_fixture("community")
