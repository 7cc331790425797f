"""Invariants over random games of all three games (hypothesis).

Along each random game, at every position: FEN round trips; every legal move's notation parses back
to that move; a move changes only the squares it touches; captures remove exactly the captured pieces
and nothing else is ever lost or gained; playing a move leaves the original position unchanged.
"""

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import get_game
from tests.rules.random_positions import random_fen_with_kings

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=10, max_size=100)


def draughts_pieces(fen):
    """{square name: 'w'/'b'/'W'/'B'} read from a PDN FEN."""
    _, *sides = fen.split(":")
    pieces = {}
    for field in sides:
        colour = field[0].lower()
        for item in filter(None, field[1:].split(",")):
            if item.startswith("K"):
                pieces[item[1:]] = colour.upper()
            else:
                pieces[item] = colour
    return pieces


def random_game(game, picks, fen=None):
    """The positions of a game whose n-th move is picks[n] modulo the number of legal moves."""
    position = game.from_fen(fen) if fen else game.start()
    positions = [position]
    for pick in picks:
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[pick % len(moves)])
        positions.append(position)
    return positions


def crown_row(game, colour):
    if game.name == "english":
        return {str(n) for n in (range(1, 5) if colour == "w" else range(29, 33))}
    return {f + ("8" if colour == "w" else "1") for f in "abcdefgh"}


def check_draughts_position(position):
    game = position.game
    fen = position.fen()
    assert game.from_fen(fen).fen() == fen
    names = game.squares
    before = draughts_pieces(fen)
    mover = "w" if position.turn == "white" else "b"
    legal = position.legal_moves()
    legal_before = [position.notation(m) for m in legal]
    for move in legal:
        assert position.parse_move(position.notation(move)) == move
        origin, destination = names.name_of[move.origin], names.name_of[move.destination]
        captured = set(names.mask_names(move.captured))
        after = draughts_pieces(position.play(move).fen())
        # The piece moved is the mover's; the captured pieces were the opponent's.
        assert before[origin].lower() == mover
        assert all(before[square].lower() != mover for square in captured)
        # Only the origin, the destination and the captured squares change.
        for square in set(before) | set(after):
            if square not in captured and square not in (origin, destination):
                assert before.get(square) == after.get(square), (fen, position.notation(move), square)
        assert not captured & set(after)
        assert after[destination].lower() == mover
        if origin != destination:
            assert origin not in after
        # A king stays a king; a man becomes one exactly when it ends its move on the far row.
        assert after[destination].isupper() == (before[origin].isupper() or destination in crown_row(game, mover))
        # Pieces are never created: exactly the captured ones disappear.
        assert len(after) == len(before) - len(captured)
    # Playing moves did not change this position.
    assert position.fen() == fen
    assert [position.notation(m) for m in position.legal_moves()] == legal_before


def check_draughts_game(name, picks, options=None, fen=None):
    game = get_game(name, options)
    positions = random_game(game, picks, fen)
    for position in positions:
        check_draughts_position(position)
    counts = [len(draughts_pieces(p.fen())) for p in positions]
    assert all(later <= earlier for earlier, later in zip(counts, counts[1:]))


@SETTINGS
@given(picks=choices)
def test_english_random_games(picks):
    check_draughts_game("english", picks)


@SETTINGS
@given(picks=choices)
def test_english_random_games_without_mandatory_capture(picks):
    check_draughts_game("english", picks, {"mandatory_capture": False})


@SETTINGS
@given(picks=choices)
def test_tanzanian_random_games(picks):
    check_draughts_game("tanzanian", picks)


@SETTINGS
@given(picks=st.lists(st.integers(0, 10_000), max_size=30), seed=st.integers(0, 2**32 - 1))
def test_draughts_random_games_from_random_positions_with_kings(picks, seed):
    import random

    for name in ("english", "tanzanian"):
        fen = random_fen_with_kings(get_game(name), random.Random(seed))
        check_draughts_game(name, picks, fen=fen)


def check_chess_position(position):
    game = position.game
    fen = position.fen()
    assert game.from_fen(fen).fen() == fen
    board = chess.Board(fen)
    before = board.piece_map()
    legal = position.legal_moves()
    legal_before = [position.notation(m) for m in legal]
    for move in legal:
        san = position.notation(move)
        assert position.parse_move(san) == move
        assert position.parse_move(move.uci()) == move
        after = chess.Board(position.play(move).fen()).piece_map()
        touched = {move.from_square, move.to_square}
        captured = 0
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            rook_from, rook_to = (7, 5) if chess.square_file(move.to_square) == 6 else (0, 3)
            touched |= {chess.square(rook_from, rank), chess.square(rook_to, rank)}
        elif board.is_en_passant(move):
            taken = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
            touched.add(taken)
            captured = 1
        elif move.to_square in before:
            captured = 1
        for square in set(before) | set(after):
            if square not in touched:
                assert before.get(square) == after.get(square), (fen, san)
        assert len(after) == len(before) - captured
        assert after[move.to_square].color == before[move.from_square].color
    assert position.fen() == fen
    assert [position.notation(m) for m in position.legal_moves()] == legal_before


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=60))
def test_chess_random_games(picks):
    positions = random_game(get_game("chess"), picks)
    for position in positions:
        check_chess_position(position)
    counts = [len(chess.Board(p.fen()).piece_map()) for p in positions]
    assert all(later <= earlier for earlier, later in zip(counts, counts[1:]))
