"""A game's head: its state now (seats, position snapshot, deadline, result), the values it is made of,
and what a head can answer about itself (whose seat a token holds, where the game sorts in a player's list).

The head carries what the rules need to go on without replaying a move: the rules layer's ``Snapshot``
(the position and the draw rules' memory since the last irreversible move). So every request costs the
same at ply 10 and at ply 3,000, and ``MAX_PLIES`` ends any game as a draw so none grows without bound.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from games.domain.positions import DamagedHead, options_key, restore, rules_for
from games.domain.rating_change import RatingChange
from games.domain.reactions import Reaction
from shared_rules import Game, Position, Snapshot
from shared_rules.names import COLOURS, Colour

Color = Colour
Phase = Literal["waiting", "active", "finished"]
SeekState = Literal["open", "taken", "cancelled"]
Result = Literal["ongoing", "white", "black", "draw", "aborted"]
COLORS: tuple[Color, Color] = (COLOURS[0], COLOURS[1])

DAY_MS = 86_400_000
CPU_LEVELS = (1, 2, 3, 4, 5)
#: The longest game: the move that reaches this ply ends the game as a draw (reason ``move_limit``), whatever
#: the game's own rules say. No honest game comes near it (chess's fifty-move rule ends nearly every game by
#: ply 600); it bounds what a Tanzanian king manoeuvre without a repetition rule can cost.
MAX_PLIES = 1_000
#: A game that ends before each side has made this many moves (plies: two a side) is aborted: no result, no
#: rating change, no place on anything (lichess's rule; docs/games.md, "Fair play").
ABORT_PLIES = 4
#: The head keeps the last moves, so a retried move (even one the computer has already answered) is known.
LAST_MOVES_KEPT = 2
#: Listing order: a game's rank for one seat, times ORDER_SCALE, plus its last activity (epoch ms).
ORDER_SCALE = 10**13
RANK_FINISHED, RANK_WAITING, RANK_YOUR_TURN = 1, 2, 3


def other(color: Color) -> Color:
    return "black" if color == "white" else "white"


#: The id a seat holds once its player deleted their data ("a former player" on every page, in each language):
#: never a real id (not URL-safe base64), so no profile, list or index of a real player shows it.
FORMER_PLAYER = "~former"


@dataclass(frozen=True)
class Seat:
    """Who sits on one side. ``cpu`` is the computer's level: on its own seat (no ``player_id``), or while it
    plays on for an absent player (``cpu-takeover``)."""

    player_id: str | None
    key: bytes | None  # the SHA-256 of the player's token
    name: str | None
    cpu: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.player_id is None and self.cpu is not None


@dataclass(frozen=True)
class SeekTerms:
    """An open challenge of the lobby (``games.lobby``): a game waiting with no seat taken yet, whose seeker
    sits down with whoever accepts it first. Its terms are fixed when it is made; ``state`` and
    ``seeker_color`` change once, when it is taken or withdrawn."""

    seeker: Seat
    rating: int  # the seeker's rating in the game when it was made (the list shows it)
    provisional: bool
    color: Color | None  # the seeker's colour as asked, or None: drawn when it is taken
    rating_range: tuple[int, int] | None
    expires: int  # epoch ms: no longer open from then on
    #: Players the seeker does not play (their blocks when it was made).
    excluded: frozenset[str] = frozenset()
    state: SeekState = "open"
    seeker_color: Color | None = None  # once taken


@dataclass(frozen=True)
class PlayedMove:
    """One of the last moves, as the head keeps it to recognise a retry."""

    ply: int  # the game's ply before the move: the ``ply`` its request carried
    by: Color
    move: str  # canonical notation
    uci: str | None  # chess: the move in UCI
    before: str  # the FEN before the move, to read a retry spelled another way


@dataclass(frozen=True)
class GameHead:
    id: str
    game: str
    options: Mapping[str, Any]
    seq: int
    ply: int
    state: Phase
    turn: Color
    result: Result
    reason: str | None
    white: Seat | None
    black: Seat | None
    snapshot: Snapshot
    created: int
    updated: int
    last_moves: tuple[PlayedMove, ...] = ()
    deadline: int | None = None
    draw_offer: Color | None = None
    #: The side whose draw offer was last declined (by the button or by a move), so its page can say so; it
    #: stands until that side moves or offers again.
    draw_declined: Color | None = None
    invite_key: bytes | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    #: The colour whose rematch offer waits for the opponent's answer; the colour whose last offer was declined.
    rematch_offer: Color | None = None
    rematch_declined: Color | None = None
    max_plies: int = MAX_PLIES
    #: The first position's FEN when it is not the rules' own start (None: it is). ``start_known`` is False
    #: on a head stored before the head carried it: the first event has it (one more read).
    start_fen: str | None = None
    start_known: bool = True
    #: False on a head stored before the head carried its position (an older layout, read for the players'
    #: lists only): ``position()`` refuses it, so the log is folded instead.
    position_known: bool = True
    #: A rated game's rating change, once the game has ended (from the event that ended it).
    rating_change: RatingChange | None = None
    #: A player asked for the game's review (a rated game's is asked by itself: ``review()``).
    review_asked: bool = False
    #: An open challenge of the lobby: the game waits for whoever accepts it (None: any other game).
    seek: SeekTerms | None = None
    #: The sides the computer has stood in for in this game (``cpu_takeover``): they gain no rating from it.
    cpu_played: frozenset[Color] = frozenset()
    #: Why a game asked for rated is played casual ("repeat_pairing": the pair's rated games of the day are
    #: played), shown before the first move; None otherwise.
    casual_reason: str | None = None
    #: The latest reactions (``games.domain.reactions``), oldest first, and the sides that muted the other's.
    reactions: tuple[Reaction, ...] = ()
    reactions_muted: frozenset[Color] = frozenset()
    #: A live table's two ratings in its game when it started (white, black): Tazama's order and rows.
    seat_ratings: tuple[int, int] | None = None
    #: A live table's seats held by a person who has not yet opened it (``Opened``, or a first move): until
    #: both have, the deadline is the time the table waits for them, and when it passes the table is aborted
    #: (``no_show``, ``games.domain.live``); the first turn's clock starts when the last of them opens it.
    #: Empty on any other game, and on a head stored before the field (its clock was already running).
    unopened: frozenset[Color] = frozenset()

    @property
    def abortable(self) -> bool:
        """Whether the game may still be aborted: it is on and neither side has yet made two moves."""
        return self.state == "active" and self.ply < ABORT_PLIES

    @property
    def aborted(self) -> bool:
        return self.result == "aborted"

    def review(self) -> Literal["none", "asked"]:
        """Whether the game has a review to read: a player asked for one, or it is a finished rated game with
        a move (the notify function asks for those by itself: ``notify.service.reviews.wants_review``)."""
        by_itself = self.state == "finished" and self.rated and self.ply > 0 and not self.aborted
        return "asked" if self.review_asked or by_itself else "none"

    def seat(self, color: Color) -> Seat | None:
        return self.white if color == "white" else self.black

    def seat_of(self, token_hash: str | None) -> Color | None:
        """The seat whose token hash matches, compared in constant time (both seats are always compared)."""
        if not token_hash:
            return None
        found: Color | None = None
        for color in COLORS:
            seat = self.seat(color)
            if seat is not None and token_matches(token_hash, seat.key) and found is None:
                found = color
        return found

    def computer_level(self, color: Color) -> int | None:
        seat = self.seat(color)
        return seat.cpu if seat else None

    @property
    def computer_to_move(self) -> bool:
        return self.state == "active" and bool(self.computer_level(self.turn))

    @property
    def rated(self) -> bool:
        """Whether the game changes the players' game ratings (a head stored before games were rated: no)."""
        return bool(self.options.get("rated", False))

    @property
    def days_per_move(self) -> int:
        return int(self.options["days_per_move"])

    @property
    def turn_seconds(self) -> int | None:
        """A live table's seconds a turn (None: by correspondence; a head older than the option has none)."""
        return turn_seconds(self.options)

    def turn_over(self, now: int) -> bool:
        """Whether a live turn has run out with a person to move (the computer is never late): the server's
        clock then lets the computer play on for them (``games.domain.live``)."""
        seat = self.seat(self.turn)
        return (
            self.state == "active"
            and self.turn_seconds is not None
            and self.deadline is not None
            and now > self.deadline
            and seat is not None
            and not seat.cpu
        )

    def order(self, color: Color) -> int | None:
        """Where the game sorts in the list of the player on ``color``: your move, then waiting, then finished."""
        seat = self.seat(color)
        if seat is None or seat.player_id is None:
            return None
        if self.state == "finished":
            rank = RANK_FINISHED
        elif self.state == "active" and self.turn == color:
            rank = RANK_YOUR_TURN
        else:
            rank = RANK_WAITING
        return rank * ORDER_SCALE + self.updated

    def rules(self) -> Game:
        return rules_for(self.game, self.options)

    def position(self) -> Position[Any]:
        """The position at the head, restored from its snapshot (no move replayed); ``DamagedHead`` if it cannot."""
        if not self.position_known:
            raise DamagedHead("the head has no position (an older layout): fold the log")
        return restore(self.game, options_key(self.options), self.snapshot)


def turn_seconds(options: Mapping[str, Any]) -> int | None:
    seconds = options.get("turn_seconds")
    return int(seconds) if seconds else None


def turn_length_ms(options: Mapping[str, Any]) -> int:
    """How long a turn lasts: a live table's seconds, else the days per move."""
    seconds = turn_seconds(options)
    return seconds * 1000 if seconds else int(options["days_per_move"]) * DAY_MS


def token_matches(token_hash: str, stored: str | bytes | None) -> bool:
    """Whether a token's hash equals a stored one, in time that does not depend on where they differ."""
    if not stored:
        return False
    stored_hex = stored.hex() if isinstance(stored, bytes) else stored
    return hmac.compare_digest(token_hash.encode("ascii"), stored_hex.encode("ascii"))


GAME_ID_BYTES = 9  # 72 random bits, 12 URL-safe characters


def iso(ms: int | None) -> str | None:
    """An epoch-ms time as the API writes it (ISO 8601, UTC, whole seconds, ``Z``); None stays None."""
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
