"""ReminderFunction: every 15 minutes, the reminders due (``notify.service.reminders``), the live turns run out,
and the daily puzzle's notification (``notify.service.daily``); docs/notifications.md.

``create_handler`` builds its parts explicitly (the games table, the reminder marks, the pushes), once per
instance on the first sweep; a test or the local runner gives its own clock or pushes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from common.web import metrics

from notify.handler import Clock, Pushes, pushes_from_environment
from notify.service.daily import DailyPuzzles
from notify.service.reminders import Reminders, Settle

logger = Logger()


@dataclass(frozen=True)
class SweepParts:
    reminders: Reminders
    daily: DailyPuzzles


def settle_live(clock: Clock) -> Settle:
    """The games service on the games table, for the live turns the sweep finds run out; with the ratings, so a
    game the computer's move ends here is rated and counted in its players' results as at any other end."""
    from games.ratings.repository import RatingStore
    from games.ratings.service import GameRatings
    from games.repository import dynamodb_games
    from games.service import GamesService

    def settle(game_id: str, now_ms: int) -> object:
        ratings = GameRatings(RatingStore(), clock)
        return GamesService(dynamodb_games(), clock=clock, ratings=ratings).settle(game_id, now_ms)

    return settle


def parts_from_environment(clock: Clock = time.time, pushes: Pushes | None = None) -> SweepParts:
    from push.repository import DynamoDailySubscriptions, DynamoReminderMarks

    from notify.repository.games import StoredDueGames

    pushes = pushes or pushes_from_environment(clock)
    reminders = Reminders(StoredDueGames(), DynamoReminderMarks(), pushes.notifier(), settle_live(clock))
    return SweepParts(reminders, DailyPuzzles(DynamoDailySubscriptions(), pushes.subscriptions, pushes.sender))


class ReminderFunction:
    """ReminderFunction's handler: one sweep of the reminders and one of the daily puzzle per invocation."""

    def __init__(self, clock: Clock, build: Callable[[], SweepParts]):
        self.clock = clock
        self._parts = cache(build)
        self._handle = logger.inject_lambda_context(self._sweep)

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        return dict(self._handle(event, context))

    def _sweep(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        now_ms = int(self.clock() * 1000)
        try:
            parts = self._parts()
            report = parts.reminders.sweep(now_ms)
            daily = parts.daily.sweep(now_ms)
        finally:
            metrics.flush()  # the sweep's PushSent and PushFailed, one line
        return {
            "due": report.due,
            "reminded": report.reminded,
            "skipped": report.skipped,
            "settled": report.settled,
            "daily": daily,
        }


def create_handler(clock: Clock = time.time, pushes: Pushes | None = None) -> ReminderFunction:
    """The handler on ``clock``, its parts built from the environment (with ``pushes`` if given)."""
    return ReminderFunction(clock, lambda: parts_from_environment(clock, pushes))


lambda_handler = create_handler()
