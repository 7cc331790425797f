"""Delivering a notice to each of the player's subscriptions that wants its kind, in that subscription's language.

The payload the service worker shows: ``{"kind", "game", "url", "title", "body", "tag"}``; ``tag`` is
``game:<id>`` so a phone keeps one notification per game, the newest; ``url`` is the game page in the
subscription's language, relative to the site (the service worker's origin). A subscription the push
service calls gone (404/410) is deleted here, conditionally on the version that was used, so a browser
that subscribed again meanwhile keeps its new subscription.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from aws_lambda_powertools import Logger
from push.repository import SubscriptionRepository

from notify.domain.decide import Notice
from notify.domain.texts import text
from notify.repository.sender import GONE, SENT, Push, Sender

logger = Logger(child=True)

HOUR = 3600
DAY = 24 * HOUR
#: (TTL seconds, Urgency) and the messages sent so: how long a push may wait for an offline phone, and how
#: soon it matters. A day and normal for what asks the player to act; a day and low for what only tells.
_DELIVERIES: dict[tuple[int, str], tuple[str, ...]] = {
    (DAY, "normal"): (
        "moved",
        "joined",
        "accepted",
        "draw_offered",
        "taken_over",
        "tournament_game",
        "tournament_started",
        "challenged",
    ),
    (DAY, "low"): ("won", "lost", "drawn", "review_ready", "tournament_won"),
    (12 * HOUR, "normal"): ("reminder_24h",),
    (2 * HOUR, "high"): ("reminder_2h",),
    (10 * 60, "high"): ("arena_soon",),  # worth nothing once the arena has begun
}
#: (TTL seconds, Urgency) per message.
DELIVERY = {message: delivery for delivery, messages in _DELIVERIES.items() for message in messages}


def payload(notice: Notice, lang: str) -> dict[str, Any]:
    words = text(notice.message, lang, notice.game, notice.opponent, notice.move, notice.opponent_is_computer)
    return {
        "kind": notice.kind,
        "game": notice.game_id,
        "url": f"/{lang}/{notice.page or f'mchezo/?id={notice.game_id}'}",
        "title": words.title,
        "body": words.body,
        "tag": notice.tag or f"game:{notice.game_id}",
    }


@dataclass
class Report:
    sent: int = 0
    gone: int = 0
    dropped: int = 0


class Notifier:
    def __init__(self, subscriptions: SubscriptionRepository, sender: Sender, clock: Callable[[], float] = time.time):
        self.subscriptions = subscriptions
        self.sender = sender
        self.clock = clock

    def deliver(self, notice: Notice) -> Report:
        report = Report()
        now_ms = int(self.clock() * 1000)
        ttl, urgency = DELIVERY[notice.message]
        for subscription in self.subscriptions.list(notice.player_id):
            if not subscription.wants(notice.kind):
                continue
            if subscription.expiration_time is not None and subscription.expiration_time <= now_ms:
                self.subscriptions.delete(notice.player_id, subscription.endpoint, created=subscription.created)
                continue
            outcome = self.sender.send(subscription, Push(payload(notice, subscription.lang), ttl, urgency))
            if outcome == SENT:
                report.sent += 1
            elif outcome == GONE:
                report.gone += 1
                self.subscriptions.delete(notice.player_id, subscription.endpoint, created=subscription.created)
            else:
                report.dropped += 1
        logger.info("notified", extra={"kind": notice.kind, "game_id": notice.game_id, **asdict(report)})
        return report
