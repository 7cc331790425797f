"""The outcome of a position: who won, or a draw, and why."""

from __future__ import annotations

from typing import Any, NamedTuple

ONGOING = "ongoing"
WHITE = "white"
BLACK = "black"
DRAW = "draw"

#: Every reason the rules layer can give for a finished game.
REASONS = (
    "checkmate",
    "stalemate",
    "threefold_repetition",
    "fifty_moves",
    "insufficient_material",
    "no_pieces",
    "no_moves",
    "forty_moves",
    "move_limit",
    "three_kings_countdown",
    "thirty_moves",
)


class Status(NamedTuple):
    """``result`` is ``ongoing``, ``white``, ``black`` or ``draw``; ``reason`` is None while ongoing."""

    result: str
    reason: str | None = None

    @property
    def is_over(self) -> bool:
        return self.result != ONGOING

    def as_dict(self) -> dict[str, Any]:
        return {"result": self.result, "reason": self.reason}


IN_PROGRESS = Status(ONGOING, None)


def other(color: str) -> str:
    return BLACK if color == WHITE else WHITE
