"""Fixtures of the tournaments tests (beside the template's tables on moto or dynalite of tests/fixtures.py): the
games and tournaments functions on the test's clock."""

from __future__ import annotations

import pytest

from tests.fixtures import Function, on_clock


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
