"""Where the rate limits' buckets are kept: ``BucketRepository``, in this process (``MemoryBuckets``) or in
``RateLimitTable`` (``DynamoBuckets``, every request through ``common.persistence.store``). The limits
themselves are ``common.web.ratelimit``'s."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence import store
from common.persistence.table import DynamoTable
from common.ratelimit.domain import Limit, next_ready, wait_seconds

if TYPE_CHECKING:
    from common.persistence.operations import Sender

#: Extra seconds an item lives past the moment its bucket is full again (then a missing item means full).
TTL_MARGIN_SECONDS = 60


class BucketRepository(Protocol):
    def take(self, key: str, cost: float, limit: Limit, now: float) -> float:
        """Take ``cost`` tokens from bucket ``key``: 0 when taken, else the seconds until they are there."""


class MemoryBuckets:
    """Buckets in a dict: for tests and for code that has no table."""

    def __init__(self) -> None:
        self.ready_at: dict[str, float] = {}
        self._lock = threading.Lock()

    def take(self, key: str, cost: float, limit: Limit, now: float) -> float:
        if cost > limit.capacity:
            return cost / limit.per_second  # more than a full bucket holds: never, as in DynamoBuckets
        with self._lock:
            ready = next_ready(self.ready_at.get(key), cost, limit, now)
            if ready is None:
                return wait_seconds(self.ready_at[key], cost, limit, now)
            self.ready_at[key] = ready
            return 0.0


class DynamoBuckets(DynamoTable, env="RATE_LIMIT_TABLE", default="RateLimitTable"):
    """Buckets as items of ``RateLimitTable``: ``pk`` the bucket, ``ready`` the instant (ms) it is full again,
    ``expires`` the TTL (seconds) after which DynamoDB deletes an item no one needs.

    Taking tokens is one ``UpdateItem`` whose condition is the bucket having them, in one of two forms (an
    update expression cannot take a maximum): an idle bucket (``ready`` absent or past) is set to
    now + cost; a busy one is moved on by the cost, on the condition that it stays within the capacity. A
    refused busy bucket costs one read more, to say when to come back. No transactions: as on dynalite.
    """

    def take(self, key: str, cost: float, limit: Limit, now: float) -> float:
        now_ms = int(now * 1000)
        cost_ms = math.ceil(cost / limit.per_second * 1000)
        window_ms = int(limit.capacity / limit.per_second * 1000)
        if cost > limit.capacity:
            return cost / limit.per_second  # more than a full bucket holds: never
        expires = (now_ms + window_ms) // 1000 + TTL_MARGIN_SECONDS
        common: dict[str, Any] = {"TableName": self.table, "Key": {"pk": {"S": key}}}
        values = {":now": _number(now_ms), ":expires": _number(expires)}
        idle = _call(
            "update_item",
            **common,
            UpdateExpression="SET #ready = :after, #expires = :expires",
            ConditionExpression="attribute_not_exists(#ready) OR #ready <= :now",
            ExpressionAttributeNames={"#ready": "ready", "#expires": "expires"},
            ExpressionAttributeValues={**values, ":after": _number(now_ms + cost_ms)},
        )
        if idle is not None:
            return 0.0
        busy = _call(
            "update_item",
            **common,
            UpdateExpression="SET #ready = #ready + :cost, #expires = :expires",
            ConditionExpression="#ready > :now AND #ready <= :latest",
            ExpressionAttributeNames={"#ready": "ready", "#expires": "expires"},
            ExpressionAttributeValues={
                **values,
                ":cost": _number(cost_ms),
                ":latest": _number(now_ms + window_ms - cost_ms),
            },
        )
        if busy is not None:
            return 0.0
        answer = _call("get_item", **common, ConsistentRead=True)
        item = (answer or {}).get("Item")
        if not item:
            return 0.0  # it expired between the two writes: full; the next request takes from it
        ready_ms = int(item["ready"]["N"])
        return max(0.001, (ready_ms + cost_ms - window_ms - now_ms) / 1000)


def forget_buckets(keys: list[str], table: str | None = None) -> None:
    """Delete these buckets ("Delete my data": a player's own, by the digest of their token)."""
    name = table or DynamoBuckets.table_name()
    for key in keys:
        _call("delete_item", TableName=name, Key={"pk": {"S": key}})


def _number(value: int) -> dict[str, str]:
    return {"N": str(int(value))}


def _send(operation: str, **params: Any) -> dict[str, Any] | None:
    """One DynamoDB call through the store's ``call``, so it fits in the request's time like every other: None
    when its condition failed; ``StoreUnavailable`` for any other failure (a refused request included, such as
    a missing permission: ``charge`` lets the request through and logs it)."""
    from botocore.exceptions import ClientError

    by_name: Callable[..., dict[str, Any] | None] = store.call  # each call's parameters are checked as ``_call``'s
    try:
        return by_name(operation, **params)
    except ClientError as error:
        raise store.StoreUnavailable() from error


_call: Sender[None] = _send


def default_buckets(in_process: BucketRepository | None = None) -> BucketRepository:
    """DynamoDB when ``RATE_LIMIT_TABLE`` names a table (on Lambda and in ``make run`` the template sets it; read
    on every request, as tests switch tables); else ``in_process``, the buckets of the caller's own keeping (a
    resolver keeps one: ``common.web.api.Api``), or new ones."""
    table = os.environ.get("RATE_LIMIT_TABLE")
    if table:
        return DynamoBuckets(table)
    return in_process if in_process is not None else MemoryBuckets()
