"""The lobby's actions: offering a seek, listing the open ones, accepting one, withdrawing one.

A seek is a game waiting for its players (``GameHead.seek``): offering one makes that game, accepting it is
the game's next event (the taker and the seeker sit down: ``SeekAccepted``), withdrawing it too
(``SeekWithdrawn``). The service depends on a ``SeekRepository`` (reads and the seek slots), a clock, a
``RateLimiter``, a ``GameMaker`` (the games service's write protocol) and ``Blocks``, the hook through which players
who block each other never meet in the lobby (``lobby.seated.PlayerBlocks`` reads the players' own blocks).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from common.clock import Clocked
from common.players.domain import Player
from common.players.service import player_of
from common.web.ratelimit import UNKNOWN_ADDRESS, RateLimiter

from games.domain import (
    COLORS,
    GAME_ID_BYTES,
    AnyEvent,
    Color,
    GameHead,
    Seat,
    SeekAccepted,
    SeekTerms,
    SeekWithdrawn,
    new_game_options,
    other,
)
from games.lobby.domain import (
    MAX_OPEN_SEEKS,
    MAX_OPEN_SEEKS_PER_ADDRESS,
    PAGE_SIZE,
    START_RATING,
    NotYourSeek,
    Rating,
    Seek,
    SeekNotFound,
    SeekTaken,
    Taker,
    TooManySeeks,
    check_range,
    read_cursor,
    refusal_of,
    seek_lifetime_ms,
    seek_of,
    write_cursor,
)
from games.lobby.repository import SeekRepository
from games.service.protocol import Decide

#: The rate limit that seeking and accepting share (``common.web.ratelimit.LIMITS``).
LIMIT = "seeks"


class GameMaker(Protocol):
    """The games service as the lobby uses it: a seek is a game waiting for its players (``GameHead.seek``)."""

    def open_seek(
        self, seek_id: str, game: str, options: Mapping[str, Any], rated: bool, terms: SeekTerms, at: int
    ) -> GameHead:
        """Make the seek's game, made at ``at`` (epoch ms): its first event and its head, no seat taken yet."""
        ...

    def act(self, game_id: str, decide: Decide, read: GameHead | None = None) -> GameHead:
        """Append the event ``decide`` makes against the game (``GameLog.act``), from the head ``read`` if given."""
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

    def ratings(self, player_ids: list[str], game: str) -> dict[str, Rating]:
        """Several players' ratings in one read (those without one are left out)."""
        ...


class StartRatings:
    """``RatingsReader`` while no player has a game rating: everyone at the start, provisional."""

    def rating(self, player_id: str, game: str) -> Rating:
        return Rating(START_RATING, True)

    def ratings(self, player_ids: list[str], game: str) -> dict[str, Rating]:
        return {}


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


