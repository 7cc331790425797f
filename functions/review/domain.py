"""The values of a game review, and the two judgements made from evaluations: marks and accuracy. Pure.

Every evaluation is read on a **winning-chance scale** from -1 (Black wins) to +1 (White wins), as lichess
reads Stockfish's centipawns: ``chances = 2 / (1 + exp(-k * score)) - 1``, the score clamped to +-1000
hundredths and a proven win counted as +-1. The scale flattens far from level, so a move is judged by how
much it changed the game's outcome, not the material: losing three pawns when ten up loses 0.09 (no mark),
losing one pawn from level loses 0.18 (an inaccuracy).

A move's **loss** is the mover's chances before it (the engine's best play) less the mover's chances after it.
It is marked ``?!`` from 0.1, ``?`` from 0.2 and ``??`` from 0.3 (lichess's thresholds), on each game's own
``Scale``: chess reads centipawns with lichess's k; draughts reads hundredths of a man with a steeper k, as
one man decides a draughts game more often than one pawn decides a chess game (docs/engine.md has the
table). A move that is the engine's own best move is never marked.

**Accuracy** per player is lichess's: each move's accuracy from the mover's win percentage (50 + 50 *
chances) before and after it, ``103.1668 * exp(-0.04354 * drop) - 3.1669`` clamped to 0-100, then the mean
of a volatility-weighted mean and a harmonic mean of the player's moves.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared_rules.names import Colour

#: A score beyond this many hundredths counts as this many: past ten pawns (or men) the chances are all but 1.
SCORE_CLAMP = 1000


class Mark(StrEnum):
    """A move's mark in the move list, as lichess writes them."""

    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"


@dataclass(frozen=True)
class Scale:
    """How one game's evaluations become winning chances, and the losses that earn each mark."""

    steepness: float  # k: chances per hundredth of the game's unit near level
    inaccuracy: float = 0.1
    mistake: float = 0.2
    blunder: float = 0.3

    def chances(self, score: int) -> float:
        clamped = max(-SCORE_CLAMP, min(SCORE_CLAMP, score))
        return 2 / (1 + math.exp(-self.steepness * clamped)) - 1

    def mark(self, loss: float) -> Mark | None:
        if loss >= self.blunder:
            return Mark.BLUNDER
        if loss >= self.mistake:
            return Mark.MISTAKE
        if loss >= self.inaccuracy:
            return Mark.INACCURACY
        return None


#: Chess: lichess's k (one pawn from level is 0.18). Draughts: one man from level is 0.42 (a blunder),
#: half a man 0.22 (a mistake), a quarter of a man 0.11 (an inaccuracy).
SCALES: dict[str, Scale] = {
    "chess": Scale(steepness=0.00368208),
    "english": Scale(steepness=0.009),
    "tanzanian": Scale(steepness=0.009),
}


@dataclass(frozen=True)
class Evaluation:
    """A position's value for White: ``score`` in hundredths of a pawn (chess) or of a man (draughts), or a
    proven result, ``winner`` winning in ``win_in`` of the winner's own moves (0: the game is already won).
    A drawn game over is a score of 0."""

    score: int | None = None
    winner: Colour | None = None
    win_in: int | None = None

    def __post_init__(self) -> None:
        if (self.score is None) == (self.winner is None) or (self.winner is None) != (self.win_in is None):
            raise ValueError("an evaluation is a score or a winner with the moves to the win, not both")

    @classmethod
    def of_score(cls, score: int) -> Evaluation:
        return cls(score=score)

    @classmethod
    def win(cls, winner: Colour, moves: int) -> Evaluation:
        return cls(winner=winner, win_in=moves)

    def chances(self, scale: Scale) -> float:
        """White's winning chances, from -1 to 1."""
        if self.winner is not None:
            return 1.0 if self.winner == "white" else -1.0
        return scale.chances(self.score or 0)

    def as_dict(self) -> dict[str, Any]:
        """``{"score": 35}`` or ``{"winner": "black", "win_in": 3}``."""
        if self.winner is not None:
            return {"winner": self.winner, "win_in": self.win_in}
        return {"score": self.score}


