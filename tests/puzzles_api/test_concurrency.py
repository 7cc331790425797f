"""Attempts at the same moment on a real dynalite server over HTTP (its conditional writes are DynamoDB's;
moto, in-process, does not serialise concurrent writers). Each request runs in its own forked process, as
each runs in its own Lambda instance."""

from __future__ import annotations

import sys

import chess
import pytest
from puzzles_api.repository import PuzzleStore

from puzzles.catalog import load
from tests.games.client import Answer, at_once
from tests.puzzles_api.client import PuzzlesApi

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")

PROCESSES = 8


def _at_once(handlers, calls) -> list[Answer]:
    """Each ``call(api)`` in its own process, all released together; the answers in order."""
    return at_once(lambda: PuzzlesApi(*handlers), calls)


def test_the_same_first_attempt_sent_at_once_counts_once(dynalite_api, handlers):
    token = dynalite_api.new_player()
    puzzle = load("chess")[0]
    moves = list(puzzle.solution[::2])
    answers = _at_once(handlers, [lambda api: api.attempt(puzzle.id, moves, token)] * PROCESSES)
    assert all(answer.status == 200 and answer.body["result"] == "solved" for answer in answers)
    assert sorted(answer.body["rated"] for answer in answers) == [False] * (PROCESSES - 1) + [True]
    progress = dynalite_api.progress(token)
    assert (progress["solved"], progress["failed"], len(progress["recent"])) == (1, 0, 1)
    assert PuzzleStore().counts(puzzle.id) == {"plays": 1, "solves": 1}


def test_different_puzzles_finished_at_once_all_count(dynalite_api, handlers):
    token = dynalite_api.new_player()
    puzzles = load("english")[:PROCESSES]
    calls = [lambda api, puzzle=puzzle: api.attempt(puzzle.id, list(puzzle.solution[::2]), token) for puzzle in puzzles]
    answers = _at_once(handlers, calls)
    assert all(answer.status == 200 and answer.body["rated"] is True for answer in answers), [a.body for a in answers]
    progress = dynalite_api.progress(token)
    assert progress["solved"] == PROCESSES and {item["id"] for item in progress["recent"]} == {p.id for p in puzzles}


@pytest.mark.parametrize("trial", range(3))
def test_a_right_and_a_wrong_answer_at_once_each_get_their_own_result_and_rated(dynalite_api, handlers, trial):
    """One player sends the solution and a wrong first move at once: the stored one counts, and each reply
    carries its own result and, only for the one that counted, ``rated``."""
    token = dynalite_api.new_player()
    puzzle = load("chess")[trial]
    right = list(puzzle.solution[::2])
    board = chess.Board(puzzle.fen)
    wrong = next(
        board.san(move)
        for move in board.legal_moves
        if board.san(move) not in (puzzle.solution[0],) and not _mates(board, move)
    )
    answers = _at_once(
        handlers,
        [lambda api: api.attempt(puzzle.id, right, token)] * 2
        + [lambda api: api.attempt(puzzle.id, [wrong], token)] * 2,
    )
    bodies = [answer.body for answer in answers]
    assert [body["result"] for body in bodies] == ["solved", "solved", "failed", "failed"], bodies
    counted = "solved" if dynalite_api.progress(token)["solved"] else "failed"
    assert sorted(body["result"] for body in bodies if body["rated"]) == [counted], bodies
    for body in bodies:
        if body["result"] != counted:
            assert body["rated"] is False and body["rating_change"] == 0, bodies


def _mates(board: chess.Board, move: chess.Move) -> bool:
    after = board.copy()
    after.push(move)
    return after.is_checkmate()
