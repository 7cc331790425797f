"""The lobby's actions: offering a seek, listing the open ones, accepting one, withdrawing one.

The service depends on a ``SeekRepository``, a clock, a ``RateLimiter``, a ``GameMaker`` (the games
service: accepting a seek makes a game with both seats taken) and ``Blocks``, the hook through which players
who block each other never meet in the lobby (``lobby.seated.PlayerBlocks`` reads the players' own blocks).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from common.players.domain import Player
from common.players.service import player_of
from common.web.ratelimit import RateLimiter

from games.domain import COLORS, Color, GameHead, new_game_options, other
from games.lobby.domain import (
    MAX_OPEN_SEEKS,
    PAGE_SIZE,
    SEEK_ID_BYTES,
    SEEK_LIFETIME_MS,
    START_RATING,
    NotYourSeek,
    Rating,
    Seek,
    Seeker,
    SeekNotFound,
    Taker,
    TooManySeeks,
    read_cursor,
    refusal_of,
    write_cursor,
)
from games.lobby.repository import SeekRepository
from games.protocol import GAME_ID_BYTES

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


class RatingsReader(Protocol):
    """The hook for game ratings: a player's rating in a game (the start rating, provisional, until they have
    one). Read for the seeker when a seek is made (the list shows it) and for a taker only when the seek has a
    range, so accepting an open seek without one costs no read of it. ``lobby.seated.StoredRatings`` reads the
    game ratings store."""

    def rating(self, player_id: str, game: str) -> Rating: ...


class StartRatings:
    """``RatingsReader`` while no player has a game rating: everyone at the start, provisional."""

    def rating(self, player_id: str, game: str) -> Rating:
        return Rating(START_RATING, True)


class NoBlocks:
    """``Blocks`` where no player blocks another (the tests of the lobby alone)."""

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
        ratings: RatingsReader | None = None,
    ):
        self.repository = repository
        self.games = games
        self.clock = clock
        self.limiter = limiter
        self.blocks = blocks or NoBlocks()
        self.ratings = ratings or StartRatings()

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
            seeker=Seeker(
                player.player_id, player.token_hash, player.name, self.ratings.rating(player.player_id, game)
            ),
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

    def accept_with_token(self, token_hash: str, seek_id: str | None) -> Accepted:
        """``accept`` for the holder of a token: their player item and the seek come in one read, so the take
        is decided before it is tried. An open seek costs that read, the taker's rating only for a seek with a
        range, the take and the game's two writes; a refusal, the read (and the rating) alone. ``Unauthorized``
        for a token of no player; a ``seek_id`` of no possible seek (None) is a ``SeekNotFound`` after that."""
        record, stored = self.repository.taker_and_seek(token_hash, seek_id)
        player = player_of(token_hash, record)
        self._charge()
        if seek_id is None:
            raise SeekNotFound("no open challenge has this id")
        taker = Taker(player.player_id, player.name, None, self.blocks.excluded(player))
        now = self.now_ms()
        if (
            stored is not None
            and stored.state == "open"
            and stored.rating_range
            and refusal_of(stored, taker, now) is None
        ):
            taker = replace(taker, rating=self.ratings.rating(player.player_id, stored.game).rating)
        refusal = refusal_of(stored, taker, now)
        if refusal is not None:
            raise refusal
        if stored is not None and stored.state == "taken":  # by this taker: a retry, answered with its game
            return self._game_of(stored, player, created=False)
        return self._take(player, seek_id, taker, now)

    def accept(self, player: Player, seek_id: str) -> Accepted:
        """Take the seek and make its game. Of many takers at once exactly one gets it; the same taker again
        gets the same game (a retry after a lost answer, or after a failure between the two steps)."""
        self._charge()
        taker = Taker(player.player_id, player.name, None, self.blocks.excluded(player))
        return self._take(player, seek_id, taker, self.now_ms())

    def _take(self, player: Player, seek_id: str, taker: Taker, now: int) -> Accepted:
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        draw = secrets.choice(COLORS)
        taken = self.repository.take(seek_id, taker, now, game_id, draw)
        created = taken is not None
        if taken is None:
            taken, created = self._after_refusal(player, seek_id, taker, (now, game_id, draw))
        return self._game_of(taken, player, created)

    def _game_of(self, taken: Seek, player: Player, created: bool) -> Accepted:
        head = self.games.start_seek_game(taken, player)
        return Accepted(head, other(taken.seeker_color or "white"), created)

    def _after_refusal(
        self, player: Player, seek_id: str, taker: Taker, attempt: tuple[int, str, Color]
    ) -> tuple[Seek, bool]:
        """After a refused take (the seek read again, as it is now): the take again with the taker's rating when
        only the seek's range was left to check, else this taker's own earlier take (a retry: not created), else
        the refusal that says why."""
        now, game_id, draw = attempt
        stored = self.repository.get(seek_id)
        if stored and stored.state == "open" and stored.rating_range and refusal_of(stored, taker, now) is None:
            taker = replace(taker, rating=self.ratings.rating(player.player_id, stored.game).rating)
            taken = self.repository.take(seek_id, taker, now, game_id, draw)
            if taken is not None:
                return taken, True
            stored = self.repository.get(seek_id)
        refusal = refusal_of(stored, taker, now)
        if refusal is not None:
            raise refusal
        if stored is None or stored.state != "taken":
            raise SeekNotFound("no open challenge has this id")
        return stored, False

    def withdraw(self, player: Player, seek_id: str) -> Seek:
        """Withdraw the player's own open seek; the seek as it was."""
        seek = self.seek(seek_id)
        if seek.seeker.player_id != player.player_id:
            raise NotYourSeek("only the player who made a challenge may withdraw it")
        if not self.repository.cancel(seek_id, player.player_id):
            refusal = refusal_of(
                self.repository.get(seek_id),
                Taker(player.player_id, player.name, None, self.blocks.excluded(player)),
                self.now_ms(),
            )
            raise refusal or SeekNotFound("no open challenge has this id")
        return seek

    def _charge(self) -> None:
        if self.limiter is not None:
            self.limiter.charge(LIMIT)
