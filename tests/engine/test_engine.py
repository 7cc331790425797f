"""The computer opponent (shared_rules.search.levels, shared_rules.search.chess): it finds the mates and the
shots of the puzzle sets, always plays a legal move, and plays the same move for the same seed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules import GameOver, get_game
from shared_rules.search import Searcher, model_for
from shared_rules.search.levels import LEVELS, choose_move
from tests.checks import draughts, known

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def puzzles(game: str) -> list[dict]:
    with open(PUZZLES / f"{game}.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def sample(rows: list[dict], count: int, seed: int = 7) -> list[dict]:
    return random.Random(seed).sample(rows, min(count, len(rows)))


CHESS = puzzles("chess")
MATES_IN_1 = sample([row for row in CHESS if "mateIn1" in row["themes"]], 8)
MATES_IN_2 = sample([row for row in CHESS if "mateIn2" in row["themes"]], 8)


@pytest.mark.parametrize("puzzle", MATES_IN_1, ids=lambda row: row["id"])
@pytest.mark.parametrize("level", [1, 4])
def test_mate_in_one_at_the_weakest_and_a_strong_level(puzzle, level):
    game = get_game("chess")
    position = game.from_fen(puzzle["fen"])
    choice = choose_move(game, position, level, seed=3)
    assert position.play(choice.move).status().reason == "checkmate", (puzzle["solution"], choice.notation)
    assert choice.mate_in == 1 and choice.describe() == "win in 1"


@pytest.mark.parametrize("puzzle", MATES_IN_2, ids=lambda row: row["id"])
def test_mate_in_two(puzzle):
    game = get_game("chess")
    position = game.from_fen(puzzle["fen"])
    choice = choose_move(game, position, 5)
    assert choice.mate_in == 3  # plies: mate, reply, mate
    # Lichess's first move, or another that mates in two just as surely: every defence is mated next move.
    after = position.play(choice.move)
    for defence in after.legal_moves():
        defended = after.play(defence)
        finish = choose_move(game, defended, 4)
        assert defended.play(finish.move).status().reason == "checkmate", (choice.notation, after.notation(defence))


@pytest.mark.parametrize("game_name", ["english", "tanzanian"])
def test_draughts_shots_from_the_puzzle_sets(game_name):
    game = get_game(game_name)
    for puzzle in sample(puzzles(game_name), 10):
        position = game.from_fen(puzzle["fen"])
        choice = choose_move(game, position, 4)
        assert choice.move == position.parse_move(puzzle["solution"][0]), (puzzle["id"], choice.notation)


def test_the_chess_model_scores_mate_and_stalemate():
    model = model_for("chess")
    mated = chess.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    assert model.terminal(mated, model.moves(mated)) == -100_000
    stalemate = chess.Board("k7/8/1Q6/8/8/8/8/7K b - - 0 1")
    assert model.terminal(stalemate, model.moves(stalemate)) == 0
    # Material and squares: a queen up is worth about a queen, from the side to move's view.
    up = chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert 850 < model.evaluate(up) < 1000
    assert model.evaluate(chess.Board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")) == -model.evaluate(up)


def test_the_chess_search_wins_material_it_sees():
    # Black's queen hangs to the knight fork's follow-up; White takes it.
    board = chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    result = Searcher(model_for("chess")).search(board, node_limit=2_000)
    assert board.san(known(result.move)) == "Rxd5"


ONE_MOVE = {
    "chess": "7k/8/8/8/8/8/6q1/7K w - - 0 1",  # the king must take the queen: Kxg2
    "english": "B:W14:B5,9",  # Black must take: 9x18
    "tanzanian": "W:Wb2:Bc3,e5",  # White must take both: b2xd4xf6
}


@pytest.mark.parametrize("game_name", ["chess", "english", "tanzanian"])
@pytest.mark.parametrize("level", LEVELS)
def test_one_legal_move(game_name, level):
    game = get_game(game_name)
    position = game.from_fen(ONE_MOVE[game_name])
    legal = position.legal_moves()
    assert len(legal) == 1
    assert choose_move(game, position, level, seed=level).move == legal[0]


def countdown_position(moves_into_the_count: int):
    """Tanzanian three kings against one, the count ``moves_into_the_count`` moves along (the count ends at 12)."""
    game = get_game("tanzanian")
    line = ["c1-e3", "d8-e7", "a1-e5", "e7-a3", "e3-g1", "a3-f8", "g1-e3", "f8-e7", "e1-h4", "e7-d8", "e3-g5"]
    line += ["d8-a5", "h4-g3", "a5-b4", "g3-e1", "b4-f8", "e1-h4", "f8-a3", "h4-e1", "a3-f8", "e1-h4", "f8-a3"]
    position = draughts(game.replay(line[: 2 * moves_into_the_count], fen="W:WKa1,Kc1,Ke1:BKd8"))
    assert position.countdown == moves_into_the_count
    return game, position


@pytest.mark.parametrize("into", [0, 6, 11])
@pytest.mark.parametrize("level", [1, 3, 5])
def test_tanzanian_countdown_legal_and_the_game_goes_on(into, level):
    game, position = countdown_position(into)
    choice = choose_move(game, position, level, seed=into)
    assert choice.move in position.legal_moves()
    after = position.play(choice.move)
    if into == 11:  # the twelfth move of the count: a draw unless that move took the lone king
        assert after.status().result in ("draw", "white")


def test_no_move_when_the_game_is_over():
    game = get_game("chess")
    over = game.from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    with pytest.raises(GameOver):
        choose_move(game, over, 3)


def test_a_bad_level_is_refused():
    game = get_game("english")
    with pytest.raises(ValueError):
        choose_move(game, game.start(), 6)


@pytest.mark.parametrize("game_name", ["chess", "english", "tanzanian"])
def test_same_seed_same_move_and_level_one_varies(game_name):
    game = get_game(game_name)
    position = game.start()
    first = [choose_move(game, position, 1, seed=seed).notation for seed in range(12)]
    again = [choose_move(game, position, 1, seed=seed).notation for seed in range(12)]
    assert first == again
    assert len(set(first)) >= 3  # a weak, varied player: several openings from twelve seeds
    assert choose_move(game, position, 5).notation == choose_move(game, position, 5).notation


@settings(max_examples=15, deadline=None)
@given(
    game_name=st.sampled_from(["chess", "english", "tanzanian"]),
    plies=st.integers(0, 60),
    walk=st.integers(0, 2**32),
    level=st.sampled_from([1, 2, 3, 4]),
    options=st.sampled_from([{}, {"mandatory_capture": False}]),
)
def test_always_a_legal_move(game_name, plies, walk, level, options):
    game = get_game(game_name, options if game_name == "english" else {})
    position = game.start()
    rng = random.Random(walk)
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.play(rng.choice(legal))
    if not position.legal_moves():
        with pytest.raises(GameOver):
            choose_move(game, position, level)
        return
    choice = choose_move(game, position, level, seed=walk)
    assert choice.move in position.legal_moves()
    assert position.parse_move(choice.notation) == choice.move
