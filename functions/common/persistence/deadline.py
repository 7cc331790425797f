"""The time a request has left, and how much of it one store call may spend.

On Lambda a request that outlives the function's timeout is cut off and API Gateway answers a generic 5xx,
not our JSON. So every store call gets a total budget (connect, read and retries) that fits in the time the
request has left, less ``MARGIN_SECONDS`` to answer: the handler starts the clock from the Lambda context
(``start``), the store asks ``call_budget`` before each call, and when even the smallest budget does not fit
the call is not made and the request answers 503 with ``Retry-After`` (``StoreUnavailable``).

What a 503 means for a write (docs/games.md): the write may or may not be stored. Every write of the API is
safe to send again (a move with the same ``ply`` is recognised), so the client retries the same request.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from common.errors import DomainError

#: Seconds a client should wait before retrying after a 503 caused by the store.
RETRY_AFTER_SECONDS = 1
#: Time kept back from every store budget to build and send the answer (and log), in seconds.
MARGIN_SECONDS = 1.0


class StoreUnavailable(DomainError, code="store_unavailable"):
    """The store cannot answer now (throttled, failing, unreachable, or no time left): 503, retry later."""

    retry_after = RETRY_AFTER_SECONDS

    def __init__(self, message: str = "the game store is busy; try again in a moment") -> None:
        super().__init__(message)


@dataclass(frozen=True)
class CallBudget:
    """The botocore settings of one store call; ``worst_seconds`` is the longest the call can take."""

    connect_seconds: float
    read_seconds: float
    attempts: int

    @property
    def worst_seconds(self) -> float:
        # botocore's standard retry mode waits at most 2**(n-1) seconds before the n-th retry.
        backoff = sum(2 ** (retry - 1) for retry in range(1, self.attempts))
        return float(self.attempts * (self.connect_seconds + self.read_seconds) + backoff)


#: From the most patient to the least; a call takes the first that fits in the time left. DynamoDB answers
#: in milliseconds, so even the last leaves room for a slow answer.
BUDGETS = (
    CallBudget(connect_seconds=0.5, read_seconds=1.5, attempts=2),  # 5 s
    CallBudget(connect_seconds=0.5, read_seconds=1.0, attempts=1),  # 1.5 s
    CallBudget(connect_seconds=0.25, read_seconds=0.5, attempts=1),  # 0.75 s
)

_deadline: ContextVar[float | None] = ContextVar("store_deadline", default=None)


@contextmanager
def request_clock(context: Any) -> Iterator[None]:
    """The request's deadline, from the Lambda context (``get_remaining_time_in_millis``), while it runs;
    none without a context (scripts, table administration)."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    token = _deadline.set(time.monotonic() + float(remaining()) / 1000 if callable(remaining) else None)
    try:
        yield
    finally:
        _deadline.reset(token)


def seconds_left() -> float | None:
    """Seconds before the request must have answered (the margin already taken off), or None: no deadline."""
    deadline = _deadline.get()
    return None if deadline is None else deadline - MARGIN_SECONDS - time.monotonic()


def call_budget() -> CallBudget:
    """The budget of the next store call; ``StoreUnavailable`` when not even the smallest one fits."""
    left = seconds_left()
    if left is None:
        return BUDGETS[0]
    for budget in BUDGETS:
        if budget.worst_seconds <= left:
            return budget
    raise StoreUnavailable("the request ran out of time waiting for the store; send it again")
