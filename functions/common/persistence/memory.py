"""What the in-memory repositories (the tests' and the contracts' reference stores) share."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def put_absent(items: dict[K, V], key: K, value: V) -> bool:
    """Store ``value`` under ``key`` unless ``key`` is there: DynamoDB's ``attribute_not_exists`` put, in a dict
    (the caller holds its store's lock). True if it was stored."""
    if key in items:
        return False
    items[key] = value
    return True
