"""ubao's own metrics, in CloudWatch embedded metric format (Powertools Metrics): no API call, no latency.

Each request's counts leave as one JSON line in the function's log when the request ends
(``common.web.edge`` calls ``flush``); CloudWatch Logs turns the line into metrics in the namespace
``POWERTOOLS_METRICS_NAMESPACE`` (``ubao`` in template.yaml) with the dimension ``service``. The dashboard
and docs/operations.md use these names:

    MovesPlayed      a move stored (a player's or the computer's)
    GamesCreated     a game stored (a new game or a rematch)
    GamesFinished    an event that ended a game (mate, resignation, draw, timeout ...)
    PuzzleAttempts   a finished attempt at a puzzle (solved or failed), with or without a token
    PuzzlesSolved    a finished attempt that solved it
    PushSent         a push notification accepted by the push service (notify.repository.sender, per batch and sweep)
    PushFailed       a push notification refused or undeliverable (likewise)
    Refusals         a 4xx answer, with the dimension ``reason``: the error code (one line of its own)

Each invocation counts in a set of its own (a context variable): Powertools' ``Metrics`` shares one set by
every instance in the process, and the local runner runs the stream's function on a thread beside a request,
so one's flush would iterate the set while the other adds to it ("dictionary changed size during iteration",
a 500 under load) or flush the other's counts as its own. On Lambda one invocation runs at a time; nothing
changes there.
"""

from __future__ import annotations

import os
from contextvars import ContextVar

from aws_lambda_powertools.metrics import EphemeralMetrics, MetricUnit, single_metric

MOVES_PLAYED = "MovesPlayed"
GAMES_CREATED = "GamesCreated"
GAMES_FINISHED = "GamesFinished"
PUZZLE_ATTEMPTS = "PuzzleAttempts"
PUZZLES_SOLVED = "PuzzlesSolved"
PUSH_SENT = "PushSent"
PUSH_FAILED = "PushFailed"
REFUSALS = "Refusals"
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "ubao"

#: This invocation's counts (see the module's docstring): made on its first count, emptied by ``flush``.
_current: ContextVar[EphemeralMetrics | None] = ContextVar("ubao_metrics", default=None)


def _metrics() -> EphemeralMetrics:
    found = _current.get()
    if found is None:
        found = EphemeralMetrics(namespace=NAMESPACE)
        _current.set(found)
    return found


def count(name: str, value: int = 1) -> None:
    _metrics().add_metric(name=name, unit=MetricUnit.Count, value=value)


def game_event(kind: str, state_before: str | None, state_after: str) -> None:
    """A game event was stored, taking the game from ``state_before`` (None: a new game) to ``state_after``."""
    if kind == "move":
        count(MOVES_PLAYED)
    elif kind == "create":
        count(GAMES_CREATED)
    if state_after == "finished" and state_before != "finished":
        count(GAMES_FINISHED)


def puzzle_attempt(solved: bool) -> None:
    count(PUZZLE_ATTEMPTS)
    if solved:
        count(PUZZLES_SOLVED)


def refusal(reason: str) -> None:
    """A 4xx by its error code: a line of its own, since ``reason`` is a dimension the other counts lack."""
    with single_metric(name=REFUSALS, unit=MetricUnit.Count, value=1, namespace=NAMESPACE) as metric:
        metric.add_dimension(name="reason", value=reason[:64] or "unknown")


def flush() -> None:
    """Write this request's counts (one EMF line), if there are any; called once per request."""
    found = _current.get()
    if found is not None and found.metric_set:
        found.flush_metrics()
