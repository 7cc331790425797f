"""Every kings-only ending of one, two or three kings against a lone king, solved once by retrograde
analysis: for each position with the strong side to move, the fewest moves of its own it needs to
take the lone king against any defence (``NEVER`` when twelve are not enough).

The answers are those of ``countdown.CountdownSolver`` (the same rules: a win when the lone king is
taken or left without a move; after the lone king takes a king the others go on with what is left of
the count), but worked out for all the positions at once, so one table, built in seconds, answers
every countdown study instead of a search per study that explored much of the same ending again.

How: the positions are enumerated up to the board's four symmetries that keep its dark squares, and
each one's moves are played once into a graph. Then, count by count, a position with the lone king to
move is lost within ``n`` once every reply leads to a position won within ``n``; a position with the
strong side to move is won within ``n + 1`` once one of its moves leads there (or wins at once).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from shared_rules.draughts.engine import Engine, RawMove, State
from shared_rules.draughts.game import COUNTDOWN_MOVES

NEVER = COUNTDOWN_MOVES + 1
Key = tuple[int, int]  # (the side to move's kings, the other side's), the smallest image under the symmetries


class Symmetries:
    """The canonical key of a kings-only position: colours do not matter, nor do the board's symmetries."""

    def __init__(self, engine: Engine):
        size = engine.variant.size
        where = {coords: square for square, coords in engine.coords.items()}
        images: tuple[Callable[[int, int], tuple[int, int]], ...] = (
            lambda r, f: (size - 1 - r, size - 1 - f),  # half a turn
            lambda r, f: (f, r),  # mirrored in the long diagonal
            lambda r, f: (size - 1 - f, size - 1 - r),  # ... and in the other diagonal
        )
        self.maps = [
            [where[image(*engine.coords[q])] if q in engine.coords else 0 for q in range(engine.nbits)]
            for image in images
        ]

    def key(self, state: State) -> Key:
        mover, other = (state.white, state.black) if state.turn == 0 else (state.black, state.white)
        best = (mover, other)
        for squares in self.maps:
            image = (mapped(mover, squares), mapped(other, squares))
            if image < best:
                best = image
        return best


def mapped(mask: int, squares: list[int]) -> int:
    image = 0
    while mask:
        low = mask & -mask
        image |= 1 << squares[low.bit_length() - 1]
        mask ^= low
    return image


class CountdownTable:
    """Moves to a catch for every position of 1-3 kings (to move) against a lone king."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.symmetries = Symmetries(engine)
        self.won_in: dict[Key, int] = {}  # strong side to move -> fewest moves to the catch (< NEVER)
        self._build()

    # ------------------------------------------------------------- questions

    def moves_to_win(self, state: State) -> int:
        """The fewest moves the side to move (the strong side) needs to take the lone king; NEVER if
        more than the count allows (or it has no king left)."""
        return self.won_in.get(self.symmetries.key(state), NEVER)

    def move_needs(self, state: State, move: RawMove) -> int:
        """The moves, this one included, that ``move`` needs to take the lone king against any defence."""
        engine = self.engine
        after = engine.play(state, move)
        lone = after.white if after.turn == 0 else after.black
        if not lone:
            return 1
        replies = engine.legal_moves(after)
        if not replies:
            return 1
        return min(NEVER, 1 + max(self.moves_to_win(engine.play(after, reply)) for reply in replies))

    def move_wins(self, state: State, move: RawMove, moves_left: int) -> bool:
        return self.move_needs(state, move) <= moves_left

    def wins_within(self, state: State, moves_left: int) -> bool:
        return self.moves_to_win(state) <= moves_left

    # ------------------------------------------------------------- the analysis

    def _build(self) -> None:
        strong_moves, lone_replies = self._graph()
        won_in = self.won_in
        for key, (at_once, _) in strong_moves.items():
            if at_once:
                won_in[key] = 1
        lost_in: dict[Key, int] = {}  # lone king to move -> the strong side's moves still needed
        for count in range(1, COUNTDOWN_MOVES):
            for key, children in lone_replies.items():
                if key not in lost_in and all(won_in.get(child, NEVER) <= count for child in children):
                    lost_in[key] = count
            for key, (_, afters) in strong_moves.items():
                if key not in won_in and any(lost_in.get(after, NEVER) <= count for after in afters):
                    won_in[key] = count + 1

    def _graph(self) -> tuple[dict[Key, tuple[bool, set[Key]]], dict[Key, set[Key]]]:
        """For each position with the strong side to move: whether a move wins at once, and the
        positions (lone king to move) its other moves lead to; for each of those, where its replies lead."""
        engine, key_of = self.engine, self.symmetries.key
        squares = sorted(engine.coords)
        strong_moves: dict[Key, tuple[bool, set[Key]]] = {}
        lone_replies: dict[Key, set[Key]] = {}
        for kings in (1, 2, 3):
            for placed in combinations(squares, kings):
                strong = sum(1 << square for square in placed)
                for square in squares:
                    if strong >> square & 1:
                        continue
                    state = State(strong, 1 << square, strong | 1 << square, 0)
                    key = key_of(state)
                    if key in strong_moves:
                        continue
                    at_once, afters = False, set()
                    for move in engine.legal_moves(state):
                        after = engine.play(state, move)
                        replies = engine.legal_moves(after) if after.black else []
                        if not replies:
                            at_once = True
                            continue
                        after_key = key_of(after)
                        afters.add(after_key)
                        if after_key not in lone_replies:
                            lone_replies[after_key] = {key_of(engine.play(after, reply)) for reply in replies}
                    strong_moves[key] = (at_once, afters)
        return strong_moves, lone_replies
