"""A game's review as it is kept: typed values, no storage (the codec is ``common.reviews.repository``'s)
and no HTTP (the games function's view answers them). The review function makes them (``review.service``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["pending", "done"]


@dataclass(frozen=True)
class ReviewEval:
    """A position's value for White: a ``score`` (hundredths of a pawn or a man), or ``winner`` in ``win_in``."""

    score: int | None = None
    winner: str | None = None
    win_in: int | None = None


@dataclass(frozen=True)
class ReviewedMove:
    ply: int  # the moves played including this one: 1 for the first
    move: str  # in the game's notation
    colour: str  # who played it
    fen: str  # the position after it
    eval: ReviewEval  # of that position
    best: str  # the engine's move in the position before
    mark: str | None = None  # "?!", "?" or "??"
    best_squares: tuple[str, ...] | None = None  # a marked move's best move: from, to


@dataclass(frozen=True)
class ReviewResult:
    """A done review: the first position and its value, every move, each side's accuracy (0-100), and how many
    personal puzzles each side's mistakes made (None on reviews stored before they were counted)."""

    start_fen: str
    start_eval: ReviewEval
    moves: tuple[ReviewedMove, ...]
    accuracy_white: float
    accuracy_black: float
    puzzles: Mapping[str, int] | None = None


@dataclass(frozen=True)
class StoredReview:
    game_id: str
    status: Status
    requested: int  # epoch ms
    result: ReviewResult | None = None  # once done


@dataclass(frozen=True)
class PersonalPuzzle:
    player_id: str
    game_id: str
    record: dict[str, Any] = field(hash=False)  # the puzzle in the sets' shape, with owner, ply, mark and kind
    finished: bool = False

    @property
    def id(self) -> str:
        return str(self.record["id"])
