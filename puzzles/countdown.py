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

The studies are proven with ``countdown_table.CountdownTable``, the same answers for every position
at once (built in about 20 CPU-seconds, where this search spent over a CPU-minute on one study);
``CountdownSolver`` stays as the independent check the tests hold the table to.
"""

from __future__ import annotations

import sys
from functools import cache

from shared_rules.draughts.engine import Engine, RawMove, State, engine_for
from shared_rules.draughts.game import COUNTDOWN_MOVES
from shared_rules.draughts.variants import VARIANTS

from .countdown_table import NEVER, CountdownTable, Key, Symmetries
from .settings import Record, draughts_rules


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
        # to be enough), keyed up to colours and the board's symmetries (``Symmetries``).
        self.memo: dict[Key, tuple[int, int]] = {}
        self.keys: dict[State, Key] = {}  # each position's memo key, worked out once
        self.symmetries = Symmetries(engine)

    def key(self, state: State) -> Key:
        key = self.keys.get(state)
        if key is None:
            key = self.keys[state] = self.symmetries.key(state)
        return key

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


@cache
def solver_for(game: str) -> CountdownSolver:
    return CountdownSolver(engine_for(VARIANTS[game]))


@cache
def table_for(game: str) -> CountdownTable:
    """The variant's retrograde table, built once per process (about 20 CPU-seconds)."""
    return CountdownTable(engine_for(VARIANTS[game]))


def winners_by_step(puzzle: Record, count_used: int = 0) -> list[tuple[list[str], int]] | str:
    """Per solver step of this countdown study, the other moves that win within the count too (in
    notation) and how many legal moves there are; or, as text, the step where the solution's move
    does not win. ``count_used``: moves of the count already made when the study starts (none in a
    set's study)."""
    game = puzzle["game"]
    table = table_for(game)
    position = draughts_rules(game).from_fen(puzzle["fen"])
    steps: list[tuple[list[str], int]] = []
    for index, text in enumerate(puzzle["solution"]):
        move = position.parse_move(text)
        if index % 2 == 0:
            moves_left = COUNTDOWN_MOVES - count_used - index // 2
            legal = position.legal_moves()
            winners = [choice for choice in legal if table.move_wins(position.state, choice, moves_left)]
            if move not in winners:
                return f"step {index // 2 + 1}: {position.notation(move)} does not win within the count"
            steps.append((sorted(position.notation(other) for other in winners if other != move), len(legal)))
        position = position.play(move)
    return steps


def prove(puzzle: Record, count_used: int = 0) -> str | None:
    """None if, at every solver step of this countdown study, the solution's move (and every recorded
    alternative) wins within the count and no other move does; else what fails."""
    found = winners_by_step(puzzle, count_used)
    if isinstance(found, str):
        return found
    recorded = puzzle.get("alternatives") or [[] for _ in found]
    for step, ((winners, _), accepted) in enumerate(zip(found, recorded, strict=True)):
        wrong = sorted(set(accepted) - set(winners), key=accepted.index)
        if wrong:
            return f"step {step + 1}: {wrong[0]} does not win within the count"
        unrecorded = [text for text in winners if text not in accepted]
        if unrecorded:
            return f"step {step + 1}: {unrecorded[0]} wins too within the count"
    return None


if __name__ == "__main__":  # python -m puzzles.countdown FEN: each move's verdict
    rules = draughts_rules("tanzanian")
    start = rules.from_fen(sys.argv[1])
    for choice in start.legal_moves():
        verdict = table_for("tanzanian").move_wins(start.state, choice, COUNTDOWN_MOVES)
        print(start.notation(choice), "wins" if verdict else "does not win")
