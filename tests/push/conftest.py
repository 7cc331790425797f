"""Fixtures of the push tests: the template's tables on moto in local push mode, players, subscriptions."""

from __future__ import annotations

import base64
import os

import pytest

from tests.clocks import START
from tests.fixtures import Function, on_clock
from tests.runner import own_dynalite


@pytest.fixture
def aws(moto_tables, local_push):
    """Every table of the template on moto, the functions' environment pointing at them, local push mode."""


@pytest.fixture(scope="session")
def dynalite_endpoint():
    """A real dynalite server (in memory) for this session's runners."""
    with own_dynalite() as endpoint:
        yield endpoint


@pytest.fixture
def push_api(aws, clock):
    from push import handler

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
