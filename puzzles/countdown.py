"""Three kings against a lone king, solved exactly, count and all (Tanzanian draughts).

Once one side has three kings against a lone king, it has twelve moves of its own to take that king
(``shared_rules.draughts.game.COUNTDOWN_MOVES``); then the game is drawn. That makes the ending a
finite game, and a memoized search over (position, moves left on the count) settles every move:

* the three win at once when their move takes the lone king or leaves it without a move (the rules
  look at that before the count, so the twelfth move may still win);
* a lone king that takes one of the three leaves two kings against one: the rules count no more, but
  the two are given only what is left of the count to catch it (a slower catch is not looked for:
  the evaluation calls two kings against one drawn, ``DraughtsModel.drawn_ending``);
* otherwise the three win within ``n`` moves if some move of theirs wins against every reply with
  ``n - 1`` moves left.

The memo keeps, per position with the three to move, the most moves known not to be enough and the
fewest known to be enough, so questions with different counts share their answers.
"""

from __future__ import annotations

import sys
from functools import cache

from shared_rules import get_game
from shared_rules.draughts.engine import Engine, RawMove, State, engine_for
from shared_rules.draughts.game import COUNTDOWN_MOVES
from shared_rules.draughts.variants import VARIANTS

NEVER = COUNTDOWN_MOVES + 1


def three_kings_against_one(state: State) -> bool:
    """The side to move has three kings and the other side one king, nothing else on the board."""
    mine, theirs = (state.white, state.black) if state.turn == 0 else (state.black, state.white)
    return mine.bit_count() == 3 and theirs.bit_count() == 1 and not (mine | theirs) & ~state.kings


def applies(game: str, state: State) -> bool:
    return VARIANTS[game].countdown and three_kings_against_one(state)


class CountdownSolver:
    """Exact answers for one variant's three-kings-against-one positions (the three to move)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        # (the mover's kings, the other side's) -> (most moves left known not to be enough, fewest known
        # to be enough). Only kings are on the board, so colours do not matter, and neither do the
        # board's symmetries that keep its dark squares: the key is the smallest of the four images.
        self.memo: dict[tuple[int, int], tuple[int, int]] = {}
        self.keys: dict[State, tuple[int, int]] = {}  # each position's memo key, worked out once
        size = engine.variant.size
        where = {coords: square for square, coords in engine.coords.items()}
        images = (
            lambda r, f: (size - 1 - r, size - 1 - f),  # half a turn
            lambda r, f: (f, r),  # mirrored in the long diagonal
            lambda r, f: (size - 1 - f, size - 1 - r),  # ... and in the other diagonal
        )
        self.maps = [
            [where[image(*engine.coords[q])] if q in engine.coords else 0 for q in range(engine.nbits)]
            for image in images
        ]

    def key(self, state: State) -> tuple[int, int]:
        key = self.keys.get(state)
        if key is None:
            key = self.keys[state] = self._canonical(state)
        return key

    def _canonical(self, state: State) -> tuple[int, int]:
        mover, other = (state.white, state.black) if state.turn == 0 else (state.black, state.white)
        best = (mover, other)
        for squares in self.maps:
            image = (_mapped(mover, squares), _mapped(other, squares))
            if image < best:
                best = image
        return best

    def wins_within(self, state: State, moves_left: int) -> bool:
        """Can the three, to move in ``state``, take the lone king with at most ``moves_left`` moves?"""
        if moves_left <= 0:
            return False
        key = self.key(state)
        lost_up_to, won_from = self.memo.get(key, (0, NEVER))
        if moves_left >= won_from:
            return True
        if moves_left <= lost_up_to:
            return False
        won = any(self.move_wins(state, move, moves_left) for move in self.engine.legal_moves(state))
        if won:
            won_from = moves_left
        else:
            lost_up_to = moves_left
        self.memo[key] = (lost_up_to, won_from)
        return won

    def move_wins(self, state: State, move: RawMove, moves_left: int) -> bool:
        """Does ``move`` take the lone king, with every defence, within ``moves_left`` moves (this one too)?"""
        after = self.engine.play(state, move)
        lone = after.white if after.turn == 0 else after.black
        if not lone:
            return True
        replies = self.engine.legal_moves(after)
        if not replies:
            return True
        if moves_left <= 1:
            return False  # the count runs out with the lone king still on the board
        children = [self.engine.play(after, reply) for reply in replies]
        if any(self.known_not_won(child, moves_left - 1) for child in children):
            return False  # a defence already known to hold: no need to search the others first
        return all(self.wins_within(child, moves_left - 1) for child in children)

    def known_not_won(self, state: State, moves_left: int) -> bool:
        return self.memo.get(self.key(state), (0, NEVER))[0] >= moves_left


def _mapped(mask: int, squares: list[int]) -> int:
    image = 0
    while mask:
        low = mask & -mask
        image |= 1 << squares[low.bit_length() - 1]
        mask ^= low
    return image


@cache
def solver_for(game: str) -> CountdownSolver:
    return CountdownSolver(engine_for(VARIANTS[game]))


def prove(puzzle: dict, count_used: int = 0) -> str | None:
    """None if, at every solver step of this countdown study, the solution's move (or a recorded
    alternative) wins within the count and no other move does; else what fails. ``count_used``: moves
    of the count already made when the study starts (none in a set's study)."""
    game = puzzle["game"]
    solver = solver_for(game)
    position = get_game(game).from_fen(puzzle["fen"])
    steps = puzzle.get("alternatives") or [[] for _ in puzzle["solution"][::2]]
    for index, text in enumerate(puzzle["solution"]):
        move = position.parse_move(text)
        if index % 2 == 0:
            step = index // 2
            moves_left = COUNTDOWN_MOVES - count_used - step
            accepted = [move, *(position.parse_move(other) for other in steps[step])]
            others = [other for other in position.legal_moves() if other not in accepted]
            for choice in accepted + others:  # the claimed wins first: the cheaper proofs
                wins = solver.move_wins(position.state, choice, moves_left)
                if wins != (choice in accepted):
                    verdict = "does not win" if choice in accepted else "wins too"
                    return f"step {step + 1}: {position.notation(choice)} {verdict} within the count"
        position = position.play(move)
    return None


if __name__ == "__main__":  # python -m puzzles.countdown FEN: each move's verdict
    rules = get_game("tanzanian")
    start = rules.from_fen(sys.argv[1])
    for choice in start.legal_moves():
        verdict = solver_for("tanzanian").move_wins(start.state, choice, COUNTDOWN_MOVES)
        print(start.notation(choice), "wins" if verdict else "does not win")
