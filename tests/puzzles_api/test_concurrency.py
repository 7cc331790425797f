"""Attempts at the same moment on a real dynalite server over HTTP (its conditional writes are DynamoDB's;
moto, in-process, does not serialise concurrent writers). Each request runs in its own forked process, as
each runs in its own Lambda instance."""

from __future__ import annotations

import multiprocessing
import sys

import pytest
from common import store
from common.store import PuzzleStore

from puzzles.catalog import load
from tests.games.client import Answer
from tests.puzzles_api.client import PuzzlesApi

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")

PROCESSES = 8


def _at_once(handlers, calls) -> list[Answer]:
    """Run each ``call(api)`` in its own process, all released together; the answers in order."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(calls))
    results = context.Queue()

    def run(index, call):
        store.reset_clients()  # a forked process must not share the parent's connections
        api = PuzzlesApi(*handlers)
        barrier.wait(timeout=60)
        answer = call(api)
        results.put((index, answer.status, answer.headers, answer.body, answer.text))

    processes = [context.Process(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for process in processes:
        process.start()
    answers = {}
    for _ in processes:
        index, status, headers, body, text = results.get(timeout=120)
        answers[index] = Answer(status, headers, body, text)
    for process in processes:
        process.join(timeout=30)
    return [answers[index] for index in range(len(calls))]


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