def chances_for(colour: Colour, white_chances: float) -> float:
    return white_chances if colour == "white" else -white_chances


@dataclass(frozen=True)
class MoveReview:
    """One move of the game: ``ply`` counts the moves played including this one (1 for the first), ``move``
    in the game's notation, ``eval`` the position after it, ``best`` the engine's move in the position
    before it, ``mark`` when it lost enough."""

    ply: int
    move: str
    eval: Evaluation
    best: str
    mark: Mark | None = None
    colour: Colour = "white"  # who played it
    loss: float = 0.0  # the mover's winning chances lost, 0 to 2

    def as_dict(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"ply": self.ply, "move": self.move, "eval": self.eval.as_dict(), "best": self.best}
        if self.mark is not None:
            answer["mark"] = self.mark.value
        return answer


@dataclass(frozen=True)
class Accuracy:
    white: float
    black: float


@dataclass(frozen=True)
class GameReview:
    """The review of a finished game: the evaluation before the first move, every move, each player's
    accuracy (0-100, one decimal) and the personal puzzles made from the mistakes."""

    game: str
    start: Evaluation
    moves: tuple[MoveReview, ...]
    accuracy: Accuracy
    puzzles: tuple[dict[str, Any], ...] = field(default=())

    def marked(self, mark: Mark) -> list[MoveReview]:
        return [move for move in self.moves if move.mark == mark]

    def as_dict(self) -> dict[str, Any]:
        return {
            "moves": [move.as_dict() for move in self.moves],
            "accuracy": {"white": self.accuracy.white, "black": self.accuracy.black},
        }


# ----------------------------------------------------------------- judgements


def move_loss(mover: Colour, before: float, after: float) -> float:
    """The mover's winning chances lost by a move (White's chances before and after it); never below 0."""
    return max(0.0, chances_for(mover, before) - chances_for(mover, after))


def win_percent(white_chances: float) -> float:
    return 50 + 50 * white_chances


def move_accuracy(before: float, after: float) -> float:
    """Lichess's accuracy of one move from the mover's win percentages before and after it."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw))


def accuracy(white_chances: Sequence[float], first: Colour) -> Accuracy:
    """Each player's accuracy from White's chances at every position of the game (the start first), the
    first move played by ``first``. Lichess's game accuracy: each move is weighted by how much the game
    swung around it (the standard deviation of the win percentages in a window of about a tenth of the
    game, between 0.5 and 12), and the weighted mean is averaged with the harmonic mean (each move at
    least 1), so a single blunder costs more than its share."""
    percents = [win_percent(c) for c in white_chances]
    moves = len(percents) - 1
    if moves < 1:
        return Accuracy(100.0, 100.0)
    size = max(2, min(8, moves // 10))
    head = [percents[:size]] * max(0, min(size, len(percents)) - 2)
    windows = head + [percents[i : i + size] for i in range(len(percents) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(window))) for window in windows]
    scored: dict[Colour, list[tuple[float, float]]] = {"white": [], "black": []}
    mover = first
    for index in range(moves):
        before, after = percents[index], percents[index + 1]
        if mover == "black":
            before, after = 100 - before, 100 - after
        scored[mover].append((move_accuracy(before, after), weights[min(index, len(weights) - 1)]))
        mover = "black" if mover == "white" else "white"
    return Accuracy(_player_accuracy(scored["white"]), _player_accuracy(scored["black"]))


def _player_accuracy(moves: list[tuple[float, float]]) -> float:
    if not moves:
        return 100.0
    weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
    harmonic = len(moves) / sum(1 / max(1.0, a) for a, _ in moves)
    return round((weighted + harmonic) / 2, 1)
