"""Fixtures of the clubs tests: the template's tables on moto or dynalite (the community's fixtures: every
table of the template, ``CLUBS_TABLE`` among them), the clock, the clubs function."""

from __future__ import annotations

import pytest

from tests.community.conftest import (  # noqa: F401 - fixtures
    Function,
    api,
    aws_env,
    clock,
    dynalite_server,
    dynalite_tables,
    handler,
    moto_tables,
    on_clock,
    template_tables,
)
from tests.stores import STORES, on_each_store


@pytest.fixture(params=STORES)
def repository(request):
    """The clubs repository on each store."""
    from common.clubs.repository import DynamoClubs, InMemoryClubs

    return on_each_store(request, InMemoryClubs, DynamoClubs)


@pytest.fixture
def clubs(clock):  # noqa: F811
    from clubs import handler as module

    return Function(module, on_clock(clock))
