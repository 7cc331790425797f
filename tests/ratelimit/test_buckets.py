"""The token buckets themselves, in memory, on moto and on dynalite: the burst, the refill, the cost, the
wait they announce, the TTL attribute, and a race of many takers on one bucket (exactly the capacity wins)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from common.persistence import store
from common.web.ratelimit import DynamoBuckets, Limit, MemoryBuckets

from tests.stores import STORES, on_each_store

LIMIT = Limit("test", capacity=5, per_second=0.5, per_player=False)  # 5 at once, then one every 2 s
NOW = 1_750_000_000.0


@pytest.fixture(params=STORES)
def buckets(request):
    return on_each_store(request, MemoryBuckets, DynamoBuckets)


def test_a_full_bucket_gives_its_capacity_then_one_per_refill(buckets):
    assert [buckets.take("a", 1, LIMIT, NOW) for _ in range(5)] == [0.0] * 5
    assert buckets.take("a", 1, LIMIT, NOW) == pytest.approx(2.0)  # the next token is 2 s away
    assert buckets.take("a", 1, LIMIT, NOW + 1.0) == pytest.approx(1.0)
    assert buckets.take("a", 1, LIMIT, NOW + 2.0) == 0.0
    assert buckets.take("a", 1, LIMIT, NOW + 2.0) > 0
    assert buckets.take("b", 1, LIMIT, NOW) == 0.0  # another client's bucket is its own


def test_a_cost_takes_that_many_tokens_and_waits_for_them(buckets):
    assert buckets.take("a", 3, LIMIT, NOW) == 0.0
    assert buckets.take("a", 3, LIMIT, NOW) == pytest.approx(2.0)  # 2 left, 3 needed: one more token
    assert buckets.take("a", 2, LIMIT, NOW) == 0.0
    assert buckets.take("a", 6, LIMIT, NOW + 100) > 0  # more than a full bucket holds: never
    assert buckets.take("a", 5, LIMIT, NOW + 100) == 0.0  # a long pause fills it, never beyond 5


def test_a_refused_take_takes_nothing(buckets):
    for _ in range(5):
        buckets.take("a", 1, LIMIT, NOW)
    for _ in range(20):
        assert buckets.take("a", 1, LIMIT, NOW + 1.0) > 0
    assert buckets.take("a", 1, LIMIT, NOW + 2.0) == 0.0


def test_items_carry_a_ttl_past_the_moment_they_are_full(moto_tables):
    buckets = DynamoBuckets()
    buckets.take("a", 2, LIMIT, NOW)
    item = store.client().get_item(TableName=os.environ["RATE_LIMIT_TABLE"], Key={"pk": {"S": "a"}})["Item"]
    assert int(item["ready"]["N"]) == int((NOW + 4) * 1000)
    assert int(item["expires"]["N"]) == int(NOW) + 10 + 60  # a full bucket's window (10 s) and a minute
    # The template turns DynamoDB's TTL on for that attribute (CreateTable, as the tests use it, cannot).
    from local.template import Template

    table = Template().resources["RateLimitTable"]["Properties"]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires", "Enabled": True}


def test_many_takers_at_once_get_exactly_the_capacity(dynalite_tables):
    """Twelve threads take from a bucket of five at the same instant, on a real server: five win."""
    buckets = DynamoBuckets()
    store.client()  # made once, before the threads share it
    with ThreadPoolExecutor(12) as pool:
        waits = list(pool.map(lambda _: buckets.take("race", 1, LIMIT, NOW), range(12)))
    assert sorted(waits)[:5] == [0.0] * 5 and all(wait > 0 for wait in sorted(waits)[5:])
