"""The lobby's actions: offering a seek, listing the open ones, accepting one, withdrawing one.

The service depends on a ``SeekRepository``, a clock, a ``RateLimiter``, a ``GameMaker`` (the games
service: accepting a seek makes a game with both seats taken) and ``Blocks``, the hook through which players
who block each other never meet in the lobby (none until player blocks exist).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from common.players.domain import Player
from common.web.ratelimit import RateLimiter

from games.domain import COLORS, Color, GameHead, new_game_options, other
from games.lobby.domain import (
    MAX_OPEN_SEEKS,
    PAGE_SIZE,
    SEEK_ID_BYTES,
    SEEK_LIFETIME_MS,
    NotYourSeek,
    Seek,
    Seeker,
    SeekNotFound,
    Taker,
    TooManySeeks,
    rating_of,
    read_cursor,
    refusal_of,
    write_cursor,
)
from games.lobby.repository import SeekRepository
from games.protocol import GAME_ID_BYTES
from shared_rules.names import GAME_NAMES

#: The rate limit that seeking and accepting share (``common.web.ratelimit.LIMITS``).
LIMIT = "seeks"


class GameMaker(Protocol):
    """Makes the game of an accepted seek: both seats taken, the seeker's colour as the seek decided."""

    def start_seek_game(self, seek: Seek, taker: Player) -> GameHead:
        """The game ``seek.game_id`` (made once: a second call returns it as it is)."""
        ...


class Blocks(Protocol):
    """The hook for player blocks: the ids of the players ``player`` must never be paired with (those they
    blocked and those who blocked them). A seek keeps its seeker's at creation; a take checks the taker's."""

    def excluded(self, player: Player) -> frozenset[str]: ...


class NoBlocks:
    """``Blocks`` while players cannot block one another."""

    def excluded(self, player: Player) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True)
class Accepted:
    head: GameHead
    seat: Color
    created: bool  # False: a retry by the same taker, answered with the game it made


def checked_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked and completed exactly as game creation does (the site's and the rules layer's),
    but for ``rated``, which is the seek's own field; ``InvalidGameOption`` or a ``RulesError`` (422) if one
    is wrong."""
    checked = new_game_options(game, options, rated=False)
    return {name: value for name, value in checked.items() if name != "rated"}  # the seek's own field


class SeekService:
    def __init__(
        self,
        repository: SeekRepository,
        games: GameMaker,
        clock: Callable[[], float] = time.time,
        limiter: RateLimiter | None = None,
        blocks: Blocks | None = None,
    ):
        self.repository = repository
        self.games = games
        self.clock = clock
        self.limiter = limiter
        self.blocks = blocks or NoBlocks()

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def offer(
        self,
        player: Player,
        game: str,
        rated: bool,
        options: Mapping[str, Any],
        color: Color | None,
        rating_range: tuple[int, int] | None,
    ) -> Seek:
        """A new open seek; ``TooManySeeks`` if the player has ``MAX_OPEN_SEEKS`` open already."""
        complete = checked_options(game, options)  # a bad option is refused before anything is charged or written
        self._charge()
        now = self.now_ms()
        seek = Seek(
            id=secrets.token_urlsafe(SEEK_ID_BYTES),
            game=game,
            rated=rated,
            options=complete,
            color=color,
            rating_range=rating_range,
            seeker=Seeker(player.player_id, player.token_hash, player.name, rating_of(player, game)),
            created=now,
            expires=now + SEEK_LIFETIME_MS,
            excluded=self.blocks.excluded(player),
        )
        if not self.repository.add(seek, MAX_OPEN_SEEKS):
            raise TooManySeeks(f"you have {MAX_OPEN_SEEKS} open challenges already; withdraw one first")
        return seek

    def open_seeks(self, game: str, cursor: str | None) -> tuple[list[Seek], str | None]:
        """A page of the open seeks of ``game``, newest first, and the cursor of the next page."""
        seeks, last = self.repository.list_open(game, self.now_ms(), read_cursor(cursor), PAGE_SIZE)
        return seeks, write_cursor(last)

    def seek(self, seek_id: str) -> Seek:
        """A seek that is open, or was taken (its poller learns the game); ``SeekNotFound`` otherwise."""
        seek = self.repository.get(seek_id)
        if seek is None or seek.state == "cancelled" or (seek.state == "open" and seek.expires <= self.now_ms()):
            raise SeekNotFound("no challenge has this id (withdrawn, expired or never made)")
        return seek

    def accept(self, player: Player, seek_id: str) -> Accepted:
        """Take the seek and make its game. Of many takers at once exactly one gets it; the same taker again
        gets the same game (a retry after a lost answer, or after a failure between the two steps)."""
        self._charge()
        taker = self._taker(player)
        now = self.now_ms()
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        taken = self.repository.take(seek_id, taker, now, game_id, secrets.choice(COLORS))
        created = taken is not None
        if taken is None:  # the condition failed: read the seek to say why (the refused path only)
            taken = self.repository.get(seek_id)
            refusal = refusal_of(taken, taker, now)
            if refusal is not None or taken is None:
                raise refusal or SeekNotFound("no open challenge has this id")
        head = self.games.start_seek_game(taken, player)
        seeker_color = taken.seeker_color or "white"
        return Accepted(head, other(seeker_color), created)

    def withdraw(self, player: Player, seek_id: str) -> Seek:
        """Withdraw the player's own open seek; the seek as it was."""
        seek = self.seek(seek_id)
        if seek.seeker.player_id != player.player_id:
            raise NotYourSeek("only the player who made a challenge may withdraw it")
        if not self.repository.cancel(seek_id, player.player_id):
            refusal = refusal_of(self.repository.get(seek_id), self._taker(player), self.now_ms())
            raise refusal or SeekNotFound("no open challenge has this id")
        return seek

    def _taker(self, player: Player) -> Taker:
        """The taker with their rating in every game: the take's one write checks the one of the seek's game."""
        ratings: dict[str, int] = {game: rating_of(player, game).rating for game in GAME_NAMES}
        return Taker(player.player_id, player.name, ratings, self.blocks.excluded(player))

    def _charge(self) -> None:
        if self.limiter is not None:
            self.limiter.charge(LIMIT)
