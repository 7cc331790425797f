"""Our draughts engine against oracles: pydraughts (English) and the plain reference generator (both variants).

pydraughts' English variant reads and writes PDN FEN with PDN numbering (Black on 1-12, 'B' = Black to
move), so positions pass between the two as FEN strings unchanged; its moves give the squares of each
step and the captured squares.
"""

import random

import pytest
from draughts import Board

from shared_rules import get_game
from shared_rules.perft import perft
from tests.checks import draughts_game
from tests.rules import reference_draughts as ref
from tests.rules.random_positions import move_keys, random_fen_with_kings


def pydraughts_keys(board: Board) -> set:
    return {
        (
            ref.pdn_square(move.board_move[0][0]),
            ref.pdn_square(move.board_move[-1][1]),
            frozenset(ref.pdn_square(square) for square in move.captures),
        )
        for move in board.legal_moves()
    }


def pydraughts_perft(board: Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len({(m.board_move[0][0], m.board_move[-1][1], frozenset(m.captures)) for m in moves})
    total, seen = 0, set()
    for move in moves:
        key = (move.board_move[0][0], move.board_move[-1][1], frozenset(move.captures))
        if key in seen:
            continue  # another path of the same move (same origin, destination and captured set)
        seen.add(key)
        board.push(move)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def test_pydraughts_reads_our_fen_with_the_same_side_to_move_and_numbering():
    board = Board("english", get_game("english").start().fen())
    assert board.turn == 1  # pydraughts' BLACK
    assert sorted(m.pdn_move for m in board.legal_moves()) == sorted(get_game("english").start().legal_notations())


@pytest.mark.parametrize("seed", range(8))
def test_english_legal_moves_match_pydraughts_on_random_positions_with_kings(seed):
    game = get_game("english")
    rng = random.Random(seed)
    kings_seen = 0
    for _ in range(25):
        fen = random_fen_with_kings(game, rng)
        kings_seen += fen.count("K")
        assert move_keys(game.from_fen(fen)) == pydraughts_keys(Board("english", fen)), fen
    assert kings_seen > 0


@pytest.mark.parametrize("seed", range(4))
def test_english_perft_matches_pydraughts_on_random_positions_with_kings(seed):
    game = get_game("english")
    rng = random.Random(1000 + seed)
    fen = random_fen_with_kings(game, rng, max_plies=30)
    assert perft(game.from_fen(fen), 4) == pydraughts_perft(Board("english", fen), 4), fen


def test_english_perft_matches_pydraughts_from_the_start():
    assert pydraughts_perft(Board("english"), 3) == perft(get_game("english").start(), 3) == 302


@pytest.mark.parametrize("name", ["english", "tanzanian"])
@pytest.mark.parametrize("seed", range(6))
def test_legal_moves_match_the_reference_generator_on_random_positions_with_kings(name, seed):
    game = draughts_game(name)
    rng = random.Random(seed)
    for _ in range(60):
        fen = random_fen_with_kings(game, rng)
        board, turn = ref.board_from_fen(fen, game.squares.numbering)
        expected = ref.legal_moves(board, turn, flying=name == "tanzanian")
        assert move_keys(game.from_fen(fen)) == expected, fen


def test_reference_generator_agrees_with_pydraughts():
    # The reference is itself an oracle only if it is right: check it against pydraughts too.
    game = get_game("english")
    rng = random.Random(99)
    for _ in range(40):
        fen = random_fen_with_kings(game, rng)
        board, turn = ref.board_from_fen(fen, "pdn")
        assert ref.legal_moves(board, turn, flying=False) == pydraughts_keys(Board("english", fen)), fen


def test_english_moves_without_mandatory_capture_are_the_captures_plus_the_quiet_moves():
    game = get_game("english", {"mandatory_capture": False})
    rng = random.Random(5)
    for _ in range(40):
        fen = random_fen_with_kings(game, rng)
        board, turn = ref.board_from_fen(fen, "pdn")
        assert move_keys(game.from_fen(fen)) == ref.legal_moves(board, turn, flying=False, mandatory=False), fen
