"""Fixtures of the community tests: the template's tables on moto or dynalite, the clock, the functions."""

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
from tests.stores import STORES, on_each_store


@pytest.fixture
def moto_tables(aws_env, monkeypatch, template_tables):  # noqa: F811
    from tests.games import conftest as games

    monkeypatch.setenv("COMMUNITY_TABLE", "CommunityTable")
    monkeypatch.setenv("RATE_LIMIT_TABLE", "RateLimitTable")
    with games.mock_aws():
        yield games._use_tables(monkeypatch, template_tables, "")
    from common.persistence import store

    store.reset_clients()


@pytest.fixture
def dynalite_tables(aws_env, monkeypatch, dynalite_server, template_tables):  # noqa: F811
    import uuid

    from common.persistence import store

    from tests.games import conftest as games

    suffix = "_" + uuid.uuid4().hex[:10]
    monkeypatch.setenv("DYNAMODB_ENDPOINT", dynalite_server.endpoint)
    monkeypatch.setenv("COMMUNITY_TABLE", "CommunityTable" + suffix)
    monkeypatch.setenv("PUSH_TABLE", "PushTable" + suffix)
    yield games._use_tables(monkeypatch, template_tables, suffix)
    store.reset_clients()


@pytest.fixture(params=STORES)
def repository(request):
    """The community repository on each store."""
    from community.repository import DynamoCommunity, InMemoryCommunity

    return on_each_store(request, InMemoryCommunity, DynamoCommunity)


@pytest.fixture
def community(clock):  # noqa: F811
    from community import handler as module

    return Function(module, on_clock(clock))


@pytest.fixture
def api(moto_tables, handler):  # noqa: F811
    from tests.games.client import Api

    return Api(handler)


@pytest.fixture(params=["moto", "dynalite"])
def api_on_each_store(request, handler):  # noqa: F811
    """The games function on moto's tables, then on a real dynalite server's (a test's main path on both)."""
    from tests.games.client import Api

    request.getfixturevalue(f"{request.param}_tables")
    return Api(handler)
