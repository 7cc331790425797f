"""Checking an attempt at a puzzle against its solution, through the rules layer. Pure.

An attempt is the solver's moves so far. They are read in the position they are played in (SAN or UCI
for chess, PDN for draughts: whatever the rules layer reads), and each is compared with the solution's
move as a move, not as text: ``Nf3``, ``g1f3`` and ``Ng1f3`` are the same move. The opponent's answers
come from the solution.

* A solver's move that is the solution's move goes on: ``continue`` with the opponent's answer, or
  ``solved`` after the last move of the solution.
* A move that wins the game on the spot (checkmate in chess; in draughts, the opponent left without a
  piece or a move) solves the puzzle even when the solution plays another move there: any mate is a mate.
* A move the set records as an alternative at that step (``Puzzle.alternatives``: draughts, where two
  moves finish the puzzle equally well) solves it too.
* Any other legal move fails: ``failed`` with the whole solution.
* An illegal or unreadable move is not an attempt: a ``RulesError`` (422) that says which move, and no
  answer. Neither are moves sent after the attempt was already decided (``AttemptOver``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, TypeVar

from common.errors import DomainError

from puzzles.catalog import Puzzle
from shared_rules import Game, InvalidMove, Position, RulesError, get_game

Result = Literal["continue", "solved", "failed"]
MoveT = TypeVar("MoveT")


class AttemptOver(DomainError, code="attempt_over"): ...


@dataclass(frozen=True)
class Verdict:
    result: Result
    reply: str | None = None  # the opponent's answer, when the attempt goes on
    solution: tuple[str, ...] | None = None  # the whole line, when the attempt failed
    moves: tuple[str, ...] = ()  # the solver's moves in canonical notation

    @property
    def final(self) -> bool:
        return self.result != "continue"


@lru_cache(maxsize=4)
def _game(name: str) -> Game:
    return get_game(name)


def judge(puzzle: Puzzle, moves: list[str] | tuple[str, ...]) -> Verdict:
    """The verdict on the solver's ``moves`` (at least one) from the puzzle's position."""
    position: Position[Any] = _game(puzzle.game).from_fen(puzzle.fen)
    solver = position.turn
    solution = puzzle.solution
    played: list[str] = []
    for index, text in enumerate(moves):
        move = _read(position, text, index)
        played.append(position.notation(move))
        after = position.play(move)
        step = 2 * index
        last_step = step == len(solution) - 1
        expected = position.parse_move(solution[step])
        alternative = move != expected and move in _alternatives(puzzle, position, index)
        if after.status().result == solver or alternative:  # a win on the spot, or another finishing move
            verdict = Verdict("solved", moves=tuple(played))
        elif move != expected:
            verdict = Verdict("failed", solution=solution, moves=tuple(played))
        elif last_step:
            verdict = Verdict("solved", moves=tuple(played))
        else:
            reply = solution[step + 1]
            if index == len(moves) - 1:
                return Verdict("continue", reply=reply, moves=tuple(played))
            position = after.play(reply)
            continue
        if index != len(moves) - 1:
            raise AttemptOver(
                f"the attempt was {verdict.result} at move {index + 1}; send only the moves up to there",
            )
        return verdict
    raise AttemptOver("send at least one move")


def _alternatives(puzzle: Puzzle, position: Position[MoveT], index: int) -> list[MoveT]:
    """The recorded alternatives to the solver's move ``index`` (each of them finishes the puzzle)."""
    steps = puzzle.alternatives
    return [position.parse_move(text) for text in steps[index]] if index < len(steps) else []


def _read(position: Position[MoveT], text: str, index: int) -> MoveT:
    try:
        return position.parse_move(text)
    except InvalidMove as error:
        raise type(error)(f"move {index + 1} ({text!r}): {error}", index=index) from None
    except RulesError:
        raise
