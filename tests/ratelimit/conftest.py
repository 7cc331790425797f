"""Fixtures of the per-client limit tests: the games tests' tables (moto or dynalite) and a manual clock for the
limiter (``common.ratelimit.configure``)."""

from __future__ import annotations

import pytest

from tests.games.conftest import (  # noqa: F401 - fixtures
    ManualClock,
    api,
    aws_env,
    backend,
    clock,
    dynalite_server,
    dynalite_tables,
    handler,
    moto_tables,
    template_tables,
)


@pytest.fixture
def limit_clock():
    """The limiter's clock, moved only by the test (the buckets' store is DynamoDB, from RATE_LIMIT_TABLE)."""
    from common import ratelimit

    moment = ManualClock()
    ratelimit.configure(clock=moment)
    yield moment
    ratelimit.configure()
