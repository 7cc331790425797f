"""What the notify function knows of a game: its seats and its state after one event (read-only, as
``notify.repository.games`` reads it from the games table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared_rules.names import COLOURS

if TYPE_CHECKING:
    from games.domain import GameHead

COLORS = COLOURS
#: Reasons a game ends that are not the last move itself.
NOT_BY_A_MOVE = frozenset({"resignation", "agreement", "timeout", "aborted", "abandoned"})


def other(color: str) -> str:
    return "black" if color == "white" else "white"


@dataclass(frozen=True)
class Seat:
    player_id: str | None  # None: the computer's own seat
    name: str | None
    cpu: bool  # the computer plays this seat (its own, or taken over)
    key: str | None = None  # the player's token hash (hex): where their blocks are kept


@dataclass(frozen=True)
class GameState:
    """The game after (or, ``later``, some time after) the event being handled."""

    game_id: str
    game: str  # chess, english, tanzanian
    seq: int
    ply: int
    state: str  # waiting, active, finished
    turn: str
    result: str | None  # white, black, draw (finished games)
    reason: str | None
    draw_offer: str | None
    seats: dict[str, Seat]
    later: bool = False  # the head was past the event
    rated: bool = False  # a rated game: reviewed by itself once it ends (notify/service/reviews.py)

    @staticmethod
    def of_head(head: GameHead, later: bool = False) -> GameState:
        seats: dict[str, Seat] = {}
        for color in COLORS:
            seat = head.seat(color)
            key = seat.key.hex() if seat and seat.key else None
            seats[color] = Seat(seat.player_id, seat.name, bool(seat.cpu), key) if seat else Seat(None, None, False)
        return GameState(
            game_id=head.id,
            game=head.game,
            seq=head.seq,
            ply=head.ply,
            state=head.state,
            turn=head.turn,
            result=head.result if head.state == "finished" else None,
            reason=head.reason,
            draw_offer=head.draw_offer,
            seats=seats,
            later=later,
            rated=bool(head.options.get("rated")),
        )
