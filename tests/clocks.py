"""The clocks the tests give the functions in place of the wall clock (the one thing besides AWS a test mocks)."""

from __future__ import annotations

START = 1_750_000_000.0  # 2025-06-15T15:06:40Z: any fixed instant; the tests move the clock by hand


class ManualClock:
    """A clock that reads ``now`` (epoch seconds), moved only by the test."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float = 0, hours: float = 0, days: float = 0) -> None:
        self.now += seconds + hours * 3_600 + days * 86_400


class TickingClock(ManualClock):
    """A clock a second further on at each reading (games made one after another are made in that order)."""

    def __call__(self) -> float:
        self.now += 1
        return self.now
