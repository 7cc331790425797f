"""The committed puzzle sets: well-formed, legal when replayed through the rules layer, won at the
end, and (draughts) with exactly one winning move at every one of the solver's steps.

Draughts verification: every puzzle is re-judged at the generator's depth (4 plies plus forced
captures), and a seeded sample at its confirmation depth (6). Both are fresh searches through the
rules layer's notation, so a change in the move generator, the search or the data that breaks a
puzzle fails here.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from puzzles.generate import COMMITTED
from puzzles.judge import Judge, Undecided
from shared_rules import get_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("chess", "english", "tanzanian")
DRAUGHTS = ("english", "tanzanian")
CHUNK = 40
DEEP_SAMPLE = 24  # puzzles per draughts game re-judged at the confirmation depth
DRAUGHTS_THEMES = {
    "shot",
    "sacrifice",
    "breakthrough",
    "multi_capture",
    "capture_choice",
    "quiet_move",
    "king_endgame",
    "endgame",
    "countdown",
    "game_win",
    "material",
    "one_move",
    "short",
    "long",
    "very_long",
}
MATE_IN = re.compile(r"mateIn(\d)")


def load(game: str) -> list[dict]:
    with (ROOT / "puzzles" / f"{game}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


SETS = {game: load(game) for game in GAMES}


def chunks(game: str, size: int = CHUNK) -> list[tuple[str, int]]:
    return [(game, start) for start in range(0, len(SETS[game]), size)]


# ----------------------------------------------------------------- shape


def test_sizes():
    assert len(SETS["chess"]) == 6605  # every Lichess puzzle of the shared data
    assert len(SETS["english"]) >= 400
    assert len(SETS["tanzanian"]) >= 400


def test_ids_are_unique_across_all_games():
    ids = [puzzle["id"] for game in GAMES for puzzle in SETS[game]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", GAMES)
def test_every_line_has_the_schema(game):
    for puzzle in SETS[game]:
        assert set(puzzle) >= {"id", "game", "fen", "solution", "rating", "themes", "source", "licence"}, puzzle
        assert puzzle["game"] == game and puzzle["id"].startswith(f"{game}-")
        assert isinstance(puzzle["fen"], str) and puzzle["fen"]
        solution = puzzle["solution"]
        # The solver moves first and last: an odd number of moves.
        assert isinstance(solution, list) and len(solution) % 2 == 1
        assert all(isinstance(move, str) and move for move in solution)
        assert isinstance(puzzle["rating"], int)
        themes = puzzle["themes"]
        assert isinstance(themes, list) and themes and len(themes) == len(set(themes))
        if game == "chess":
            assert 400 <= puzzle["rating"] <= 3200  # Lichess's own ratings, kept as they are
            lichess_id = puzzle["id"].removeprefix("chess-")
            assert puzzle["source"] == f"https://lichess.org/training/{lichess_id}"
            assert puzzle["licence"] == "CC0-1.0"
            assert puzzle["game_url"].startswith("https://lichess.org/")
        else:
            assert 600 <= puzzle["rating"] <= 2400
            assert set(themes) <= DRAUGHTS_THEMES, themes
            assert puzzle["source"].startswith("ubao ")


@pytest.mark.parametrize("game", DRAUGHTS)
def test_draughts_sets_cover_the_themes_and_ratings(game):
    puzzles = SETS[game]
    themes = {theme for puzzle in puzzles for theme in puzzle["themes"]}
    assert {"shot", "sacrifice", "breakthrough", "game_win", "material", "king_endgame"} <= themes
    if game == "tanzanian":
        assert sum("countdown" in puzzle["themes"] for puzzle in puzzles) >= 10
    ratings = sorted(puzzle["rating"] for puzzle in puzzles)
    assert ratings[len(ratings) // 10] < 1000 and ratings[-len(ratings) // 10] > 1500  # a spread, not one level


# ----------------------------------------------------------------- chess


@pytest.mark.parametrize(("game", "start"), chunks("chess", 1_000))
def test_chess_lines_are_legal_and_end_won(game, start):
    rules = get_game("chess")
    for puzzle in SETS["chess"][start : start + 1_000]:
        position = rules.from_fen(puzzle["fen"])
        solver = position.turn
        for text in puzzle["solution"]:
            move = position.parse_move(text)
            assert position.notation(move) == text, puzzle["id"]  # SAN exactly as the rules layer writes it
            position = position.play(move)
        status = position.status()
        mate = [int(match.group(1)) for theme in puzzle["themes"] if (match := MATE_IN.fullmatch(theme))]
        if mate:
            assert status.reason == "checkmate" and status.result == solver, puzzle["id"]
            assert len(puzzle["solution"]) == 2 * mate[0] - 1, puzzle["id"]
        else:
            assert not status.is_over or status.result == solver, puzzle["id"]


# ----------------------------------------------------------------- draughts


def replay(game: str, puzzle: dict):
    """The positions before each move, checking each move is legal and written canonically."""
    position = get_game(game).from_fen(puzzle["fen"])
    assert position.fen() == puzzle["fen"]
    positions = []
    for text in puzzle["solution"]:
        move = position.parse_move(text)
        assert position.notation(move) == text, (puzzle["id"], text)
        positions.append((position, move))
        position = position.play(move)
    return positions, position


def check_draughts(game: str, puzzle: dict, depth: int) -> None:
    judge = Judge(game, depth=depth, node_limit=COMMITTED.node_limit * 4)
    positions, final = replay(game, puzzle)
    start = positions[0][0].state
    solver = start.turn
    assert -100 <= judge.balance(start, solver) <= 0, puzzle["id"]  # not already winning
    base = judge.base(start)
    for index, (position, move) in enumerate(positions):
        if index % 2:
            continue
        try:
            winners = [verdict.move for verdict in judge.verdicts(position.state, base, strict=False) if verdict.wins]
        except Undecided:
            pytest.fail(f"{puzzle['id']}: the search could not decide step {index} within its budget")
        assert winners == [move], f"{puzzle['id']}: step {index} has {len(winners)} winning moves"
    status = final.status()
    if status.is_over:
        assert status.result == positions[0][0].turn, puzzle["id"]
        assert "game_win" in puzzle["themes"]
    else:
        # The gain is on the board and nothing is left to capture (that the search expects it to hold is
        # the verdict on the last solver move above).
        assert judge.balance(final.state, solver) >= judge.threshold(base), puzzle["id"]
        assert not final.legal_moves()[0].captured, puzzle["id"]
        assert "material" in puzzle["themes"]


@pytest.mark.parametrize(("game", "start"), chunks("english") + chunks("tanzanian"))
def test_draughts_each_solver_move_is_the_only_win(game, start):
    for puzzle in SETS[game][start : start + CHUNK]:
        check_draughts(game, puzzle, COMMITTED.depth)


def deep_sample(game: str) -> list[dict]:
    return random.Random(f"deep:{game}").sample(SETS[game], DEEP_SAMPLE)


@pytest.mark.parametrize(("game", "part"), [(game, part) for game in DRAUGHTS for part in range(4)])
def test_draughts_sample_holds_deeper(game, part):
    sample = deep_sample(game)
    for puzzle in sample[part::4]:
        check_draughts(game, puzzle, COMMITTED.confirm_depth)
