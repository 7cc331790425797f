"""Seeks, the open challenges of the lobby: typed values, the rules that need no store, and the refusals.

A seek is one player's offer to play a game (its table options, rated or casual, a colour or none, a rating
range or none) with whoever accepts it first. It stays open until it is accepted, withdrawn, or 7 days old.
It is stored as a game waiting for its players (``GameHead.seek``, its terms): ``seek_of`` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from common.errors import DomainError

from games.domain import Color, GameHead, SeekState, other
from games.views import decode_cursor, encode_cursor

DAY_MS = 86_400_000
#: How long a seek stays open if nobody accepts it.
SEEK_LIFETIME_MS = 7 * DAY_MS
#: How long a live table's seek (``turn_seconds``) stays open: its seeker is at the phone now or not at all, so
#: the computer never plays a whole game for a seeker who has gone (docs/games.md, "Fair play").
LIVE_SEEK_LIFETIME_MS = 10 * 60_000


def seek_lifetime_ms(options: Mapping[str, Any]) -> int:
    """How long a seek with these table options stays open."""
    return LIVE_SEEK_LIFETIME_MS if options.get("turn_seconds") else SEEK_LIFETIME_MS


#: Open seeks one player may have at once, and one address (a school's players share one behind its NAT): 46
#: seeks from one address once filled three pages of the lobby (docs/games.md, "Fair play").
MAX_OPEN_SEEKS = 3
MAX_OPEN_SEEKS_PER_ADDRESS = 10
#: A seek's rating range reaches at least this far on each side of the seeker's own rating, so it cannot pick
#: the opponent (``[1500, 1500]`` admitted only newcomers, ``[0, 0]`` nobody).
RANGE_MIN_REACH = 100
SEEK_ID_BYTES = 9  # 72 random bits, 12 URL-safe characters
PAGE_SIZE = 20
#: Every player's rating in a game before their first rated game of it (Glicko-2's start).
START_RATING = 1500
CURSOR_MAX_CHARS = 200


class SeekError(DomainError, code="seek_not_found"): ...


class SeekNotFound(SeekError, code="seek_not_found"): ...


class SeekTaken(SeekError, code="seek_taken"): ...


class OwnSeek(SeekError, code="own_seek"): ...


class OutOfRange(SeekError, code="out_of_range"): ...


class NotYourSeek(SeekError, code="not_your_seek"): ...


class TooManySeeks(SeekError, code="too_many_seeks"): ...


class InvalidRatingRange(SeekError, code="invalid_rating_range"): ...


def check_range(rating_range: tuple[int, int] | None, own: int) -> None:
    """Refuse (422) a range that does not reach ``RANGE_MIN_REACH`` on each side of the seeker's own rating."""
    if rating_range is None:
        return
    low, high = rating_range
    if low > own - RANGE_MIN_REACH or high < own + RANGE_MIN_REACH:
        raise InvalidRatingRange(
            f"a rating range must include your rating ({own}) and reach at least {RANGE_MIN_REACH} points on each "
            f"side of it: [{own - RANGE_MIN_REACH}, {own + RANGE_MIN_REACH}] or wider"
        )


class InvalidSeekCursor(SeekError, code="invalid_cursor"): ...


@dataclass(frozen=True)
class Rating:
    rating: int
    provisional: bool


@dataclass(frozen=True)
class Seeker:
    """The player behind a seek. Only ``name`` and the rating are ever shown; the id and the token's hash
    seat them in the game an acceptance makes."""

    player_id: str
    token_hash: str
    name: str | None
    rating: Rating


@dataclass(frozen=True)
class Seek:
    id: str
    game: str
    rated: bool
    options: Mapping[str, Any]  # checked and completed as game creation completes them
    color: Color | None  # the seeker's colour, or None: drawn when the seek is accepted
    rating_range: tuple[int, int] | None
    seeker: Seeker
    created: int  # epoch ms
    expires: int  # epoch ms
    state: SeekState = "open"
    #: Set when accepted: who took it, the game it made, and the seeker's colour in it.
    taker_id: str | None = None
    taker_name: str | None = None
    game_id: str | None = None
    seeker_color: Color | None = None
    #: Players the seeker does not play (the blocks hook, see ``lobby.service.Blocks``).
    excluded: frozenset[str] = frozenset()

    def admits(self, rating: int) -> bool:
        return self.rating_range is None or self.rating_range[0] <= rating <= self.rating_range[1]

    def gone(self, now_ms: int) -> bool:
        """Whether it is no challenge any more at ``now_ms``: withdrawn, or lapsed while open (taken stays)."""
        return self.state == "cancelled" or (self.state == "open" and self.expires <= now_ms)

    def version(self) -> str:
        """What changes when anything a poller sees changes (the ETag)."""
        return f"{self.state}.{self.game_id or ''}"


