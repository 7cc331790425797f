"""What "Download my data" gathers besides the community's own items: the player's game ratings and their wins,
draws and losses (the games function's ratings repository) and push subscriptions (the push function's
repository), each one read."""

from __future__ import annotations

import dataclasses
from typing import Any

from common.players.handles import handle_of


class StoredPlayerData:
    def ratings(self, player_id: str) -> list[dict[str, Any]]:
        from games.ratings.repository import RatingStore

        return [
            {**dataclasses.asdict(rating), "earned": [(at, handle_of(opponent)) for at, opponent in rating.earned]}
            for rating in RatingStore().with_histories(player_id)
        ]

    def results(self, player_id: str) -> list[dict[str, Any]]:
        from games.ratings.repository import RatingStore

        return [dataclasses.asdict(tally) for tally in RatingStore().public_partition(player_id).tallies]

    def subscriptions(self, player_id: str) -> list[dict[str, Any]]:
        from push.repository import DynamoSubscriptions

        return [dataclasses.asdict(item) for item in DynamoSubscriptions().list(player_id)]
