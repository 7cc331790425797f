"""The events of a game's log: each changes the head one step (``games.domain.fold``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from games.domain.head import MAX_PLIES, Color, Seat, SeekTerms
from games.domain.rating_change import RatingChange


@dataclass(frozen=True, kw_only=True)
class Event:
    """One entry of a game's log. ``seq`` and ``at`` are set by the service when it appends the event."""

    #: The event's name in the log and in the metrics (each kind of event sets its own).
    kind: ClassVar[str] = ""
    seq: int = 0
    at: int = 0
    by: Color | None = None
    #: Set on the event that ends a rated game: the players' rating change, fixed once with the game's end.
    rating_change: RatingChange | None = None
    #: Set on the event that starts a rated game (a join, a taken seek, a rematch's creation) when the pair has
    #: had its rated games of the day: the game is played casual (docs/games.md, "Fair play").
    casual: bool = False
    #: Set on the event that starts a live table between two people: each side's rating in the game then
    #: (white, black), so Tazama lists the top-rated tables first with no read of the ratings (``games.watch``).
    seat_ratings: tuple[int, int] | None = None


@dataclass(frozen=True, kw_only=True)
class Created(Event):
    kind: ClassVar[str] = "create"
    game_id: str
    game: str
    options: Mapping[str, Any]
    start_fen: str | None = None
    white: Seat | None = None
    black: Seat | None = None
    invite_key: bytes | None = None
    rematch_of: str | None = None
    max_plies: int = MAX_PLIES
    #: An open challenge of the lobby: no seat taken until someone accepts it (``SeekAccepted``).
    seek: SeekTerms | None = None


@dataclass(frozen=True, kw_only=True)
class Joined(Event):
    kind: ClassVar[str] = "join"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class SeekAccepted(Event):
    """Someone accepted the open challenge: ``seat`` sits on ``by``, the seeker on the other colour."""

    kind: ClassVar[str] = "accept_seek"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class SeekWithdrawn(Event):
    """The seeker withdrew the open challenge before anyone accepted it: the game never starts."""

    kind: ClassVar[str] = "withdraw_seek"


@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    kind: ClassVar[str] = "move"
    move: str  # canonical notation
    ply: int  # the game's ply after the move
    fen: str  # the position after the move


@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    kind: ClassVar[str] = "offer_draw"


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    kind: ClassVar[str] = "decline_draw"


@dataclass(frozen=True, kw_only=True)
class DrawAccepted(Event):
    kind: ClassVar[str] = "accept_draw"


@dataclass(frozen=True, kw_only=True)
class Resigned(Event):
    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, kw_only=True)
class TimeoutClaimed(Event):
    kind: ClassVar[str] = "claim_timeout"


@dataclass(frozen=True, kw_only=True)
class Aborted(Event):
    """The game ends with no result and changes no rating: asked for (or a rated game resigned or drawn) before
    each side made two moves (``reason`` "aborted": ``by`` aborted it), a rated game whose side to move let its
    time run out that early, claimed, handed to the computer or at a live table (``reason`` "no_show": ``by`` is
    the side that came, the other never did), or a live table both of whose players left, the computer holding
    both seats (``reason`` "abandoned"). A tournament scores each (``tournaments.seated.result_of``)."""

    kind: ClassVar[str] = "abort"
    reason: str = "aborted"


@dataclass(frozen=True, kw_only=True)
class RematchOffered(Event):
    """A player of a finished game asks for a rematch; nothing is created until the opponent accepts."""

    kind: ClassVar[str] = "offer_rematch"


@dataclass(frozen=True, kw_only=True)
class RematchDeclined(Event):
    kind: ClassVar[str] = "decline_rematch"


@dataclass(frozen=True, kw_only=True)
class RematchWithdrawn(Event):
    kind: ClassVar[str] = "withdraw_rematch"


@dataclass(frozen=True, kw_only=True)
class Rematched(Event):
    """The rematch is agreed (an accepted offer, or at once against the computer): ``game_id`` is the new game."""

    kind: ClassVar[str] = "rematch"
    game_id: str


@dataclass(frozen=True, kw_only=True)
class ComputerTookOver(Event):
    kind: ClassVar[str] = "cpu_takeover"
    seat: Color
    level: int


@dataclass(frozen=True, kw_only=True)
class Opened(Event):
    """The player on ``by`` opened the live table (``POST /v1/games/{id}/open``, sent by the player's page):
    the table's clock starts once every seat a person holds is opened (``GameHead.unopened``)."""

    kind: ClassVar[str] = "open"


@dataclass(frozen=True, kw_only=True)
class Resumed(Event):
    kind: ClassVar[str] = "resume"


@dataclass(frozen=True, kw_only=True)
class ReviewAsked(Event):
    """A player asked for the finished game's review: its view then says there is one to read."""

    kind: ClassVar[str] = "ask_review"


@dataclass(frozen=True, kw_only=True)
class Reacted(Event):
    """A player sent a reaction (``games.domain.reactions``): one of the fixed set, by its key."""

    kind: ClassVar[str] = "react"
    reaction: str


@dataclass(frozen=True, kw_only=True)
class ReactionsMuted(Event):
    """A player muted (or heard again) the other player's reactions in this game."""

    kind: ClassVar[str] = "mute_reactions"
    muted: bool


@dataclass(frozen=True, kw_only=True)
class SeatForgotten(Event):
    """The player on ``by`` deleted their data: the seat keeps no id, name or token hash (``FORMER_PLAYER``);
    with ``by`` None, the seeker of a lobby challenge (withdrawn first)."""

    kind: ClassVar[str] = "forget_seat"


AnyEvent: TypeAlias = (
    Created
    | Joined
    | Moved
    | DrawOffered
    | DrawDeclined
    | DrawAccepted
    | Resigned
    | TimeoutClaimed
    | Aborted
    | RematchOffered
    | RematchDeclined
    | RematchWithdrawn
    | Rematched
    | ComputerTookOver
    | Opened
    | Resumed
    | ReviewAsked
    | Reacted
    | ReactionsMuted
    | SeatForgotten
    | SeekAccepted
    | SeekWithdrawn
)
