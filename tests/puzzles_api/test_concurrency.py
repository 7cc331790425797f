"""Attempts at the same moment on a real dynalite server over HTTP (its conditional writes are DynamoDB's;
moto, in-process, does not serialise concurrent writers). Each request runs in its own forked process, as
each runs in its own Lambda instance."""

from __future__ import annotations

import sys

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
