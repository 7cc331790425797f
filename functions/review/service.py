"""Reviewing a finished game: every position evaluated, every move marked, each player's accuracy, and the
personal puzzles made from the mistakes.

    >>> review = review_game("english", {}, None, moves)          # doctest: +SKIP
    >>> [(m.ply, m.move, m.mark) for m in review.moves if m.mark]  # doctest: +SKIP

The routes (asking for a review, reading it) and the queue that runs this off the request path are thin glue
around ``review_game``: it needs only the game as the store keeps it (name, options, start FEN, moves).

**Personal puzzles.** Around every move marked a mistake or a blunder two positions are judged as the puzzle
sets judge theirs (one move clearly best, and a clear advantage after it: ``Analyser.puzzle``; draughts: the
sets' own generator and judge):

* ``missed``: the position before the mistake, the player to move: the win they did not see;
* ``punish``: the position the mistake left, the opponent to move: the punishment it allowed.

Each that passes becomes a puzzle record in the sets' shape (``puzzles/README.md``) that belongs to the
player who made the mistake (``owner``), for "Your mistakes".
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from shared_rules import Position, get_game
from shared_rules.names import Colour

from .domain import SCALES, Evaluation, GameReview, Mark, MoveReview, accuracy, move_loss
from .engines import Analyser, Analysis, analyser_for

#: The marks around which positions are judged for personal puzzles.
PUZZLE_MARKS = (Mark.MISTAKE, Mark.BLUNDER)
LICENCE = "GPL-3.0-or-later"


def review_game(
    game_name: str,
    options: Mapping[str, Any] | None,
    fen: str | None,
    moves: Sequence[str],
    *,
    source: str = "",
    analyser: Analyser | None = None,
) -> GameReview:
    """The review of a finished game played from ``fen`` (None: the start) with ``moves`` in notation.

    A game ends by resignation, time or agreement as well as on the board, so whether it is finished is the
    caller's question (the games' head knows). Raises the rules' errors for an unknown game, bad options, a bad
    FEN or an illegal move (``InvalidMove`` with the move's index). ``source`` names the game in the puzzles'
    ``source``. ``analyser`` replaces the game's engine (the caller then closes it).
    """
    game = get_game(game_name, dict(options or {}))
    game.replay(moves, fen)  # the rules' refusal of a bad FEN or move (``InvalidMove`` with its index)
    positions = [game.from_fen(fen) if fen else game.start()]
    played = []
    for text in moves:
        move = positions[-1].parse_move(text)
        played.append(positions[-1].notation(move))
        positions.append(positions[-1].play(move))
    engine = analyser or analyser_for(positions[0])
    try:
        return _review(game.name, positions, played, engine, source)
    finally:
        if analyser is None:
            engine.close()


def _review(
    game: str, positions: list[Position[Any]], notations: list[str], engine: Analyser, source: str
) -> GameReview:
    scale = SCALES[game]
    analyses = [_final(position) or engine.analyse(position) for position in positions]
    chances = [analysis.evaluation.chances(scale) for analysis in analyses]
    reviews = []
    puzzles = []
    judged: dict[int, dict[str, Any] | None] = {}  # by the ply of the position: each is judged once
    for ply in range(1, len(positions)):
        before, after = positions[ply - 1], positions[ply]
        mover: Colour = "white" if before.turn == "white" else "black"
        played = notations[ply - 1]
        best = analyses[ply - 1].best or played
        loss = move_loss(mover, chances[ply - 1], chances[ply])
        mark = None if played == best else scale.mark(loss)
        reviews.append(MoveReview(ply, played, analyses[ply].evaluation, best, mark, mover, round(loss, 3)))
        if mark in PUZZLE_MARKS:
            for kind, position in (("missed", before), ("punish", after)):
                at = ply - 1 if kind == "missed" else ply
                if at not in judged:
                    judged[at] = _puzzle(engine, position)
                puzzle = judged[at]
                if puzzle is not None:
                    puzzles.append(_personal(puzzle, game, mover, ply, mark, kind, source))
    first: Colour = "white" if positions[0].turn == "white" else "black"
    return GameReview(game, analyses[0].evaluation, tuple(reviews), accuracy(chances, first), tuple(puzzles))


def _puzzle(engine: Analyser, position: Position[Any]) -> dict[str, Any] | None:
    return None if position.status().is_over else engine.puzzle(position)


def _final(position: Position[Any]) -> Analysis | None:
    """A finished game needs no engine: its result is its evaluation."""
    status = position.status()
    if not status.is_over:
        return None
    if status.result == "draw":
        return Analysis(Evaluation.of_score(0), None)
    return Analysis(Evaluation.win("white" if status.result == "white" else "black", 0), None)


def _personal(
    puzzle: dict[str, Any], game: str, owner: Colour, ply: int, mark: Mark, kind: str, source: str
) -> dict[str, Any]:
    """A puzzle record in the sets' shape, with whose mistake it comes from, where, and which ``kind``."""
    digest = hashlib.sha1(f"{game}|{puzzle['fen']}|{' '.join(puzzle['solution'])}".encode()).hexdigest()[:10]
    record = {
        **puzzle,
        "id": f"{game}-mine-{digest}",
        "game": game,
        "source": f"{source} ply {ply}".strip() if source else f"ubao game review, ply {ply}",
        "licence": LICENCE,
        "owner": owner,
        "ply": ply,
        "mark": mark.value,
        "kind": kind,
    }
    record.pop("difficulty", None)
    return record
