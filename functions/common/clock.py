"""How a service reads the time: its ``clock`` (epoch seconds: ``time.time`` on Lambda, a test's own clock in the
tests, the only thing besides AWS a test replaces)."""

from __future__ import annotations

from collections.abc import Callable


class Clocked:
    """A service with a ``clock``: ``now_ms()`` is its reading in epoch milliseconds, as the stores keep time."""

    clock: Callable[[], float]

    def now_ms(self) -> int:
        return int(self.clock() * 1000)
