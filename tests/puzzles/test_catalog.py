"""The puzzle catalogue the puzzles Lambda reads: every set loads, ids resolve, nothing leaks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzles import catalog

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", catalog.GAMES)
def test_loads_every_line_and_finds_each_by_id(game):
    puzzles = catalog.load(game)
    lines = (ROOT / "puzzles" / f"{game}.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(puzzles) == len(lines)
    for puzzle, line in zip(puzzles[:50], lines[:50], strict=True):
        record = json.loads(line)
        assert puzzle.id == record["id"] and list(puzzle.solution) == record["solution"]
        assert catalog.find(puzzle.id) is puzzle
        assert puzzle.solver_moves == tuple(record["solution"][::2])


def test_turn_and_public_view():
    chess = catalog.find("chess-00008")
    assert chess is not None and chess.turn == "white"  # Black's setting-up move was played
    view = chess.public()
    assert "solution" not in view and view["turn"] == "white" and view["fen"] == chess.fen
    for game in ("english", "tanzanian"):
        for puzzle in catalog.load(game)[:20]:
            assert puzzle.turn == ("white" if puzzle.fen.startswith("W") else "black")


def test_unknown_ids_and_games():
    assert catalog.find("chess-no-such-puzzle") is None
    assert catalog.find("checkers-00008") is None
    assert catalog.find(None) is None  # type: ignore[arg-type]  # a caller without an id
    with pytest.raises(ValueError, match="unknown game"):
        catalog.load("checkers")


def test_the_catalogue_does_not_import_the_rules_or_the_search():
    code = (
        "import sys, puzzles.catalog; print(sorted(m for m in sys.modules if m.startswith(('shared_rules', 'chess'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
