"""Random legal draughts positions with kings: a random playout from the start, then kings added via FEN."""

from __future__ import annotations

import random

from tests.rules import reference_draughts as ref

DARK_SQUARES = [(file, rank) for rank in range(8) for file in range(8) if (file + rank) % 2 == 0]


def random_playout(game, rng: random.Random, max_plies: int = 60):
    position = game.start()
    for _ in range(rng.randrange(0, max_plies + 1)):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def random_fen_with_kings(game, rng: random.Random, max_plies: int = 60) -> str:
    """A position reached by random play, some men made kings, up to three kings added, either side to move."""
    numbering = game.squares.numbering
    board, turn = ref.board_from_fen(random_playout(game, rng, max_plies).fen(), numbering)
    for square, piece in list(board.items()):
        if rng.random() < 0.25:
            board[square] = ref.Piece(piece.colour, True)
    empty = [square for square in DARK_SQUARES if square not in board]
    for square in rng.sample(empty, min(len(empty), rng.randrange(0, 4))):
        board[square] = ref.Piece(rng.choice(("white", "black")), True)
    if rng.random() < 0.5:
        turn = "white" if turn == "black" else "black"
    # A side without pieces has lost already (no moves to compare): give each side at least a king.
    for colour in ("white", "black"):
        if not any(piece.colour == colour for piece in board.values()):
            board[rng.choice([sq for sq in DARK_SQUARES if sq not in board])] = ref.Piece(colour, True)
    return ref.fen_from_board(board, turn, numbering)


def move_keys(position) -> set:
    """Our legal moves as (origin, destination, captured squares), squares as (file, rank)."""
    squares = position.game.squares
    if squares.numbering == "pdn":

        def to_square(name):
            return ref.pdn_square(int(name))
    else:
        to_square = ref.algebraic_square
    return {
        (
            to_square(squares.name_of[move.origin]),
            to_square(squares.name_of[move.destination]),
            frozenset(to_square(name) for name in squares.mask_names(move.captured)),
        )
        for move in position.legal_moves()
    }
