"""Puzzle ratings that move with players' results, written without a hot key. Pure; the store is in
``puzzles_api.repository.PuzzleStore`` and the service in ``service``.

Every first finished attempt adds its game to one of the puzzle's ``COUNTER_SHARDS`` counter items, chosen
at random (an ``ADD``, the attempt's third write, as before): ``plays``, ``solves`` and the two Glicko-2
sums of the period, ``info`` (Σ g² E (1 − E)) and ``gain`` (Σ g (s − E)), from the puzzle's side (a solve
is the puzzle's loss), against the ratings the attempt used. No attempt reads or writes the puzzle's
rating itself, so the daily puzzle, which every player plays on the same day, is never one hot key.

The puzzle's rating item holds its rating and the totals already *folded* into it. When the puzzle is
served (daily, by id, next) and this process has not looked for ``CACHE_SECONDS``, one BatchGetItem reads
the rating item and the shards; the games since the last fold are the shards' totals minus the folded
ones, and once there are ``FOLD_GAMES`` of them or ``FOLD_SECONDS`` have passed they are one Glicko-2
rating period (``glicko2.update_from_terms``). The new rating is written on the condition that the folded
count is still the one read: of two processes folding at once, one wins and the other keeps what it read.
The shards only grow, so a fold never loses a game and never counts one twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.ratings import glicko2

from puzzles_api.domain.progress import PUZZLE_RD

#: The deviation a puzzle starts with: its set rating (Lichess's, or the generator's estimate) is trusted
#: about as much as a settled player's rating, as the players' updates always took it.
START_RD = PUZZLE_RD
START_VOLATILITY = 0.06
#: A period ends when this many games are waiting, or when the oldest fold is this old.
FOLD_GAMES = 20
FOLD_SECONDS = 600
#: How long a process trusts the rating it read before looking again (a read per puzzle per process).
CACHE_SECONDS = 300


@dataclass(frozen=True)
class Totals:
    """Counted games: the shards' sums, or the part already folded into the rating."""

    plays: int = 0
    solves: int = 0
    info: float = 0.0
    gain: float = 0.0

    def __sub__(self, other: Totals) -> Totals:
        return Totals(
            self.plays - other.plays, self.solves - other.solves, self.info - other.info, self.gain - other.gain
        )


@dataclass(frozen=True)
class PuzzleRating:
    rating: glicko2.Rating
    folded: Totals = Totals()
    at: int = 0  # when it was last folded (seconds since the epoch); 0: never

    @classmethod
    def start(cls, set_rating: float) -> PuzzleRating:
        return cls(glicko2.Rating(float(set_rating), START_RD, START_VOLATILITY))

    def folded_with(self, totals: Totals, now: int) -> PuzzleRating | None:
        """This rating after the games counted since the last fold, as one period; None when it is not time."""
        period = totals - self.folded
        if period.plays <= 0:
            return None
        if period.plays < FOLD_GAMES and now - self.at < FOLD_SECONDS:
            return None
        rating = glicko2.update_from_terms(self.rating, period.info, period.gain, period.plays)
        return PuzzleRating(rating, totals, now)


def game_terms(puzzle: glicko2.Rating, player: glicko2.Rating, solved: bool) -> tuple[float, float]:
    """The attempt's share of the puzzle's period sums (``info``, ``gain``): a solve is the puzzle's loss."""
    return glicko2.result_terms(puzzle, player, 0.0 if solved else 1.0)