@dataclass(eq=False)
class SeekService(Clocked):
    repository: SeekRepository
    games: GameMaker
    clock: Callable[[], float] = time.time
    limiter: RateLimiter | None = None
    blocks: Blocks = field(default_factory=NoBlocks)
    ratings: RatingsReader = field(default_factory=StartRatings)

    def offer(
        self,
        player: Player,
        game: str,
        rated: bool,
        options: Mapping[str, Any],
        color: Color | None,
        rating_range: tuple[int, int] | None,
        address: str | None = None,
    ) -> Seek:
        """A new open seek; ``TooManySeeks`` if the player has ``MAX_OPEN_SEEKS`` open already, or the request's
        ``address`` (as the rate limits read it; None: not known) ``MAX_OPEN_SEEKS_PER_ADDRESS``."""
        complete = checked_options(game, options)  # a bad option is refused before anything is charged or written
        self._charge()
        now = self.now_ms()
        seek_id = secrets.token_urlsafe(GAME_ID_BYTES)
        rating = self.ratings.rating(player.player_id, game)
        check_range(rating_range, rating.rating)
        if not self.repository.claim_slot(player.player_id, seek_id, now, MAX_OPEN_SEEKS):
            raise TooManySeeks(f"you have {MAX_OPEN_SEEKS} open challenges already; withdraw one first")
        if (
            address
            and address != UNKNOWN_ADDRESS
            and not self.repository.claim_slot(f"addr#{address}", seek_id, now, MAX_OPEN_SEEKS_PER_ADDRESS)
        ):
            raise TooManySeeks(
                f"{MAX_OPEN_SEEKS_PER_ADDRESS} open challenges come from your address already; try again later"
            )
        terms = SeekTerms(
            seeker=_seat(player),
            rating=rating.rating,
            provisional=rating.provisional,
            color=color,
            rating_range=rating_range,
            expires=now + seek_lifetime_ms(complete),
            excluded=self.blocks.excluded(player),
        )
        seek = seek_of(self.games.open_seek(seek_id, game, complete, rated, terms, now))
        assert seek is not None
        return seek

    def open_seeks(self, game: str, cursor: str | None) -> tuple[list[Seek], str | None]:
        """A page of the open seeks of ``game``, newest first, and the cursor of the next page."""
        now = self.now_ms()
        heads, last = self.repository.list_open(game, now, read_cursor(cursor, now), PAGE_SIZE)
        listed = [seek for seek in map(seek_of, heads) if seek is not None and not seek.gone(now)]
        return self._current_ratings(listed), write_cursor(last)

    def _current_ratings(self, seeks: list[Seek]) -> list[Seek]:
        """The seeks with each seeker's rating as it is now, not as it was when the seek was made (one read)."""
        if not seeks:
            return seeks
        current = self.ratings.ratings(sorted({seek.seeker.player_id for seek in seeks}), seeks[0].game)
        return [
            replace(seek, seeker=replace(seek.seeker, rating=current.get(seek.seeker.player_id, seek.seeker.rating)))
            for seek in seeks
        ]

    def seek(self, seek_id: str) -> Seek:
        """A seek that is open, or was taken (its poller learns the game); ``SeekNotFound`` otherwise."""
        seek = seek_of(self.repository.get(seek_id))
        if seek is None or seek.gone(self.now_ms()):
            raise SeekNotFound("no challenge has this id (withdrawn, expired or never made)")
        return seek

    def accept_with_token(self, token_hash: str, seek_id: str | None) -> Accepted:
        """``accept`` for the holder of a token: their player item and the seek's head come in one read, so the
        take is decided before it is tried. An open seek costs that read, the taker's rating only for a seek
        with a range, and the join (the game's next event and its head); a refusal, the read (and the rating)
        alone. ``Unauthorized`` for a token of no player; a ``seek_id`` of no possible seek (None) is a
        ``SeekNotFound`` after that."""
        taker, head = self.repository.taker_and_seek(token_hash, seek_id)
        player = player_of(token_hash, taker)
        self._charge()
        if seek_id is None:
            raise SeekNotFound("no open challenge has this id")
        return self._accept(player, seek_id, head)

    def accept(self, player: Player, seek_id: str) -> Accepted:
        """Take the seek: its game starts. Of many takers at once exactly one gets it; the same taker again
        gets the same game (a retry after a lost answer, or after a failure between the join's two writes)."""
        self._charge()
        return self._accept(player, seek_id, self.repository.get(seek_id))

    def _accept(self, player: Player, seek_id: str, head: GameHead | None) -> Accepted:
        taker = Taker(player.player_id, player.name, None, self.blocks.excluded(player))
        now = self.now_ms()
        stored = seek_of(head)
        if stored is not None and stored.state == "open" and stored.rating_range and not refusal_of(stored, taker, now):
            taker = replace(taker, rating=self.ratings.rating(player.player_id, stored.game).rating)
        refusal = refusal_of(stored, taker, now)
        if refusal is not None:
            raise refusal
        draw = secrets.choice(COLORS)
        joining = {"made": False}  # whether the last decision made the join (the act appends it) or found it

        def decide(current: GameHead) -> AnyEvent | None:
            """The join, against the game as it is: the log's one writer per sequence number makes one taker win."""
            seek = seek_of(current)
            refusal = refusal_of(seek, taker, now)
            if refusal is not None:
                raise refusal
            assert seek is not None
            joining["made"] = seek.state != "taken"
            if not joining["made"]:
                return None  # taken by this taker: a retry, answered with its game
            if seek.rating_range and taker.rating is None:  # never taken unchecked (the range was read open)
                raise SeekNotFound("no open challenge has this id")
            return SeekAccepted(by=other(seek.color or draw), seat=_seat(player))

        game = self.games.act(seek_id, decide, read=head)
        seat = game.seat_of(player.token_hash)
        assert seat is not None
        return Accepted(game, seat, created=joining["made"])

    def withdraw(self, player: Player, seek_id: str) -> Seek:
        """Withdraw the player's own open seek; the seek as it was. Withdrawing is the game's next event, like
        taking: of a withdrawal and an acceptance at once exactly one is appended."""
        now = self.now_ms()
        withdrawn: list[Seek] = []

        def decide(current: GameHead) -> AnyEvent | None:
            seek = seek_of(current)
            if seek is None or seek.gone(now):
                raise SeekNotFound("no challenge has this id (withdrawn, expired or never made)")
            if seek.seeker.player_id != player.player_id:
                raise NotYourSeek("only the player who made a challenge may withdraw it")
            if seek.state == "taken":
                raise SeekTaken("someone else accepted this challenge first")
            withdrawn.append(seek)
            return SeekWithdrawn()

        head = self.repository.get(seek_id)
        if seek_of(head) is None:
            raise SeekNotFound("no challenge has this id (withdrawn, expired or never made)")
        self.games.act(seek_id, decide, read=head)
        return withdrawn[-1]

    def _charge(self) -> None:
        if self.limiter is not None:
            self.limiter.charge(LIMIT)


def _seat(player: Player) -> Seat:
    return Seat(player.player_id, bytes.fromhex(player.token_hash), player.name)
