"""The events of a game's log: each changes the head one step (``games.domain.fold``).

An event is declared with its ``kind`` in one line, as a refusal with its code:
``class Resigned(Event, kind="resign"): ...``; every subclass of ``Event`` is a frozen, keyword-only
dataclass (``Event.__init_subclass__``), its fields declared below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, dataclass_transform

from games.domain.head import MAX_PLIES, Color, Seat, SeekTerms
from games.domain.rating_change import RatingChange


@dataclass_transform(frozen_default=True, kw_only_default=True)
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

    def __init_subclass__(cls, *, kind: str, **options: Any) -> None:
        """``class Resigned(Event, kind="resign")``: the event's name, said where it is declared; the class a
        frozen, keyword-only dataclass as ``Event`` is."""
        super().__init_subclass__(**options)
        cls.kind = kind
        dataclass(frozen=True, kw_only=True)(cls)


class Created(Event, kind="create"):
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


class Joined(Event, kind="join"):
    seat: Seat


class SeekAccepted(Event, kind="accept_seek"):
    """Someone accepted the open challenge: ``seat`` sits on ``by``, the seeker on the other colour."""

    seat: Seat


class SeekWithdrawn(Event, kind="withdraw_seek"):
    """The seeker withdrew the open challenge before anyone accepted it: the game never starts."""


class Moved(Event, kind="move"):
    move: str  # canonical notation
    ply: int  # the game's ply after the move
    fen: str  # the position after the move


class DrawOffered(Event, kind="offer_draw"): ...


class DrawDeclined(Event, kind="decline_draw"): ...


class DrawAccepted(Event, kind="accept_draw"): ...


class Resigned(Event, kind="resign"): ...


class TimeoutClaimed(Event, kind="claim_timeout"):
    """``by`` claimed the game on time: the side to move let its deadline pass and loses, or the game is drawn
    where the rules say so (``time_loss_result``)."""


class Aborted(Event, kind="abort"):
    """The game ends with no result and changes no rating: asked for (or a rated game resigned or drawn) before
    each side made two moves (``reason`` "aborted": ``by`` aborted it), a rated game whose side to move let its
    time run out that early, claimed, handed to the computer or at a live table (``reason`` "no_show": ``by`` is
    the side that came, the other never did), or a live table both of whose players left, the computer holding
    both seats (``reason`` "abandoned"). A tournament scores each (``tournaments.seated.result_of``)."""

    reason: str = "aborted"


class RematchOffered(Event, kind="offer_rematch"):
    """A player of a finished game asks for a rematch; nothing is created until the opponent accepts."""


class RematchDeclined(Event, kind="decline_rematch"): ...


class RematchWithdrawn(Event, kind="withdraw_rematch"): ...


class Rematched(Event, kind="rematch"):
    """The rematch is agreed (an accepted offer, or at once against the computer): ``game_id`` is the new game."""

    game_id: str


class ComputerTookOver(Event, kind="cpu_takeover"):
    seat: Color
    level: int


class Opened(Event, kind="open"):
    """The player on ``by`` opened the live table (``POST /v1/games/{id}/open``, sent by the player's page):
    the table's clock starts once every seat a person holds is opened (``GameHead.unopened``)."""


class Resumed(Event, kind="resume"): ...


class ReviewAsked(Event, kind="ask_review"):
    """A player asked for the finished game's review: its view then says there is one to read."""


class Reacted(Event, kind="react"):
    """A player sent a reaction (``games.domain.reactions``): one of the fixed set, by its key."""

    reaction: str


class ReactionsMuted(Event, kind="mute_reactions"):
    """A player muted (or heard again) the other player's reactions in this game."""

    muted: bool


class SeatForgotten(Event, kind="forget_seat"):
    """The player on ``by`` deleted their data: the seat keeps no id, name or token hash (``FORMER_PLAYER``);
    with ``by`` None, the seeker of a lobby challenge (withdrawn first)."""


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
