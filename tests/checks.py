"""Small checks the tests share."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def known(value: T | None) -> T:
    """``value``, which the test expects to be there (the test fails if it is None)."""
    assert value is not None
    return value
