"""Chess on python-chess, with this site's automatic draws (seeds 001 and 002).

* threefold repetition draws the moment a position occurs for the third time;
* the fifty-move rule draws at 100 half-moves without a capture or pawn move, unless that move mates;
* insufficient material draws exactly for: king against king, king and knight against king,
  king and bishop against king, and king and bishop against king and bishop on the same colour.
"""

from __future__ import annotations

import hashlib
import re
import struct
from typing import Any

import chess

from .base import Game, Position, Snapshot
from .errors import AmbiguousMove, InvalidFen, InvalidMove
from .status import BLACK, DRAW, IN_PROGRESS, WHITE, Status, other

_STATUS_PROBLEMS = (
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or last rank"),
    (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "the castling rights do not match the rooks and kings"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en passant square is not possible"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the side to move is in check from too many pieces"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "the check on the side to move is impossible"),
)


def insufficient_material(board: chess.Board) -> bool:
    """True exactly for the material the seeds list as unable to mate."""
    others = board.occupied & ~board.kings
    if others & (board.pawns | board.rooks | board.queens):
        return False
    count = chess.popcount(others)
    if count <= 1:
        return True  # bare kings, or one knight or bishop
    if count == 2 and others == board.bishops:
        white_bishop = board.bishops & board.occupied_co[chess.WHITE]
        black_bishop = board.bishops & board.occupied_co[chess.BLACK]
        same_colour = not (board.bishops & chess.BB_LIGHT_SQUARES) or not (board.bishops & chess.BB_DARK_SQUARES)
        return bool(white_bishop and black_bishop and same_colour)
    return False


class ChessGame(Game):
    name = "chess"
    title = "Chess"

    def start(self) -> ChessPosition:
        return ChessPosition(self, chess.Board(), 0)

    def restore(self, snapshot: Snapshot) -> ChessPosition:
        """The position of ``snapshot``: its FEN (the fifty-move count is in it) and the repetition keys."""
        memory = snapshot.memory
        if len(memory) % KEY_BYTES or len(memory) > KEY_BYTES * 200 or snapshot.ply < 0:
            raise InvalidFen("the stored position is damaged")
        board = self.from_fen(snapshot.fen).board
        earlier = tuple(memory[i : i + KEY_BYTES] for i in range(0, len(memory), KEY_BYTES))
        return ChessPosition(self, board, snapshot.ply, (*earlier, repetition_key(board)))

    def from_fen(self, fen: str) -> ChessPosition:
        if not isinstance(fen, str) or not fen.strip():
            raise InvalidFen("the FEN is empty")
        try:
            board = chess.Board(fen.strip())
        except ValueError as error:
            raise InvalidFen(f"FEN {fen!r} is malformed: {error}") from None
        problems = [text for flag, text in _STATUS_PROBLEMS if board.status() & flag]
        if problems:
            raise InvalidFen(f"FEN {fen!r} is not a legal position: {problems[0]}")
        return ChessPosition(self, board, 0)

    def time_loss_result(self, position: Position[Any], loser: str) -> str:
        """The side that ran out of time loses, unless the other side could never mate: then a draw."""
        if not isinstance(position, ChessPosition):
            raise TypeError(f"not a chess position: {position!r}")
        winner = other(loser)
        colour = chess.WHITE if winner == WHITE else chess.BLACK
        if position.board.has_insufficient_material(colour):
            return DRAW
        return winner


KEY_BYTES = 8


def position_identity(board: chess.Board) -> tuple[int, ...]:
    """What makes two positions the same, as python-chess counts it for repetitions and transpositions: the
    pieces, the side to move, the castling rights and a legal en passant capture (64: none), from its public
    attributes."""
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else 64
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.clean_castling_rights(),
        ep,
        board.turn,
    )


def repetition_key(board: chess.Board) -> bytes:
    """``position_identity`` hashed to 8 bytes, to store in a game's head for threefold repetition."""
    packed = struct.pack(">9QB?B", *position_identity(board), 0)
    return hashlib.blake2b(packed, digest_size=KEY_BYTES).digest()


