"""The notify unit's entry points, one module each: ``stream`` (NotifyFunction, the games table's stream) and
``reminders`` (ReminderFunction, the sweep on a schedule). Each builds its parts explicitly in its
``create_handler``; ``Pushes`` is the part both share (and the review function, which tells a player their
review is ready)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from push.repository import SubscriptionRepository

from notify.repository.sender import Sender, WebPushSender
from notify.service.notifier import Notifier

DEFAULT_SUBJECT = "mailto:push@ubao.invalid"

Clock = Callable[[], float]


@dataclass(frozen=True)
class Pushes:
    """Where a notice goes: the players' subscriptions, the push service, and the clock that stamps it."""

    subscriptions: SubscriptionRepository
    sender: Sender
    clock: Clock

    def notifier(self) -> Notifier:
        return Notifier(self.subscriptions, self.sender, self.clock)


def web_push_sender() -> Sender:
    from push.vapid import vapid_key

    return WebPushSender(vapid_key().signer(), os.environ.get("VAPID_SUBJECT") or DEFAULT_SUBJECT)


def stored_subscriptions() -> SubscriptionRepository:
    from push.repository import DynamoSubscriptions

    return DynamoSubscriptions()


def pushes_from_environment(
    clock: Clock = time.time, sender: Sender | None = None, subscriptions: SubscriptionRepository | None = None
) -> Pushes:
    """The pushes of a deployed function (DynamoDB and Web Push), with any part a caller gives instead."""
    return Pushes(subscriptions or stored_subscriptions(), sender or web_push_sender(), clock)
