"""Fixtures of the clubs tests: the template's tables on moto or dynalite, the clock, the clubs function."""

from __future__ import annotations

import pytest

from tests.games.conftest import (  # noqa: F401 - fixtures
    Function,
    ManualClock,
    aws_env,
    clock,
    dynalite_server,
    handler,
    on_clock,
    template_tables,
)


@pytest.fixture
def moto_tables(aws_env, monkeypatch, template_tables):  # noqa: F811
    from common.persistence import store

    from tests.games import conftest as games

    monkeypatch.setenv("CLUBS_TABLE", "ClubsTable")
    with games.mock_aws():
        yield games._use_tables(monkeypatch, template_tables, "")
    store.reset_clients()


@pytest.fixture
def dynalite_tables(aws_env, monkeypatch, dynalite_server, template_tables):  # noqa: F811
    import uuid

    from common.persistence import store

    from tests.games import conftest as games

    suffix = "_" + uuid.uuid4().hex[:10]
    monkeypatch.setenv("DYNAMODB_ENDPOINT", dynalite_server.endpoint)
    monkeypatch.setenv("CLUBS_TABLE", "ClubsTable" + suffix)
    yield games._use_tables(monkeypatch, template_tables, suffix)
    store.reset_clients()


@pytest.fixture(params=["memory", "moto", "dynalite"])
def repository(request):
    """The clubs repository on each store."""
    from common.clubs.repository import DynamoClubs, InMemoryClubs

    if request.param == "memory":
        return InMemoryClubs()
    request.getfixturevalue("moto_tables" if request.param == "moto" else "dynalite_tables")
    return DynamoClubs()


@pytest.fixture
def clubs(clock):  # noqa: F811
    from clubs import handler as module

    return Function(module, on_clock(clock))


@pytest.fixture
def api(moto_tables, handler):  # noqa: F811
    from tests.games.client import Api

    return Api(handler)
