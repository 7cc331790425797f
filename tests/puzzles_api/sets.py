"""The puzzle sets as the tests read them: a puzzle the test names is there (``puzzles.catalog.find`` answers
None for an unknown id; a test that means a known one says so once, here)."""

from __future__ import annotations

from puzzles import catalog
from puzzles.catalog import Puzzle


def find(puzzle_id: str) -> Puzzle:
    """The puzzle of the sets with this id; the test fails if there is none."""
    found = catalog.find(puzzle_id)
    assert found is not None, f"no puzzle {puzzle_id} in the sets"
    return found
