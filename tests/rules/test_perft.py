"""Perft against published counts, and the public move path against the engine's fast perft."""

import pytest

from shared_rules import get_game
from shared_rules.draughts.engine import engine_for
from shared_rules.draughts.variants import ENGLISH, TANZANIAN
from shared_rules.perft import perft
from tests.checks import draughts_game

# The chessprogramming wiki, "Perft Results": the five standard positions.
CHESS_POSITIONS = {
    "initial": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [20, 400, 8902, 197281]),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039, 97862]),
    "position3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    "position4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
    "position5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
}

# English checkers from the start (published); Tanzanian agrees until flying kings appear at depth 9.
DRAUGHTS_START = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
TANZANIAN_DEPTH_9 = 3963671


@pytest.mark.parametrize("name", sorted(CHESS_POSITIONS))
def test_chess_perft_matches_the_published_counts(name):
    fen, counts = CHESS_POSITIONS[name]
    position = get_game("chess").from_fen(fen)
    assert [perft(position, depth) for depth in range(1, len(counts) + 1)] == counts


def test_chess_perft_of_the_start_position_through_start():
    assert perft(get_game("chess").start(), 3) == 8902


def test_perft_depth_zero_is_one_node_and_negative_depth_is_refused():
    assert perft(get_game("english").start(), 0) == 1
    assert perft(get_game("chess").start(), 0) == 1
    with pytest.raises(ValueError):
        perft(get_game("tanzanian").start(), -1)


@pytest.mark.parametrize("variant", [ENGLISH, TANZANIAN], ids=lambda v: v.name)
@pytest.mark.parametrize("depth", range(1, 8))
def test_draughts_fast_perft_from_the_start(variant, depth):
    engine = engine_for(variant)
    assert engine.perft(engine.start_state(), depth) == DRAUGHTS_START[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("variant", [ENGLISH, TANZANIAN], ids=lambda v: v.name)
def test_draughts_fast_perft_depth_8(variant):
    engine = engine_for(variant)
    assert engine.perft(engine.start_state(), 8) == 845931


@pytest.mark.slow
def test_tanzanian_perft_depth_9():
    engine = engine_for(TANZANIAN)
    assert engine.perft(engine.start_state(), 9) == TANZANIAN_DEPTH_9


@pytest.mark.parametrize("name", ["english", "tanzanian"])
def test_public_perft_of_draughts_matches_published_counts(name):
    start = get_game(name).start()
    assert [perft(start, depth) for depth in range(1, 6)] == DRAUGHTS_START[:5]


def slow_perft(position, depth):
    """Perft through the public interface only: legal_moves and play, no bulk counting."""
    if depth == 0:
        return 1
    return sum(slow_perft(position.play(move), depth - 1) for move in position.legal_moves())


@pytest.mark.parametrize("name", ["english", "tanzanian"])
def test_public_move_path_agrees_with_published_counts(name):
    start = get_game(name).start()
    assert slow_perft(start, 4) == DRAUGHTS_START[3]


# Middlegame positions with kings of both colours, multi-captures and crowning nearby.
KING_POSITIONS = {
    "english": [
        "B:W18,19,21,23,24,26,K7:B1,2,3,5,10,12,K27",
        "W:W14,15,22,25,K5:B9,10,17,18,K30,K31",
        "B:WK2,K3,13,22,23:B6,10,11,16,K25",
        "W:W21,22,23,25,K9:B11,15,16,K26,K28",
    ],
    "tanzanian": [
        "W:Wa3,c3,e3,f2,Kd8:Bb6,d6,f6,h6,Kc1",
        "B:Wa1,b4,d4,f4,Kh8:Bc5,e5,g7,Kb2,Ke1",
        "W:Wc1,e3,g3,Kd4:Ba5,c5,e7,f6,Kh2,Kb8",
        "B:WKa1,Kf2,c3,e5:Bd6,f8,g5,Ka7",
    ],
}


@pytest.mark.parametrize(("name", "fen"), [(name, fen) for name, fens in KING_POSITIONS.items() for fen in fens])
def test_public_move_path_agrees_with_fast_perft_on_king_positions(name, fen):
    game = draughts_game(name)
    position = game.from_fen(fen)
    for depth in (1, 2, 3):
        assert slow_perft(position, depth) == game.engine.perft(position.state, depth)


def test_perft_counts_quiet_moves_too_when_capture_is_optional():
    # White d4 (18) and c3 (22) against c5 (14): the capture 18x9, and with huffing allowed 18-15 and 22-17.
    fen = "W:W18,22:B14"
    optional = get_game("english", {"mandatory_capture": False}).from_fen(fen)
    assert perft(optional, 1) == 3
    assert slow_perft(optional, 3) == perft(optional, 3)
    assert perft(get_game("english").from_fen(fen), 1) == 1