@dataclass(frozen=True)
class Taker:
    """The player accepting a seek, as the join seats them."""

    player_id: str
    name: str | None
    #: The taker's rating in the seek's game; None until a ranged seek needs it (it costs a read).
    rating: int | None = None
    #: Players this taker does not play with (the blocks hook): a seek of theirs is not taken.
    excluded: frozenset[str] = frozenset()


def refusal_of(seek: Seek | None, taker: Taker, now_ms: int) -> SeekError | None:
    """Why ``taker`` cannot take ``seek`` now (None: they can, or they took it already; a range is checked only
    once the taker's rating is known)."""
    if seek is None or seek.gone(now_ms):
        return SeekNotFound("no open challenge has this id (withdrawn, expired or never made)")
    if seek.state == "taken":
        if seek.taker_id == taker.player_id:
            return None
        return SeekTaken("someone else accepted this challenge first")
    if seek.seeker.player_id == taker.player_id:
        return OwnSeek("this is your own challenge; wait for someone to accept it")
    if seek.seeker.player_id in taker.excluded or taker.player_id in seek.excluded:
        return SeekNotFound("no open challenge has this id (withdrawn, expired or never made)")
    if taker.rating is not None and not seek.admits(taker.rating):
        low, high = seek.rating_range or (0, 0)
        return OutOfRange(f"this challenge is for ratings {low} to {high}; yours is {taker.rating}")
    return None


def seek_of(head: GameHead | None) -> Seek | None:
    """The seek a game's head is (None: no head, or a game that never was an open challenge)."""
    if head is None or head.seek is None:
        return None
    terms = head.seek
    taken = terms.state == "taken" and terms.seeker_color is not None
    taker = head.seat(other(terms.seeker_color)) if taken and terms.seeker_color else None
    return Seek(
        id=head.id,
        game=head.game,
        rated=head.rated,
        options={name: value for name, value in head.options.items() if name != "rated"},  # the seek's own field
        color=terms.color,
        rating_range=terms.rating_range,
        seeker=Seeker(
            terms.seeker.player_id or "",
            terms.seeker.key.hex() if terms.seeker.key else "",
            terms.seeker.name,
            Rating(terms.rating, terms.provisional),
        ),
        created=head.created,
        expires=terms.expires,
        state=terms.state,
        taker_id=taker.player_id if taker else None,
        taker_name=taker.name if taker else None,
        game_id=head.id if taken else None,
        seeker_color=terms.seeker_color,
        excluded=terms.excluded,
    )


# --------------------------------------------------------------------------------------------- cursors
def write_cursor(position: tuple[int, str] | None) -> str | None:
    """The opaque cursor of the page after ``position`` (the last seek's created time and id)."""
    return None if position is None else encode_cursor(list(position))


def read_cursor(cursor: str | None, now_ms: int) -> tuple[int, str] | None:
    """The position a cursor names; ``InvalidSeekCursor`` (422) for one this API did not give, or one older than
    the list's window (the index's Query cannot start outside its own key condition)."""
    if not cursor:
        return None
    problem = InvalidSeekCursor("the cursor is not one this API gave; start again without it")
    data = decode_cursor(cursor, problem, CURSOR_MAX_CHARS)
    if not (
        isinstance(data, list)
        and len(data) == 2
        and isinstance(data[0], int)
        and not isinstance(data[0], bool)
        and data[0] >= 0
        and isinstance(data[1], str)
        and 1 <= len(data[1]) <= 32
        and now_ms - SEEK_LIFETIME_MS < data[0] <= now_ms
    ):
        raise problem
    return data[0], data[1]
