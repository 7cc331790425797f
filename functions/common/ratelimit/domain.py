"""A limit's shape and the arithmetic of its bucket (GCRA: a bucket is the instant it will be full again)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    name: str
    capacity: float  # tokens a full bucket holds: the burst
    per_second: float  # tokens added back each second
    per_player: bool  # also a bucket per player (the address bucket always applies)
    address_capacity: float | None = None  # the address bucket's burst, when it differs (several players)
    address_per_second: float | None = None

    def for_address(self) -> Limit:
        if self.address_capacity is None:
            return self
        return Limit(self.name, self.address_capacity, self.address_per_second or self.per_second, False)


def next_ready(ready_at: float | None, cost: float, limit: Limit, now: float) -> float | None:
    """The bucket as the instant it will be full (GCRA): after taking ``cost``, or None if it lacks them.

    A bucket full at ``ready_at`` holds ``capacity - (ready_at - now) * per_second`` tokens now. Keeping the
    one instant instead of (tokens, time) is what lets DynamoDB update it with one conditional expression.
    """
    base = max(ready_at or now, now)
    after = base + cost / limit.per_second
    if after - now > limit.capacity / limit.per_second:
        return None
    return after


def wait_seconds(ready_at: float, cost: float, limit: Limit, now: float) -> float:
    """How long until a bucket full at ``ready_at`` holds ``cost`` tokens."""
    return max(0.001, ready_at + cost / limit.per_second - limit.capacity / limit.per_second - now)
