"""``ubao engine`` and ``ubao match``: output, and one-line errors with exit status 2."""

from __future__ import annotations

import re

import pytest

from shared_rules import get_game
from shared_rules.cli import main

SCHOLARS_MATE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def test_engine_prints_the_move_and_its_evaluation(capsys):
    assert main(["engine", "chess", "--fen", SCHOLARS_MATE, "--level", "2"]) == 0
    assert capsys.readouterr().out == "Qxf7# win in 1\n"


def test_engine_at_the_start_of_each_game(capsys):
    for name in ("english", "tanzanian"):
        assert main(["engine", name, "--level", "3", "--seed", "4"]) == 0
        move, evaluation = capsys.readouterr().out.split()
        assert move in get_game(name).start().legal_notations()
        assert re.fullmatch(r"[+-]\d+\.\d\d", evaluation)


def test_engine_refuses_a_finished_game_and_a_bad_level(capsys):
    assert main(["engine", "chess", "--fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"]) == 2
    assert "over" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["engine", "english", "--level", "9"])
    assert exited.value.code == 2 and "--level" in capsys.readouterr().err


def test_match_prints_the_score(capsys):
    assert main(["match", "english", "--levels", "3", "0", "--games", "2"]) == 0
    line = capsys.readouterr().out.strip()
    match = re.fullmatch(
        r"level 3 vs random: ([\d.]+)/2 \(\+(\d) =(\d) -(\d)\), Elo (?:[+-]\d+ ± \d+|[≥≤] [+-]\d+), \d adjudicated",
        line,
    )
    assert match, line
    assert int(match[2]) + int(match[3]) + int(match[4]) == 2


def test_match_refuses_bad_levels(capsys):
    assert main(["match", "chess", "--levels", "7", "1", "--games", "2"]) == 2
    assert "--levels" in capsys.readouterr().err
