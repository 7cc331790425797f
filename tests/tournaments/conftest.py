"""Fixtures of the tournaments tests: the template's tables on moto or dynalite (tests/fixtures.py), the
tournaments table's name in the environment, the function on the test's clock."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock


def _point_at(monkeypatch, tables: list[dict]) -> None:
    from common.persistence import store

    name = next(table["TableName"] for table in tables if table["TableName"].startswith("TournamentsTable"))
    monkeypatch.setenv("TOURNAMENTS_TABLE", name)
    store.reset_clients()


@pytest.fixture(params=["moto", "dynalite"])
def tables(request, monkeypatch):
    """The same test on moto and on a real dynalite server."""
    found = request.getfixturevalue("moto_tables" if request.param == "moto" else "dynalite_tables")
    _point_at(monkeypatch, found)
    return request.param


@pytest.fixture
def moto(request, monkeypatch):
    _point_at(monkeypatch, request.getfixturevalue("moto_tables"))


class Apis:
    """The games function (players, games) and the tournaments function, as API Gateway calls them."""

    def __init__(self, manual_clock):
        from games import handler as games_handler
        from tournaments import handler as tournaments_handler

        from tests.games.client import Api

        self.clock = manual_clock
        overrides = on_clock(manual_clock)
        self.games = Api(Function(games_handler, overrides))
        self.app = Function(tournaments_handler, overrides).create_app()

    def call(self, method: str, path: str, body=None, token: str | None = None, query: dict | None = None):
        from tests.games.client import invoke

        return invoke(self.app, "TournamentsFunction", method, path, body=body, token=token, query=query)


@pytest.fixture
def apis(request):
    return Apis(request.getfixturevalue("clock"))
