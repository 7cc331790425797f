"""A clock the tests can move, for `make run` only (never deployed): with ``UBAO_LOCAL_CLOCK=1`` in its
environment the runner gives every function it imports this clock instead of the system's, and answers

    POST /v1/_local/clock  {"advance": seconds}   moves it on (never back); answers {"offset": seconds}
    POST /v1/_local/clock  {"pace": seconds}      moves on the clock of the rate limits and the live tickets
                                                  instead (``PACE``: an expired ticket without waiting a minute)
    POST /v1/_local/clock  {"reset": true}        both back to the system's time (a test that moved one, at its
                                                  end, so the next test on the same server reads true deadlines)

so a browser test or a benchmark can let a live table's 30-second turn run out at once instead of waiting for
it. Functions get it the way the tests give theirs, through their resolver's ``dependency_overrides`` of
``common.web.depends.clock``, and the reminder sweep through its handler built on this clock (``notify.handler.reminders.create_handler``).
"""

from __future__ import annotations

import json
import os
import threading
import time
from types import ModuleType
from typing import Any

CLOCK_PATH = "/v1/_local/clock"
VARIABLE = "UBAO_LOCAL_CLOCK"


class MovableClock:
    """The system's time plus an offset that only grows (seconds since the epoch, as ``time.time``)."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return time.time() + self.offset

    def reset(self) -> float:
        with self._lock:
            self.offset = 0.0
            return self.offset

    def advance(self, seconds: float) -> float:
        with self._lock:
            self.offset += max(0.0, seconds)
            return self.offset


CLOCK = MovableClock()
#: The rate limits' and live tickets' time (``common.web.depends.pace_clock``): apart from ``CLOCK``, because the
#: buckets and tickets are shared by every test on the server, and a bucket charged while a clock is ahead looks
#: empty for as long once it is set back.
PACE = MovableClock()


def enabled() -> bool:
    return os.environ.get(VARIABLE) == "1"


def give_to(module: ModuleType, attribute: str = "lambda_handler") -> Any:
    """The module's handler reading ``CLOCK``: its resolver's clock dependency, or a sweep built on it."""
    app = getattr(module, "app", None)
    overrides = getattr(app, "dependency_overrides", None)
    if isinstance(overrides, dict):
        from common.web import depends

        overrides[depends.clock] = lambda: CLOCK
        overrides[depends.pace_clock] = lambda **_: PACE  # Powertools passes it pace_clock's own ``now``
    if module.__name__ == "notify.handler.reminders" and attribute == "lambda_handler":
        return module.create_handler(clock=CLOCK)
    if module.__name__ == "tournaments.schedule" and attribute == "lambda_handler":  # issue 40
        return module.create_handler(clock=CLOCK)
    return getattr(module, attribute)


def install(server: Any) -> None:
    """Answer ``POST CLOCK_PATH`` on a LocalServer's API before any route does."""
    handle = server.api.handle

    def clocked(method: str, target: str, headers: Any, body: bytes, client_ip: str) -> Any:
        if method == "POST" and target.split("?")[0] == CLOCK_PATH:
            try:
                asked = json.loads(body or b"{}")
                seconds = float(asked.get("advance", 0))
                pace = float(asked.get("pace", 0))
            except (ValueError, AttributeError, TypeError):
                return 422, [("Content-Type", "application/json")], b'{"error": {"code": "invalid_request"}}'
            if asked.get("reset") is True:
                PACE.reset()
                offset = CLOCK.reset()
            else:
                PACE.advance(pace)
                offset = CLOCK.advance(seconds)
            return (
                200,
                [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                json.dumps({"offset": offset}).encode(),
            )
        return handle(method, target, headers, body, client_ip)

    server.api.handle = clocked
