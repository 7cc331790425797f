"""Fixtures of the per-client limit tests (beside the functions' tables, moto or dynalite, in tests/fixtures.py):
the limiter's manual clock (Powertools' ``dependency_overrides``), the API through CloudFront."""

from __future__ import annotations

import pytest

from tests.fixtures import on_clock


@pytest.fixture
def limit_clock(clock):
    """The limiter's clock, moved only by the test: the function's own (one clock per function; the buckets'
    store is DynamoDB, from RATE_LIMIT_TABLE). The validate function's resolver reads it too."""
    from validate_move import handler as validate

    validate.app.dependency_overrides.update(on_clock(clock))
    yield clock
    validate.app.dependency_overrides.clear()


#: The origin secret of these tests: with it set, the functions trust CloudFront's viewer address.
ORIGIN_SECRET = "ratelimit-tests-origin-secret"


def via_cloudfront(viewer_address: str | None) -> dict[str, str]:
    """The headers CloudFront adds to a request from ``viewer_address`` (None: no viewer header)."""
    headers = {"x-origin-verify": ORIGIN_SECRET}
    if viewer_address is not None:
        headers["cloudfront-viewer-address"] = viewer_address
    return headers


@pytest.fixture
def api(moto_tables, handler):
    """The games function's API, through CloudFront."""
    from tests.games.client import Api

    through_cloudfront = Api(handler)
    through_cloudfront.headers = via_cloudfront(None)
    return through_cloudfront


@pytest.fixture(autouse=True)
def origin_secret(monkeypatch):
    """The functions check the origin secret, as deployed: a request must carry it (``via_cloudfront``)."""
    monkeypatch.setenv("ORIGIN_VERIFY", ORIGIN_SECRET)
