"""The daily puzzle's notification, at 08:00 in each subscriber's time zone (opt-in: the ``daily_puzzle`` kind).

A subscription that wants it carries ``daily_at`` (its next 08:00 local, epoch ms, from the ``tz`` it was
stored with) and ``daily_hour`` in the push table; the sparse index ``SubscriptionsByDailyHour`` holds only
those. Each sweep (ReminderFunction, every 15 minutes) reads the hours of the last day up to now, one Query
each, and for every due subscription first moves ``daily_at`` to the next 08:00 with a write conditional on
the value read (the claim: of two sweeps only one sends), then sends. At most once a day per subscription.
"""

from __future__ import annotations

from typing import Protocol

from aws_lambda_powertools import Logger
from push.domain import HOUR_MS, Subscription, next_daily_at
from push.repository import SubscriptionRepository

from notify.domain.texts import text
from notify.repository.sender import GONE, SENT, Push, Sender

logger = Logger(child=True)

#: Hours read by each sweep: a sweep that ran late, or sweeps missed for up to a day, still find their due.
LOOKBACK_HOURS = 26
TTL_SECONDS = 4 * 3600


class DailySubscriptions(Protocol):
    def due(self, hour: int, now_ms: int) -> list[tuple[str, Subscription, int]]: ...

    def claim(self, player_id: str, endpoint: str, daily_at: int, next_at: int) -> bool: ...


def payload(lang: str) -> dict[str, object]:
    words = text("daily_puzzle", lang, game="", opponent=None)
    return {
        "kind": "daily_puzzle",
        "game": None,
        "url": f"/{lang}/fumbo/",
        "title": words.title,
        "body": words.body,
        "tag": "daily_puzzle",
    }


class DailyPuzzles:
    def __init__(self, daily: DailySubscriptions, subscriptions: SubscriptionRepository, sender: Sender):
        self.daily = daily
        self.subscriptions = subscriptions
        self.sender = sender

    def sweep(self, now_ms: int) -> int:
        """Send the due daily-puzzle notifications; how many were sent."""
        sent = 0
        hour = now_ms // HOUR_MS
        for bucket in range(hour - LOOKBACK_HOURS, hour + 1):
            for player_id, subscription, daily_at in self.daily.due(bucket, now_ms):
                following = next_daily_at(now_ms, subscription.tz)  # a missed day is skipped, not sent late
                if not self.daily.claim(player_id, subscription.endpoint, daily_at, following):
                    continue  # another sweep has it
                outcome = self.sender.send(subscription, Push(payload(subscription.lang), TTL_SECONDS, "low"))
                if outcome == SENT:
                    sent += 1
                elif outcome == GONE:
                    self.subscriptions.delete(player_id, subscription.endpoint, created=subscription.created)
        logger.info("daily puzzle swept", extra={"sent": sent})
        return sent
