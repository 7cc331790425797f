"""The puzzles function's metrics: a finished attempt counts once per request line, a solve also as solved;
steps that go on count nothing (common/web/metrics.py)."""

from __future__ import annotations

from puzzles.catalog import load
from tests.games.test_metrics import emitted
from tests.puzzles_api.client import failing_line


def test_finished_attempts_and_solves_are_counted(api, capsys):
    token = api.new_player()
    puzzle = max(load("chess"), key=lambda item: (len(item.solution), item.id))  # several round trips
    capsys.readouterr()
    answers = api.solve(puzzle, token)
    assert len(answers) >= 2 and answers[-1].body["result"] == "solved"
    assert emitted(capsys) == {"PuzzleAttempts": 1, "PuzzlesSolved": 1}  # the steps before count nothing
    failed = api.attempt(puzzle.id, failing_line(puzzle))
    assert failed.status == 200 and failed.body["result"] == "failed"
    assert emitted(capsys) == {"PuzzleAttempts": 1}
