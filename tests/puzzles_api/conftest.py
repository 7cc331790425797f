"""Fixtures of the puzzles API tests: DynamoDB on moto or on a real dynalite server, an injected clock, the API.

The tables come from template.yaml, as in tests/games (whose dynalite server and clock this reuses).
"""

from __future__ import annotations

import uuid

import pytest

# Imported before any test makes a DynamoDB client: moto hooks into every botocore session made after this.
from moto import mock_aws

from local.dynamodb import create_tables
from tests.games.conftest import (  # noqa: F401 - fixtures
    Function,
    ManualClock,
    aws_env,
    dynalite_server,
    on_clock,
    template_tables,
)

TABLE_VARIABLES = {
    "GamesTable": "GAMES_TABLE",
    "PlayersTable": "PLAYERS_TABLE",
    "PuzzleProgressTable": "PUZZLES_TABLE",
    "RateLimitTable": "RATE_LIMIT_TABLE",
}


def _use_tables(monkeypatch, definitions: list[dict], suffix: str) -> list[dict]:
    from common.persistence import store

    tables = [{**definition, "TableName": definition["TableName"] + suffix} for definition in definitions]
    for name, variable in TABLE_VARIABLES.items():
        monkeypatch.setenv(variable, name + suffix)
    store.reset_clients()
    create_tables(tables)
    return tables


@pytest.fixture
def moto_tables(aws_env, monkeypatch, template_tables):  # noqa: F811
    """Fresh tables on moto (AWS mocked in-process)."""
    from common.persistence import store

    with mock_aws():
        yield _use_tables(monkeypatch, template_tables, "")
    store.reset_clients()


@pytest.fixture
def dynalite_tables(aws_env, monkeypatch, dynalite_server, template_tables):  # noqa: F811
    """Fresh tables (unique names) on the session's dynalite server."""
    from common.persistence import store

    monkeypatch.setenv("DYNAMODB_ENDPOINT", dynalite_server.endpoint)
    yield _use_tables(monkeypatch, template_tables, "_" + uuid.uuid4().hex[:10])
    store.reset_clients()


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def handlers(clock):
    """The puzzles function, and the games function (which makes players), both on the test's clock."""
    from games import handler as games
    from puzzles_api import handler as puzzles

    return Function(puzzles, on_clock(clock)), Function(games, on_clock(clock))


@pytest.fixture
def api(moto_tables, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    return PuzzlesApi(*handlers)


@pytest.fixture
def dynalite_api(dynalite_tables, handlers):
    from tests.puzzles_api.client import PuzzlesApi

    return PuzzlesApi(*handlers)
