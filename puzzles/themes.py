"""Theme tags for draughts puzzles, in the spirit of Lichess's: the goal, the motifs, the length."""

from __future__ import annotations

from collections.abc import Iterable

from shared_rules.draughts.engine import RawMove, State

from .judge import Judge
from .line import Line
from .rating import Facts

# The themes that name a motif: none may be on more than 40% of a set (Settings.motif_share).
MOTIFS = ("shot", "sacrifice", "multi_capture", "breakthrough", "capture_choice", "quiet_move", "landing", "countdown")


def themes_of(judge: Judge, state: State, line: Line, facts: Facts) -> list[str]:
    """Theme tags, in the spirit of Lichess's, for draughts. One of ``game_win``, ``promotion`` and
    ``material`` (and ``countdown``) says what the puzzle asks for: its goal."""
    themes = {_goal(line), *_material_themes(state), *_start_themes(line, facts), *_move_themes(judge, state, line)}
    length = facts.solver_moves
    themes.add("one_move" if length == 1 else "short" if length == 2 else "long" if length == 3 else "very_long")
    return sorted(themes)


def _goal(line: Line) -> str:
    if line.end == "game":
        return "game_win"
    return "promotion" if line.moves[-1].crowned else "material"  # a crowning last move: the gain is the king


def _material_themes(state: State) -> set[str]:
    pieces = state.white | state.black
    if (pieces & ~state.kings).bit_count() <= 2 and state.kings:
        return {"king_endgame"}
    return {"endgame"} if pieces.bit_count() <= 8 else set()


def _start_themes(line: Line, facts: Facts) -> set[str]:
    themes = {"sacrifice"} if facts.sacrifice else set()
    if line.moves[0].captured:
        themes.add("capture_choice")
    elif facts.quiet_start:
        themes.add("quiet_move")
    return themes


def _move_themes(judge: Judge, state: State, line: Line) -> set[str]:
    """What the line's moves show: the solver's breakthroughs, shots, multi-captures and landings, and a
    countdown anywhere on the way."""
    moves, themes, position = line.moves, set(), state
    for index, move in enumerate(moves):
        if index % 2 == 0:
            themes |= _solver_move_themes(judge, position, line, index)
        if judge.model.lone_king_draws and _three_kings_against_one(position):
            themes.add("countdown")
        position = judge.engine.play(position, move)
    return themes


def _solver_move_themes(judge: Judge, position: State, line: Line, index: int) -> set[str]:
    moves, move, themes = line.moves, line.moves[index], set()
    if move.crowned:
        themes.add("breakthrough")
    if move.captured.bit_count() >= 2 and index > 0 and moves[index - 1].captured:
        themes.add("shot")  # the opponent took, and the solver takes two or more back
    if move.captured.bit_count() >= 3:
        themes.add("multi_capture")
    alternatives = line.alternatives if index == len(moves) - 1 else []
    if judge.engine.flying and stops_matter(judge, position, move, alternatives):
        themes.add("landing")
    return themes


def stops_matter(judge: Judge, state: State, move: RawMove, alternatives: Iterable[RawMove] = ()) -> bool:
    """A flying king's move that could have stopped elsewhere on the same way (the same pieces taken,
    or none, and the same squares passed), where stopping there is not among the ``alternatives``."""
    if not (state.kings >> move.origin) & 1:
        return False
    return any(
        other.origin == move.origin
        and other.captured == move.captured
        and other.destination != move.destination
        and other not in alternatives
        and other.path[:-1] == move.path[:-1]
        and (move.captured or _same_ray(judge, move.origin, move.destination, other.destination))
        for other in judge.model.moves(state)
    )


def _same_ray(judge: Judge, origin: int, one: int, two: int) -> bool:
    return any(one in ray and two in ray for ray in judge.engine.rays[origin])


def _three_kings_against_one(state: State) -> bool:
    white, black, kings, _ = state
    return sorted((white.bit_count(), black.bit_count())) == [1, 3] and not (white | black) & ~kings
