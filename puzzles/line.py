"""The line of a draughts puzzle: the solver's only winning moves and the best defences, by the judge."""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules.draughts.engine import RawMove, State

from .judge import Judge
from .settings import Settings


@dataclass(frozen=True)
class Line:
    moves: list[RawMove]  # the solver's and the opponent's moves alternating, the solver's first and last
    end: str  # "game": the opponent cannot move; "material": the gain is on the board, nothing to capture
    alternatives: list[RawMove]  # other moves that win as well at the last step (each ends the line too)


def line_end(judge: Judge, state: State, solver: int, target: int) -> str | None:
    """How the line ends after the solver's move that led to ``state``, or None if it goes on."""
    replies = judge.model.moves(state)
    if not replies:
        return "game"
    if not replies[0].captured and judge.balance(state, solver) >= target:
        return "material"
    return None


def solve(judge: Judge, state: State, settings: Settings) -> Line | None:
    """The puzzle's line from ``state``: the solver's only winning moves and the best defences.

    Where more than one move wins and each of them ends the line at once (the game won, or the gain on
    the board), the best-scoring one is the solution and the others are recorded as alternatives.
    None when some step has no clear winner, or two winners that lead on differently.
    """
    engine = judge.engine
    solver = state.turn
    base = judge.base(state)
    target = judge.threshold(base)
    line: list[RawMove] = []
    for _ in range(settings.max_solver_moves):
        winners = judge.winners(state, base)
        if not winners:
            return None
        ends = [line_end(judge, engine.play(state, move), solver, target) for move in winners]
        if len(winners) > 1:
            if None in ends or 2 * len(winners) > len(judge.model.moves(state)) - 2:
                return None  # winners leading on differently, or a position where most moves win
            ranked = sorted(winners, key=lambda move: -judge.score(state, move, settings.depth))
            end = ends[winners.index(ranked[0])]
            return None if end is None else Line([*line, ranked[0]], end, ranked[1:])
        line.append(winners[0])
        state = engine.play(state, winners[0])
        if ends[0] is not None:
            return Line(line, ends[0], [])
        reply = judge.best_reply(state)
        line.append(reply)
        state = engine.play(state, reply)
    return None


def confirmed(judge: Judge, state: State, line: Line, settings: Settings) -> bool:
    """Each of the solver's steps has the same winners when every answer is searched deeper."""
    base = judge.base(state)
    last = len(line.moves) - 1
    for index, move in enumerate(line.moves):
        if index % 2 == 0:
            wanted = {move, *line.alternatives} if index == last else {move}
            found = judge.winners(state, base, depth=settings.confirm_depth)
            if found is None or set(found) != wanted:
                return False
        state = judge.engine.play(state, move)
    return True
