"""A slow, plain reference move generator for English and Tanzanian draughts, written from the rules text.

It shares no code with ``shared_rules.draughts`` (no bitboards, no tables): squares are (file, rank)
pairs with a1 = (0, 0) dark, White at the bottom moving up. The tests compare the engine with it on
random positions, so a mistake would have to be made twice, in two different shapes, to go unseen.

Rules followed (seeds 000 and 003):
* men step one square diagonally forward and capture forward only, also inside a sequence;
* English kings step and jump one square in all four directions; Tanzanian kings fly: any distance
  along an empty diagonal, and capture one piece at any distance, landing on an empty square behind it;
* captured pieces stay on the board until the move ends (they block, and are never jumped twice);
  the moving piece's starting square is empty during its move;
* a sequence goes on while a further jump exists; a man reaching the far rank is crowned and stops;
* Tanzanian king landing: walk the empty squares behind the captured piece from nearest to farthest;
  squares before the first one from which a capture goes on end the move; that first square is where
  the king lands and goes on; squares beyond it are not allowed;
* any capture route may be chosen (no maximum rule); capture is mandatory unless ``mandatory`` is off.
A move is (origin, destination, frozenset of captured squares).
"""

from __future__ import annotations

from typing import Any, NamedTuple

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))  # (file step, rank step)


class Piece(NamedTuple):
    colour: str  # "white" or "black"
    king: bool


Square = tuple[int, int]
Move = tuple[Square, Square, frozenset]


def on_board(square: Square, size: int = 8) -> bool:
    return 0 <= square[0] < size and 0 <= square[1] < size


def forward(colour: str) -> int:
    return 1 if colour == "white" else -1


def crown_rank(colour: str, size: int = 8) -> int:
    return size - 1 if colour == "white" else 0


def legal_moves(board: dict[Square, Piece], turn: str, flying: bool, mandatory: bool = True) -> set[Move]:
    captures: set[Move] = set()
    quiet: set[Move] = set()
    for square, piece in board.items():
        if piece.colour != turn:
            continue
        captures |= _captures_from(board, square, piece, flying)
        quiet |= _quiet_from(board, square, piece, flying)
    if captures and mandatory:
        return captures
    return captures | quiet


def _quiet_from(board, square, piece, flying) -> set[Move]:
    moves: set[Any] = set()
    for df, dr in DIAGONALS:
        if not piece.king and dr != forward(piece.colour):
            continue
        target = (square[0] + df, square[1] + dr)
        while on_board(target) and target not in board:
            moves.add((square, target, frozenset()))
            if not (piece.king and flying):
                break
            target = (target[0] + df, target[1] + dr)
    return moves


def _captures_from(board, origin, piece, flying) -> set[Move]:  # noqa: C901
    # One function, as the seeds state the capture rule (men, flying kings, the landing squares), so the oracle
    # reads against the seeds line by line and shares no structure with the engine it checks.
    found: set[Move] = set()

    def occupied(square):
        return square in board and square != origin

    def enemy(square, captured):
        return occupied(square) and board[square].colour != piece.colour and square not in captured

    def jumps(square, captured, king):
        """(captured square, landing squares in order from nearest) for each possible jump."""
        result = []
        for df, dr in DIAGONALS:
            if not king and dr != forward(piece.colour):
                continue
            step = (square[0] + df, square[1] + dr)
            if king and flying:
                while on_board(step) and not occupied(step):
                    step = (step[0] + df, step[1] + dr)
            if not on_board(step) or not enemy(step, captured):
                continue
            landings = []
            land = (step[0] + df, step[1] + dr)
            while on_board(land) and not occupied(land):
                landings.append(land)
                if not (king and flying):
                    break
                land = (land[0] + df, land[1] + dr)
            if landings:
                result.append((step, landings))
        return result

    def search(square, captured, king):
        for victim, landings in jumps(square, captured, king):
            now = captured | {victim}
            if king and flying:
                for land in landings:
                    if jumps(land, now, True):
                        search(land, now, True)
                        break
                    found.add((origin, land, frozenset(now)))
                continue
            land = landings[0]
            if not king and land[1] == crown_rank(piece.colour):
                found.add((origin, land, frozenset(now)))
            elif jumps(land, now, king):
                search(land, now, king)
            else:
                found.add((origin, land, frozenset(now)))

    search(origin, frozenset(), piece.king)
    return found


# ----------------------------------------------------------------- FEN and square names, independently


def pdn_square(number: int) -> Square:
    """PDN number (1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1) to (file, rank)."""
    row_from_top = (number - 1) // 4
    rank = 7 - row_from_top
    place = (number - 1) % 4
    file = 2 * place + (1 if row_from_top % 2 == 0 else 0)
    return (file, rank)


def pdn_number(square: Square) -> int:
    file, rank = square
    return (7 - rank) * 4 + file // 2 + 1


def algebraic_square(name: str) -> Square:
    return (ord(name[0]) - ord("a"), int(name[1:]) - 1)


def algebraic_name(square: Square) -> str:
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def board_from_fen(fen: str, numbering: str) -> tuple[dict[Square, Piece], str]:
    """Read a PDN FEN like ``B:W21,K30:B1,2`` or ``W:Wc3,Kd4:Bf6``: (board, side to move)."""
    turn_field, *sides = fen.split(":")
    board: dict[Square, Piece] = {}
    for field in sides:
        colour = "white" if field[0] == "W" else "black"
        for item in filter(None, field[1:].split(",")):
            king = item.startswith("K")
            name = item[1:] if king else item
            square = pdn_square(int(name)) if numbering == "pdn" else algebraic_square(name)
            board[square] = Piece(colour, king)
    return board, "white" if turn_field == "W" else "black"


def fen_from_board(board: dict[Square, Piece], turn: str, numbering: str) -> str:
    name = (lambda sq: str(pdn_number(sq))) if numbering == "pdn" else algebraic_name
    fields = ["W" if turn == "white" else "B"]
    for colour, letter in (("white", "W"), ("black", "B")):
        items = [("K" if piece.king else "") + name(sq) for sq, piece in board.items() if piece.colour == colour]
        fields.append(letter + ",".join(items))
    return ":".join(fields)
