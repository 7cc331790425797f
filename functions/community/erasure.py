"""What "Delete my data" deletes besides the community's own items, each through the repository of the part
that keeps it: the player's games (each seat becomes "a former player", ``games.service.forget``), game
ratings, push subscriptions, clubs (those they own are closed, those they joined left), rate-limit buckets,
and last the player's item, so a delete cut short can be sent again with the same token."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.service.protocol import GameLog


class StoredErasure:
    def __init__(self, log: GameLog):
        self.log = log

    def games(self, player_id: str) -> int:
        from games.service.forget import FormerPlayer

        return FormerPlayer(self.log).forget(player_id)

    def seeks(self, player_id: str) -> None:
        """The player's places in the lobby go; each challenge of theirs is withdrawn if still open, and its
        seeker forgotten."""
        from games.lobby.repository import DynamoSeeks
        from games.service.forget import FormerPlayer

        for seek_id in DynamoSeeks().forget_slots(player_id):
            FormerPlayer(self.log).forget_seek(seek_id, player_id)

    def ratings(self, player_id: str) -> None:
        from games.ratings.repository import RatingStore

        RatingStore().forget(player_id)

    def subscriptions(self, player_id: str) -> None:
        from push.repository import DynamoSubscriptions

        subscriptions = DynamoSubscriptions()
        for subscription in subscriptions.list(player_id):
            subscriptions.delete(player_id, subscription.endpoint)

    def clubs(self, player_id: str) -> None:
        from common.clubs.repository import DynamoClubs

        clubs = DynamoClubs()
        for club in clubs.clubs(sorted(clubs.places(player_id))):
            if club.owner == player_id:
                for member in club.member_ids - {player_id}:
                    clubs.remove_member(club.id, member)
                    clubs.give_place(member, club.id)
                clubs.delete(club.id, player_id)
            else:
                clubs.remove_member(club.id, player_id)
            clubs.give_place(player_id, club.id)

    def rate_limits(self, token_hash: str) -> None:
        from common.ratelimit.repository import forget_buckets
        from common.web.ratelimit import player_buckets

        forget_buckets(player_buckets(token_hash))

    def player(self, token_hash: str) -> None:
        from common.players.repository import PlayerStore

        PlayerStore().delete(token_hash)
