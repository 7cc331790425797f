"""A game's review as it is kept: typed values, no storage (the codec is ``common.reviews.repository``'s)
and no HTTP (the games function's view answers them). The review function makes them (``review.service``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from shared_rules.names import Colour

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
class MistakePuzzle:
    """A puzzle a review made from a mistake: the fields of the sets' puzzles (``puzzles.catalog.Puzzle``), whose
    mistake it was (``owner``), at which ``ply``, its ``mark``, its ``kind`` ("missed": the owner's move before
    the mistake; "punish": the opponent's after it) and the move ``played`` there (the last three are None on
    puzzles stored before they were kept)."""

    id: str
    game: str
    fen: str
    solution: tuple[str, ...]
    rating: int
    themes: tuple[str, ...]
    source: str
    licence: str
    owner: Colour
    ply: int
    mark: str | None = None
    kind: str | None = None
    played: str | None = None
    alternatives: tuple[tuple[str, ...], ...] = ()  # draughts: other moves that solve, one tuple a solver move


@dataclass(frozen=True)
class PersonalPuzzle:
    """A mistake's puzzle kept for the player who made it; ``finished`` once its first attempt ended."""

    player_id: str
    game_id: str
    puzzle: MistakePuzzle
    finished: bool = False

    @property
    def id(self) -> str:
        return self.puzzle.id
