"""The games function's parts as the lobby's hooks: the games service as its ``GameMaker`` (the game of an
accepted seek, both seats taken) and the game ratings store as its ``RatingsReader``."""

from __future__ import annotations

import time
from collections.abc import Callable

from common.players.blocks import blocks_of
from common.players.domain import Player

from games.domain import GameHead, other
from games.lobby.domain import START_RATING, Rating, Seek
from games.ratings.repository import RatingRepository
from games.service import GamesService


class SeekGames:
    def __init__(self, games: GamesService):
        self.games = games

    def start_seek_game(self, seek: Seek, taker: Player) -> GameHead:
        seeker_color = seek.seeker_color or "white"
        seeker = Player(seek.seeker.player_id, seek.seeker.token_hash, seek.seeker.name)
        seats = {seeker_color: seeker, other(seeker_color): taker}
        head, _ = self.games.create_seated(
            seats["white"],
            seats["black"],
            seek.game,
            dict(seek.options),
            seek.rated,
            game_id=seek.game_id or "",
            by=other(seeker_color),  # the taker made it: the seeker is told (notify.decide)
        )
        return head


class StoredRatings:
    """A player's game rating as the ratings store keeps it (one read), as of the clock's now (provisional again
    after long enough away); the start rating before their first."""

    def __init__(self, store: RatingRepository, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    def rating(self, player_id: str, game: str) -> Rating:
        found = self.store.get(player_id, game)
        if found is None:
            return Rating(START_RATING, True)
        now = found.at(int(self.clock() * 1000))
        return Rating(round(now.rating.rating), now.provisional)


class PlayerBlocks:
    """``Blocks`` from the players' own blocks (``common.players.blocks``): the players ``player`` blocked, read
    from the item their token was checked against, so it costs no read. A seek keeps its seeker's at creation
    and a take checks the taker's, so neither side of a block meets the other in the lobby."""

    def excluded(self, player: Player) -> frozenset[str]:
        return frozenset(block.player_id for block in blocks_of(player.stored))
