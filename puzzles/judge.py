"""What makes a draughts puzzle, decided by search: exactly one move wins, every other move fails.

Scores are in hundredths of a man, for the solver, from a search to a fixed depth. ``base`` is the
solver's material balance at the start, counted as no better than level (a puzzle is about winning a
man, or more, or the game, from a position that is not already won).

* The generator keeps a step when one move scores at least ``base + WIN_GAIN`` (a man) and every
  other move scores below ``base + FAIL_GAIN`` (0.4 of a man); a move in between rejects the step.
* The tests call a move winning when it scores at least ``base + CHECK_GAIN`` (0.7 of a man), in
  between, so that a verdict flips only if another search moves a score by 0.3 of a man.

Every question is answered by a fresh search (the table is cleared first), so an answer depends only
on the position, the move, the threshold and the depth.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared_rules.draughts.engine import RawMove, State
from shared_rules.search import NodeLimitReached, Searcher
from shared_rules.search.draughts import DraughtsModel, DraughtsWeights

from .quick_search import QuickModel, QuickSearcher

WIN_GAIN = 100  # a man: the gain the winning move must show, and the material the line must end with
FAIL_GAIN = 40  # every other move must stay below this
CHECK_GAIN = 70  # the tests' single threshold, between the two

# The evaluation the puzzle sets were judged with, pinned here so that tuning the computer
# opponent's evaluation (shared_rules.search.draughts.WEIGHTS) does not silently change the verdicts.
_ENGLISH_WEIGHTS = DraughtsWeights(
    man=100,
    king=150,
    advancement=(0, 0, 1, 3, 6, 10, 16),
    tempo=2,
    back_rank=6,
    mobility=2,
    king_centre=6,
    king_long_diagonal=0,
)
PUZZLE_WEIGHTS = {
    "english": _ENGLISH_WEIGHTS,
    # Flying kings: a king worth three men, and the long diagonal counts (as the computer's weights say).
    "tanzanian": replace(_ENGLISH_WEIGHTS, king=300, back_rank=8, mobility=1, king_long_diagonal=15),
}


class Undecided(Exception):
    """The search ran out of nodes before it could tell whether a move wins."""


@dataclass(frozen=True)
class Verdict:
    move: RawMove
    wins: bool  # scores at least the winning threshold
    clear: bool  # outside the band between failing and winning


class Judge:
    """Asks the searcher the questions a puzzle depends on, for one draughts variant."""

    def __init__(self, game: str, *, depth: int, node_limit: int, quick: bool = False):
        """``quick``: the same search on a faster path (``puzzles.quick_search``: same nodes, same scores)."""
        self.game = game
        model_class, searcher_class = (QuickModel, QuickSearcher) if quick else (DraughtsModel, Searcher)
        self.model = model_class(game, weights=PUZZLE_WEIGHTS[game])
        self.engine = self.model.engine
        self.searcher = searcher_class(self.model, table_limit=200_000)
        self.depth = depth
        self.node_limit = node_limit

    # ------------------------------------------------------------- material

    def balance(self, state: State, solver: int) -> int:
        """The solver's material lead (men and kings), 0 where the rules make the ending a draw."""
        if self.model.drawn_ending(state):
            return 0  # a lone king holding out against the countdown
        material = self.model.material(state)
        return material if solver == 0 else -material

    def base(self, state: State) -> int:
        return max(self.balance(state, state.turn), 0)

    def threshold(self, base: int) -> int:
        """The score (and, at the end of a line, the material) that wins: a man more than the start."""
        return base + WIN_GAIN

    # ------------------------------------------------------------- questions

    def reaches(self, state: State, move: RawMove, threshold: int, depth: int | None = None) -> bool:
        """Does ``move`` score at least ``threshold`` for the side to move in ``state``?"""
        depth = self.depth if depth is None else depth
        child = self.engine.play(state, move)
        searcher = self.searcher
        searcher.clear()
        try:
            # The child is searched from the opponent's side: solver >= t  <=>  opponent <= -t.
            value = searcher.value(child, depth - 1, -threshold, -threshold + 1, node_limit=self.node_limit)
        except NodeLimitReached:
            raise Undecided from None
        return -value >= threshold

    def score(self, state: State, move: RawMove, depth: int) -> int:
        """The move's score for the side to move, searched ``depth`` plies (full window)."""
        child = self.engine.play(state, move)
        self.searcher.clear()
        try:
            return -self.searcher.value(child, depth - 1, node_limit=self.node_limit)
        except NodeLimitReached:
            raise Undecided from None

    def verdict(
        self, state: State, move: RawMove, base: int, depth: int | None = None, *, strict: bool = True
    ) -> Verdict:
        """Does ``move`` win? Strict (the generator): it gains a man, and the answer is clear only
        outside the band from ``FAIL_GAIN`` to ``WIN_GAIN``. Not strict (the tests): ``CHECK_GAIN``."""
        if not strict:
            return Verdict(move, self.reaches(state, move, base + CHECK_GAIN, depth), True)
        if not self.reaches(state, move, base + FAIL_GAIN, depth):
            return Verdict(move, False, True)  # the cheaper question first: most moves fail it
        wins = self.reaches(state, move, base + WIN_GAIN, depth)
        return Verdict(move, wins, wins)

    def verdicts(self, state: State, base: int, depth: int | None = None, *, strict: bool = True) -> list[Verdict]:
        """The verdict on every legal move."""
        return [self.verdict(state, move, base, depth, strict=strict) for move in self.model.moves(state)]

    def only_winner(self, state: State, base: int, depth: int | None = None) -> RawMove | None:
        """The one winning move if exactly one wins and every answer is clear (strict); else None."""
        winner = None
        for move in self.model.moves(state):
            verdict = self.verdict(state, move, base, depth)
            if not verdict.clear or (verdict.wins and winner is not None):
                return None
            if verdict.wins:
                winner = move
        return winner

    def winners(self, state: State, base: int, depth: int | None = None) -> list[RawMove] | None:
        """Every winning move (strict), in the engine's order; None if some move is in the band between."""
        found = []
        for move in self.model.moves(state):
            verdict = self.verdict(state, move, base, depth)
            if not verdict.clear:
                return None
            if verdict.wins:
                found.append(move)
        return found

    def best_reply(self, state: State) -> RawMove:
        """The defence the search prefers (ties: the first in the engine's order)."""
        self.searcher.clear()
        move: RawMove | None = self.searcher.search(state, max_depth=self.depth, node_limit=self.node_limit).move
        if move is None:
            raise ValueError("no defence: the side to move has no legal move")
        return move
