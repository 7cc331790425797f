"""Fixtures of the per-client limit tests: the games tests' tables (moto or dynalite) and a manual clock for the
limiter (Powertools' ``dependency_overrides``)."""

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
    on_clock,
    template_tables,
)


@pytest.fixture
def limit_clock(clock):  # noqa: F811 - the clock fixture imported above
    """The limiter's clock, moved only by the test: the function's own (one clock per function; the buckets'
    store is DynamoDB, from RATE_LIMIT_TABLE). The validate function's resolver reads it too."""
    from validate_move import handler as validate

    validate.app.dependency_overrides.update(on_clock(clock))
    yield clock
    validate.app.dependency_overrides.clear()
