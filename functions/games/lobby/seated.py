"""The games function's parts as the lobby's hooks: the games service as its ``GameMaker`` (a seek's game is
made, taken and withdrawn by the games' own write protocol) and the game ratings store as its
``RatingsReader``."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from common.players.domain import Player

from games.domain import Created, GameHead, SeekTerms, new_game_options
from games.lobby.domain import START_RATING, Rating
from games.ratings.repository import RatingRepository
from games.service import GamesService
from games.service.protocol import Decide


class SeekGames:
    def __init__(self, games: GamesService):
        self.games = games

    def open_seek(
        self, seek_id: str, game: str, options: Mapping[str, Any], rated: bool, terms: SeekTerms, at: int
    ) -> GameHead:
        log = self.games.log
        event = Created(
            at=at,
            game_id=seek_id,
            game=game,
            options=new_game_options(game, options, rated),
            max_plies=log.max_plies,
            seek=terms,
        )
        head, _ = log.create(event)
        return head

    def act(self, game_id: str, decide: Decide, read: GameHead | None = None) -> GameHead:
        return self.games.log.act(game_id, decide, read=read)


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

    def ratings(self, player_ids: list[str], game: str) -> dict[str, Rating]:
        now_ms = int(self.clock() * 1000)
        found = self.store.get_many(player_ids, game)  # one BatchGetItem
        return {
            player_id: Rating(round(rating.at(now_ms).rating.rating), rating.at(now_ms).provisional)
            for player_id, rating in found.items()
        }


class PlayerBlocks:
    """``Blocks`` from the players' own blocks (``common.players.blocks``): the players ``player`` blocked, read
    from the item their token was checked against, so it costs no read. A seek keeps its seeker's at creation
    and a take checks the taker's, so neither side of a block meets the other in the lobby."""

    def excluded(self, player: Player) -> frozenset[str]:
        return frozenset(block.player_id for block in player.blocks)
