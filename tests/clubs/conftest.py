"""Fixtures of the clubs tests (beside the functions' tables, clock and games API of tests/fixtures.py): the clubs
repository on each store, the clubs function."""

from __future__ import annotations

from common.clubs.repository import DynamoClubs, InMemoryClubs

from tests.fixtures import function_fixture
from tests.stores import repository_fixture

repository = repository_fixture(InMemoryClubs, DynamoClubs)
clubs = function_fixture("clubs")
