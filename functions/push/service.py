"""Subscribing, listing, unsubscribing: the rules above one ``SubscriptionRepository``."""

from __future__ import annotations

from push.domain import MAX_PER_PLAYER, Subscription
from push.repository import SubscriptionRepository


class Subscriptions:
    """Subscribing, listing, unsubscribing: the rules above one repository."""

    def __init__(self, repository: SubscriptionRepository):
        self.repository = repository

    def subscribe(self, player_id: str, subscription: Subscription) -> bool:
        """Store the subscription, then drop the oldest beyond ``MAX_PER_PLAYER``; True if it is new.

        Two subscribes at once may both see room and both write; each then trims what is over the limit
        (a delete conditional on the version it saw), so the player settles at ``MAX_PER_PLAYER``.
        """
        new = self.repository.save(player_id, subscription)
        for extra in self.repository.list(player_id)[MAX_PER_PLAYER:]:
            self.repository.delete(player_id, extra.endpoint, created=extra.created)
        return new

    def list(self, player_id: str) -> list[Subscription]:
        return self.repository.list(player_id)[:MAX_PER_PLAYER]

    def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        return self.repository.delete(player_id, endpoint)
