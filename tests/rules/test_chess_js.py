"""Pass-and-play's chess (site/modules/chess_rules.js over chess.js) against shared_rules (python-chess), the
reference: the same legal moves, the same SAN and the same end, ply by ply, along random games played to their
end, among them games thinned to few pieces so that the seeds' draws (insufficient material, fifty moves,
threefold repetition) come up. One node process answers every game (tests/js/chess_rules_check.js)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from shared_rules import get_game
from shared_rules.chess_game import ChessPosition

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tests" / "js" / "chess_rules_check.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None or not (ROOT / "node_modules" / "chess.js").is_dir(), reason="node or chess.js (make node) missing"
)


def random_game(rng: random.Random, quiet_bias: float) -> list[str]:
    """A random game to its end: with ``quiet_bias``, captures are preferred (pieces come off quickly, and
    the endings where the draw rules count are reached), else any move."""
    position = get_game("chess").start()
    moves: list[str] = []
    while not position.status().is_over and len(moves) < 400:
        assert isinstance(position, ChessPosition)
        legal = position.legal_moves()
        captures = [m for m in legal if position.board.is_capture(m)]
        move = rng.choice(captures if captures and rng.random() < quiet_bias else legal)
        moves.append(move.uci())
        position = position.play(move.uci())
    return moves


def check_games(tmp_path: Path, count: int) -> set[str | None]:
    """``count`` random games (the same first ones whatever the count), answered by node and compared ply by
    ply; returns the reasons they ended for."""
    rng = random.Random(41)
    games = [random_game(rng, quiet_bias=0.9 if n % 2 else 0.0) for n in range(count)]
    path = tmp_path / "games.json"
    path.write_text(json.dumps(games))
    done = subprocess.run([str(NODE), str(CHECKER), str(path)], capture_output=True, check=False, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()
    answers = iter(json.loads(line) for line in done.stdout.decode().splitlines())
    endings = set()
    for game in games:
        position = get_game("chess").start()
        played = None
        for move in [None, *game]:
            if move is not None:
                played = position.notation(position.parse_move(move))
                position = position.play(move)
            status = position.status()
            expected = [sorted(m.uci() for m in position.legal_moves()), played, status.result, status.reason]
            assert next(answers) == expected, (game, move)
        endings.add(position.status().reason)
    return endings


def test_a_few_chess_games_agree_ply_by_ply(tmp_path: Path) -> None:
    assert {"checkmate", "insufficient_material"} <= check_games(tmp_path, 2)


@pytest.mark.slow
def test_forty_chess_games_agree_ply_by_ply(tmp_path: Path) -> None:
    endings = check_games(tmp_path, 40)
    assert {"checkmate", "stalemate", "insufficient_material", "fifty_moves", "threefold_repetition"} <= endings
