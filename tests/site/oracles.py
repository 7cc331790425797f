"""Independent checks for the site's positions: python-chess itself for chess, and for draughts the plain
reference generator of the rules tests (tests/rules/reference_draughts.py), which shares no code with
shared_rules. Square names are converted here from their definitions, not through the rules layer."""

from __future__ import annotations

from tests.rules import reference_draughts as reference

FILES = "abcdefgh"


def square(game: str, name: str) -> tuple[int, int]:
    """(file, rank) with a1 = (0, 0): algebraic names directly, PDN numbers 1..32 from the top left."""
    if game == "tanzanian":
        return FILES.index(name[0]), int(name[1:]) - 1
    n = int(name) - 1
    rank = 7 - n // 4
    return 2 * (n % 4) + (rank % 2), rank


def board_from_fen(game: str, fen: str):
    turn, *sides = fen.split(":")
    board = {}
    for side in sides:
        colour = "white" if side[0] == "W" else "black"
        for item in filter(None, side[1:].split(",")):
            king = item.startswith("K")
            board[square(game, item.lstrip("K"))] = reference.Piece(colour, king)
    return board, "white" if turn == "W" else "black"


def draughts_moves(game: str, fen: str) -> set[tuple]:
    """The legal moves as (origin, destination, captured squares), by the reference generator."""
    board, turn = board_from_fen(game, fen)
    return reference.legal_moves(board, turn, flying=game == "tanzanian")


def as_reference(game: str, move: dict) -> tuple:
    return (
        square(game, move["from"]),
        square(game, move["to"]),
        frozenset(square(game, name) for name in move["captured"]),
    )


def play(board: dict, move: tuple) -> dict:
    """The reference board after a move (origin, destination, captured): a man on its far row is crowned."""
    origin, destination, captured = move
    piece = board[origin]
    after = {square: p for square, p in board.items() if square != origin and square not in captured}
    crowned = not piece.king and destination[1] == reference.crown_rank(piece.colour)
    after[destination] = reference.Piece(piece.colour, piece.king or crowned)
    return after


def play_notation(game: str, board: dict, turn: str, notation: str) -> dict:
    """Play a move written ``11-15`` / ``3x10x17`` / ``c3xe5``: the one reference move from its first to its
    last square (the site's lines never need the middle squares to tell two moves apart)."""
    names = notation.replace("x", "-").split("-")
    origin, destination = square(game, names[0]), square(game, names[-1])
    (move,) = [m for m in draughts_moves_on(game, board, turn) if m[0] == origin and m[1] == destination]
    return play(board, move)


def draughts_moves_on(game: str, board: dict, turn: str) -> set[tuple]:
    return reference.legal_moves(board, turn, flying=game == "tanzanian")


def pushed(board, move):
    """The python-chess board after ``move``, the given one untouched."""
    after = board.copy()
    after.push(move)
    return after


def castles_soon(board, move, left: int) -> bool:
    """Castling now, or (with a move left) a move after which castling is legal whatever the defender does."""
    if board.is_castling(move):
        return True
    after = pushed(board, move)
    return left > 1 and all(
        not (replied := pushed(after, reply)).is_game_over()
        and any(replied.is_castling(m) for m in replied.legal_moves)
        for reply in after.legal_moves
    )


def leaves_only_stalemate(board, move) -> bool:
    """A move every reply to which leaves the mover stalemated (a lost game saved)."""
    after = pushed(board, move)
    replies = list(after.legal_moves)
    return bool(replies) and all(pushed(after, reply).is_stalemate() for reply in replies)
