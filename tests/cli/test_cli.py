"""The ``ubao`` console script, run as a user runs it: a separate process, its output and exit code."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UBAO = shutil.which("ubao", path=str(Path(sys.executable).parent))


def ubao(*args: str) -> subprocess.CompletedProcess:
    command = [UBAO] if UBAO else [sys.executable, "-m", "shared_rules.cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_moves_lists_the_seven_opening_moves_of_english_draughts():
    result = ubao("moves", "english")
    assert result.returncode == 0
    assert result.stdout.split() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_moves_from_a_fen_in_algebraic_notation():
    # A flying king on a1 must take c3, land on d4 (from where it takes e5) and may then stop anywhere behind e5.
    result = ubao("moves", "tanzanian", "--fen", "W:WKa1:Bc3,e5")
    assert result.returncode == 0
    assert sorted(result.stdout.split()) == ["a1xd4xf6", "a1xd4xg7", "a1xd4xh8"]


@pytest.mark.parametrize(
    ("game", "depth", "count"), [("english", 5, 7361), ("tanzanian", 6, 36768), ("chess", 3, 8902)]
)
def test_perft_prints_the_leaf_count_alone_on_the_last_line(game, depth, count):
    result = ubao("perft", game, str(depth))
    assert result.returncode == 0
    assert result.stdout.strip().splitlines()[-1] == str(count)


def test_perft_divide_sums_to_the_total():
    result = ubao("perft", "english", "3", "--divide")
    lines = result.stdout.strip().splitlines()
    per_move = {line.split(":")[0]: int(line.split(":")[1]) for line in lines[:-1]}
    assert len(per_move) == 7 and sum(per_move.values()) == int(lines[-1]) == 302


def test_play_prints_fen_status_and_legal_moves_as_json():
    result = ubao("play", "chess", "f3", "e5", "g4", "Qh4#")
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert out["status"] == {"result": "black", "reason": "checkmate"}
    assert out["legal_moves"] == []
    assert out["fen"].startswith("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w")


def test_play_takes_options_before_and_after_the_moves():
    result = ubao("play", "english", "9-13", "--option", "move_limit=2", "22-18")
    assert json.loads(result.stdout)["status"] == {"result": "draw", "reason": "move_limit"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("moves", "checkers"), "unknown game 'checkers'"),
        (("moves", "english", "--fen", "B:W21,22:B1,99"), "'99' is not a square"),
        (("moves", "tanzanian", "--fen", "W:Wb1:Bc3"), "light square"),
        (("moves", "chess", "--fen", "not a fen"), "FEN"),
        (("play", "english", "9-13", "9-14"), "move 2 ('9-14')"),
        (("play", "english", "--option", "mandatory_capture=perhaps"), "mandatory_capture"),
        (("play", "english", "--option", "speed=3"), "unknown option 'speed'"),
        (("play", "chess", "f3", "e5", "g4", "Qh4#", "e4"), "move 5"),
        (("perft", "english", "deep"), "DEPTH"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_status_2(args, words):
    result = ubao(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert words in lines[0]
    assert "Traceback" not in result.stderr
