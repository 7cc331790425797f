"""The other player of a game, read from the games table through the games function's own repository (one read
of the game's head): whom "follow" on a game page means."""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.errors import DomainError

from community.domain import Card

if TYPE_CHECKING:
    from games.repository import GameRepository


class StoredOpponents:
    def __init__(self, games: GameRepository | None = None):
        if games is None:
            from games.repository import dynamodb_games

            games = dynamodb_games()
        self.games = games

    def opponent(self, game_id: str, token_hash: str) -> Card:
        from games.domain import other

        head = self.games.get_head(game_id)
        if head is None:
            raise DomainError("no game has this id", code="game_not_found")
        color = head.seat_of(token_hash)
        if color is None:
            raise DomainError("you hold no seat in this game", code="not_a_player")
        seat = head.seat(other(color))
        if seat is None or seat.player_id is None or seat.key is None:
            raise DomainError("this game has no other player to follow", code="no_opponent")
        return Card(seat.player_id, seat.key.hex(), seat.name)

    def card_of(self, player_id: str) -> Card | None:
        """A player the community has no card of, from their newest game (a profile's "follow"): the seat keeps
        the id, the name and the token's hash. Up to four Queries of the seats' indexes; None for no game."""
        from games.domain import COLORS
        from games.views import order_range

        for status in ("active", "finished"):
            low, high = order_range(status)
            for color in COLORS:
                listed, _more = self.games.games_of_player(player_id, color, low, high, None, 1)
                seat = listed[0].head.seat(color) if listed else None
                if seat is not None and seat.player_id == player_id and seat.key is not None:
                    return Card(player_id, seat.key.hex(), seat.name)
        return None


class StoredPlaying:
    """Whether a friend has a game going (the friends strip): the newest active game in their list of games, two
    Queries of the games' player indexes (one a seat), none of their private games unless the viewer plays in it."""

    def __init__(self, games: GameRepository | None = None):
        if games is None:
            from games.repository import dynamodb_games

            games = dynamodb_games()
        self.games = games

    def playing(self, player_id: str, viewer_id: str) -> str | None:
        from games.domain import COLORS
        from games.views import order_range

        low, high = order_range("active")
        found = []
        for color in COLORS:
            listed, _more = self.games.games_of_player(player_id, color, low, high, None, 5)
            found += [item.head for item in listed if item.head.state == "active"]
        for head in sorted(found, key=lambda head: head.updated, reverse=True):
            seated = {seat.player_id for seat in (head.white, head.black) if seat is not None}
            if not head.options.get("private") or viewer_id in seated:
                return head.id
        return None
