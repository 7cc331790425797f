"""Fixtures of the push tests: the template's tables on moto, players, an injected clock, subscriptions."""

from __future__ import annotations

import base64
import os

import pytest
from moto import mock_aws  # before any DynamoDB client is made

from local.dynamodb import create_tables, table_definitions
from local.template import Template
from tests.clocks import START, ManualClock


@pytest.fixture(scope="session")
def template_tables() -> list[dict]:
    return table_definitions(Template())


@pytest.fixture
def aws(monkeypatch, tmp_path, template_tables):
    """Every table of the template on moto, the functions' environment pointing at them, local push mode."""
    from common.persistence import store

    for name in ("AWS_PROFILE", "DYNAMODB_ENDPOINT", "SITE_URL", "VAPID_SECRET_ARN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
        "GAMES_TABLE": "GamesTable",
        "PLAYERS_TABLE": "PlayersTable",
        "PUSH_TABLE": "PushTable",
        "RATE_LIMIT_TABLE": "RateLimitTable",  # as on Lambda: fresh buckets per test, not this process's
        "PUSH_LOCAL_MODE": "1",
        "VAPID_KEY_FILE": str(tmp_path / "vapid.json"),
    }.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        store.reset_clients()
        create_tables(template_tables)
        yield
    store.reset_clients()


@pytest.fixture(scope="session")
def dynalite_endpoint():
    """A real dynalite server (in memory) for this session; skipped without Node.js or the npm package."""
    from local.dynamodb import CLI, Dynalite, node_executable

    if node_executable() is None or not CLI.is_file():
        pytest.skip("dynalite needs Node.js and `make node`")
    with Dynalite() as server:
        yield server.endpoint


@pytest.fixture
def dynalite(monkeypatch, tmp_path, template_tables, dynalite_endpoint):
    """The template's tables on dynalite, under names of their own, and the environment pointing at them."""
    import uuid

    from common.persistence import store

    suffix = "_" + uuid.uuid4().hex[:8]
    for name, value in {
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_REGION": "us-east-1",
        "DYNAMODB_ENDPOINT": dynalite_endpoint,
        "GAMES_TABLE": "GamesTable" + suffix,
        "PLAYERS_TABLE": "PlayersTable" + suffix,
        "PUSH_TABLE": "PushTable" + suffix,
        "RATE_LIMIT_TABLE": "RateLimitTable" + suffix,
    }.items():
        monkeypatch.setenv(name, value)
    store.reset_clients()
    create_tables([{**table, "TableName": table["TableName"] + suffix} for table in template_tables])
    yield
    store.reset_clients()


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def push_api(aws, clock):
    from push import handler

    from tests.games.conftest import on_clock

    handler.app.dependency_overrides.update(on_clock(clock))
    yield handler
    handler.app.dependency_overrides.clear()


@pytest.fixture
def new_player(aws):
    """A player made as POST /v1/players makes one (``common.players.service``); returns (player_id, token)."""
    from common.players.service import Players

    def make(name: str = "Asha") -> tuple[str, str]:
        player, token = Players().create(name, now_ms=int(START * 1000))
        return player.player_id, token

    return make


def browser_keys() -> dict:
    """A subscription's keys as a browser makes them: a fresh P-256 point and 16 random bytes."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64(point), "auth": b64(os.urandom(16))}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.fixture(scope="session")
def catalogs():
    """The site's catalogs compiled (what `make site` and `make package` do), for the notifications' texts."""
    import sys

    from local.template import ROOT

    site = str(ROOT / "site")
    if site not in sys.path:
        sys.path.insert(0, site)
    import build_site

    build_site.compile_catalogs()


@pytest.fixture
def push_service():
    from local.push_service import PushService

    with PushService() as service:
        yield service


@pytest.fixture
def games_api(aws, clock):
    """The games function (its API, as a player's browser calls it), on the same tables and clock."""
    from games import handler

    from tests.games.client import Api
    from tests.games.conftest import Function, on_clock

    return Api(Function(handler, on_clock(clock)))


@pytest.fixture
def waits() -> list[float]:
    """The sender's waits between retries, recorded instead of slept."""
    return []


@pytest.fixture
def notify(aws, clock, catalogs, waits):
    """The notify function's handler, sending for real (pywebpush) with the local VAPID key."""
    from notify.handler import stream
    from notify.repository.sender import WebPushSender
    from push.vapid import vapid_key

    sender = WebPushSender(vapid_key().signer(), "mailto:test@ubao.invalid", sleep=waits.append)
    return stream.create_handler(sender=sender, clock=clock)