class ChessPosition(Position[chess.Move]):
    """A chess position; its board (with the moves since set-up) is never changed after creation.

    ``keys`` are the repetition keys of the positions since the last irreversible move, this one last:
    the threefold rule counts in them, so a position restored from a snapshot needs no moves.
    """

    game: ChessGame

    def __init__(self, game: ChessGame, board: chess.Board, ply: int, keys: tuple[bytes, ...] | None = None):
        self.game = game
        self.board = board
        self._ply = ply
        self.keys = keys if keys is not None else (repetition_key(board),)
        self._move_cache: list[chess.Move] | None = None  # caches: a position never changes
        self._status_cache: Status | None = None

    @property
    def turn(self) -> str:
        return WHITE if self.board.turn == chess.WHITE else BLACK

    @property
    def ply(self) -> int:
        return self._ply

    def fen(self) -> str:
        return self.board.fen()

    @property
    def _moves(self) -> list[chess.Move]:
        if self._move_cache is None:
            self._move_cache = list(self.board.legal_moves)
        return self._move_cache

    def legal_moves(self) -> list[chess.Move]:
        return [] if self.status().is_over else list(self._moves)

    def notation(self, move: chess.Move) -> str:
        return self.board.san(move)

    def parse_move(self, text: str) -> chess.Move:
        if not isinstance(text, str) or not text.strip():
            raise InvalidMove("the move is empty")
        if self.status().is_over:
            raise InvalidMove("the game is already over", reason="game_over")
        text = text.strip()
        try:
            return self.board.parse_san(text)
        except chess.AmbiguousMoveError:
            raise AmbiguousMove(f"{text!r} is ambiguous here; name the file or rank of the piece") from None
        except ValueError:
            pass
        try:
            return self.board.parse_uci(text.lower() if len(text) == 5 else text)
        except chess.IllegalMoveError:
            reason = self._uci_refusal(text)
            raise InvalidMove(f"{text!r} is not a legal move here", reason=reason) from None
        except ValueError:
            pass
        if _looks_like_move(text):
            raise InvalidMove(f"{text!r} is not a legal move here", reason=self._san_refusal(text))
        raise InvalidMove(f"{text!r} is not a move; write it in SAN (Nf3) or UCI (g1f3)")

    def _uci_refusal(self, text: str) -> str:
        """Why a well-formed UCI move is refused: the square it starts from, else the piece cannot go there."""
        piece = self.board.piece_at(chess.parse_square(text[:2].lower()))
        if piece is None:
            return "no_piece"
        return "wrong_color" if piece.color != self.board.turn else "blocked"

    def _san_refusal(self, text: str) -> str:
        """Why a SAN-shaped move is refused: the side has no such piece, else that piece cannot go there."""
        shape = _SAN_PIECE.match(text)
        if shape is None:  # castling: the king cannot castle now
            return "blocked"
        kind = chess.PIECE_SYMBOLS.index((shape.group(1) or "p").lower())
        return "blocked" if self.board.pieces(kind, self.board.turn) else "no_piece"

    def _after(self, move: chess.Move) -> ChessPosition:
        # Only the moves since the last capture or pawn move can repeat a position, so only they are
        # copied: replaying a long game stays linear instead of copying the whole stack every move.
        irreversible = self.board.is_irreversible(move)
        board = self.board.copy(stack=self.board.halfmove_clock)
        board.push(move)
        key = repetition_key(board)
        return ChessPosition(self.game, board, self._ply + 1, (key,) if irreversible else (*self.keys, key))

    def is_irreversible(self, move: chess.Move) -> bool:
        """A capture, a pawn move, or a move that gives up castling or en passant rights (python-chess's rule)."""
        return self.board.is_irreversible(move)

    def snapshot(self) -> Snapshot:
        return Snapshot(fen=self.fen(), ply=self._ply, memory=b"".join(self.keys[:-1]))

    def status(self) -> Status:
        if self._status_cache is None:
            self._status_cache = self._compute_status()
        return self._status_cache

    def _compute_status(self) -> Status:
        board = self.board
        if not self._moves:
            if board.is_check():
                return Status(BLACK if board.turn == chess.WHITE else WHITE, "checkmate")
            return Status(DRAW, "stalemate")
        if insufficient_material(board):
            return Status(DRAW, "insufficient_material")
        if self.keys.count(self.keys[-1]) >= 3:
            return Status(DRAW, "threefold_repetition")
        if board.halfmove_clock >= 100:
            return Status(DRAW, "fifty_moves")
        return IN_PROGRESS

    def __eq__(self, other_position: object) -> bool:
        return isinstance(other_position, ChessPosition) and self.fen() == other_position.fen()

    def __hash__(self) -> int:
        return hash(self.fen())


def _looks_like_move(text: str) -> bool:
    """Does the text have the shape of SAN or UCI (so the message can say 'illegal', not 'not a move')?"""
    return bool(_MOVE_SHAPE.fullmatch(text))


_SAN_PIECE = re.compile(r"([KQRBN])?[a-h]?[1-8]?x?[a-h][1-8]")

_MOVE_SHAPE = re.compile(
    r"([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNqrbn])?|O-O(-O)?|0-0(-0)?)[+#]?[!?]*"
    r"|[a-h][1-8][a-h][1-8][qrbn]?"
)
