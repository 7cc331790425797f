"""The searcher's view of chess: python-chess boards, material and piece-square tables.

* Material in centipawns, and a piece-square table per piece (the well-known "simplified evaluation"
  tables), the king's table blending from its middlegame table to its endgame table as the queens and
  minor pieces come off.
* Quiescence searches captures and promotions; in check it searches every evasion (no standing pat), so
  a mate at the end of a capture line is seen.
* Move ordering: the transposition-table move, then captures by MVV-LVA (most valuable victim, least
  valuable attacker) and promotions, then killers and history (the ``Searcher`` does those).
* A position in check is ``forced``: the searcher does not spend depth on it (a check extension).

States are ``chess.Board`` values that are never changed after they are made (``play`` copies). The
search ignores repetitions inside its own tree (a board copied without its move stack), which only
makes it blind to some draws by repetition; the game's rules still decide the real game.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from ..chess_game import position_identity
from .core import WIN_SCORE

PIECE_VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}

# Tables from White's side, a1 first (python-chess square order); Black reads them mirrored.
_PAWN = (
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 10, 10, -20, -20, 10, 10, 5,
    5, -5, -10, 0, 0, -10, -5, 5,
    0, 0, 0, 20, 20, 0, 0, 0,
    5, 5, 10, 25, 25, 10, 5, 5,
    10, 10, 20, 30, 30, 20, 10, 10,
    50, 50, 50, 50, 50, 50, 50, 50,
    0, 0, 0, 0, 0, 0, 0, 0,
)  # fmt: skip
_KNIGHT = (
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20, 0, 5, 5, 0, -20, -40,
    -30, 5, 10, 15, 15, 10, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30,
    -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 10, 15, 15, 10, 0, -30,
    -40, -20, 0, 0, 0, 0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
)  # fmt: skip
_BISHOP = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 5, 0, 0, 0, 0, 5, -10,
    -10, 10, 10, 10, 10, 10, 10, -10,
    -10, 0, 10, 10, 10, 10, 0, -10,
    -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
)  # fmt: skip
_ROOK = (
    0, 0, 0, 5, 5, 0, 0, 0,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    5, 10, 10, 10, 10, 10, 10, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
)  # fmt: skip
_QUEEN = (
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 5, 0, 0, 0, 0, -10,
    -10, 5, 5, 5, 5, 5, 0, -10,
    0, 0, 5, 5, 5, 5, 0, -5,
    -5, 0, 5, 5, 5, 5, 0, -5,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -20, -10, -10, -5, -5, -10, -10, -20,
)  # fmt: skip
_KING_MIDDLE = (
    20, 30, 10, 0, 0, 10, 30, 20,
    20, 20, 0, 0, 0, 0, 20, 20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
)  # fmt: skip
_KING_END = (
    -50, -30, -30, -30, -30, -30, -30, -50,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -50, -40, -30, -20, -20, -30, -40, -50,
)  # fmt: skip

_TABLES = {chess.PAWN: _PAWN, chess.KNIGHT: _KNIGHT, chess.BISHOP: _BISHOP, chess.ROOK: _ROOK, chess.QUEEN: _QUEEN}
# Material plus square, per piece type, per square, for White; Black's is the mirrored square.
_WHITE_VALUE = {piece: [PIECE_VALUES[piece] + table[sq] for sq in range(64)] for piece, table in _TABLES.items()}
_BLACK_VALUE = {
    piece: [PIECE_VALUES[piece] + table[chess.square_mirror(sq)] for sq in range(64)]
    for piece, table in _TABLES.items()
}
# Phase: 24 with every minor piece, rook and queen on the board, 0 with none (the king's table blends).
_PHASE_WEIGHT = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}
_FULL_PHASE = 24


class ChessModel:
    """A ``GameModel`` for chess on ``chess.Board`` values."""

    name = "chess"

    def start_state(self) -> chess.Board:
        return chess.Board()

    # ------------------------------------------------------------- GameModel

    def moves(self, state: chess.Board) -> list[chess.Move]:
        self._board = state  # the searcher orders these moves next (order_hint)
        return list(state.legal_moves)

    def play(self, state: chess.Board, move: chess.Move) -> chess.Board:
        board = state.copy(stack=False)
        board.push(move)
        return board

    def key(self, state: chess.Board) -> tuple[int, ...]:
        return position_identity(state)  # the rules layer's own: the same positions are the same here

    def move_key(self, move: chess.Move) -> chess.Move:
        return move

    def terminal(self, state: chess.Board, moves: Sequence[chess.Move]) -> int | None:
        if not moves:
            return -WIN_SCORE if state.is_check() else 0
        if state.halfmove_clock >= 100 or state.is_insufficient_material():
            return 0
        return None

    def forced(self, state: chess.Board, moves: Sequence[chess.Move]) -> bool:
        return state.is_check()

    def quiescence_moves(self, state: chess.Board) -> tuple[list[chess.Move], bool]:
        if state.is_check():
            return list(state.legal_moves), True  # every evasion; none at all is mate
        noisy = list(state.generate_legal_captures())
        white = state.turn == chess.WHITE
        about_to_queen = state.pawns & state.occupied_co[state.turn] & (chess.BB_RANK_7 if white else chess.BB_RANK_2)
        if about_to_queen:
            last_rank = (chess.BB_RANK_8 if white else chess.BB_RANK_1) & ~state.occupied
            noisy += [m for m in state.generate_legal_moves(about_to_queen, last_rank) if m.promotion == chess.QUEEN]
        self._board = state  # order_hint reads the pieces of the board these moves belong to
        return noisy, False

    def order_hint(self, move: chess.Move) -> int:
        # MVV-LVA needs the board; the searcher orders the moves of the state it last expanded.
        board = self._board
        victim = board.piece_type_at(move.to_square)
        hint = 0
        if victim:
            hint = PIECE_VALUES[victim] // 10 + 7 - (board.piece_type_at(move.from_square) or chess.PAWN)
        elif board.ep_square == move.to_square and board.piece_type_at(move.from_square) == chess.PAWN:
            hint = 16  # en passant: a pawn takes a pawn
        if move.promotion:
            hint += PIECE_VALUES[move.promotion] // 10
        return hint

    def evaluate(self, state: chess.Board, moves: Sequence[chess.Move] = ()) -> int:
        score = self.white_score(state)
        return score if state.turn == chess.WHITE else -score

    # ------------------------------------------------------------- evaluation

    _board: chess.Board = chess.Board()

    def material(self, board: chess.Board) -> int:
        """Material only, White's minus Black's, in centipawns."""
        white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
        return sum(
            value * (chess.popcount(mask & white) - chess.popcount(mask & black))
            for value, mask in (
                (100, board.pawns),
                (320, board.knights),
                (330, board.bishops),
                (500, board.rooks),
                (900, board.queens),
            )
        )

    def white_score(self, board: chess.Board) -> int:
        score = 0
        phase = 0
        white = board.occupied_co[chess.WHITE]
        for piece, values in _WHITE_VALUE.items():
            pieces = board.pieces_mask(piece, chess.WHITE)
            for square in chess.scan_forward(pieces):
                score += values[square]
            theirs = board.pieces_mask(piece, chess.BLACK)
            black_values = _BLACK_VALUE[piece]
            for square in chess.scan_forward(theirs):
                score -= black_values[square]
            if piece in _PHASE_WEIGHT:
                phase += _PHASE_WEIGHT[piece] * chess.popcount(pieces | theirs)
        phase = min(phase, _FULL_PHASE)
        kings = board.kings
        white_king = chess.msb(kings & white)
        black_king = chess.square_mirror(chess.msb(kings & ~white))
        king = (
            (_KING_MIDDLE[white_king] - _KING_MIDDLE[black_king]) * phase
            + (_KING_END[white_king] - _KING_END[black_king]) * (_FULL_PHASE - phase)
        ) // _FULL_PHASE
        return score + king
