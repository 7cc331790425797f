"""What the repository contracts share: each runs on every store (in memory, moto, a real dynalite server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

#: The params of a fixture that gives a repository on each store.
STORES = ["memory", "moto", "dynalite"]


def on_each_store(request: pytest.FixtureRequest, memory: Callable[[], T], dynamo: Callable[[], T]) -> T:
    """A repository contract's store for the fixture's param: ``memory()``, or ``dynamo()`` once the tables of
    the store are made (by the fixture ``moto_tables`` or ``dynalite_tables``)."""
    param: Any = request.param
    if param == "memory":
        return memory()
    request.getfixturevalue(f"{param}_tables")
    return dynamo()
