"""Square names, PDN FEN and move text for draughts, in either numbering (PDN numbers or algebraic)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import cast

from ..errors import InvalidFen
from .engine import BLACK_TO_MOVE, WHITE_TO_MOVE, Engine, State


class Squares:
    """Names of the squares of one engine's board: ``1``..``32`` (PDN) or ``a1``..``h8`` (algebraic)."""

    def __init__(self, engine: Engine, numbering: str):
        self.engine = engine
        self.numbering = numbering
        size = engine.variant.size
        self.name_of: dict[int, str] = {}
        for index, (row, file) in engine.coords.items():
            if numbering == "pdn":
                number = (size - 1 - row) * (size // 2) + file // 2 + 1
                self.name_of[index] = str(number)
            else:
                self.name_of[index] = "abcdefghijklmnopqrstuvwxyz"[file] + str(row + 1)
        self.index_of = {name: index for index, name in self.name_of.items()}
        # FEN tokens ("21", "K30", "c3", "Kc3", "C3", "kc3") to (index, is_king): one lookup per piece.
        self.fen_tokens: dict[str, tuple[int, bool]] = {}
        for name, index in self.index_of.items():
            for spelled in {name, name.upper()}:
                self.fen_tokens[spelled] = (index, False)
                self.fen_tokens["K" + spelled] = self.fen_tokens["k" + spelled] = (index, True)
        self.fen_bits = {token: (1 << index, (1 << index) * king) for token, (index, king) in self.fen_tokens.items()}
        # Sorting key: numbers numerically, algebraic squares file first.
        self.order = sorted(
            self.name_of,
            key=lambda i: (
                (int(self.name_of[i]),) if numbering == "pdn" else (self.name_of[i][0], int(self.name_of[i][1:]))
            ),
        )
        self.rank = {index: n for n, index in enumerate(self.order)}

    def name(self, index: int) -> str:
        return self.name_of[index]

    def parse(self, text: str) -> int:
        """The index of a square name; ValueError with a clear message otherwise."""
        key = text.strip().lower()
        if key in self.index_of:
            return self.index_of[key]
        if self.numbering == "pdn":
            raise ValueError(f"{text!r} is not a square: squares are numbered 1 to {len(self.name_of)}")
        match = re.fullmatch(r"([a-z])(\d{1,2})", key)
        size = self.engine.variant.size
        if match and match.group(1) < "abcdefghijklmnopqrstuvwxyz"[size] and 1 <= int(match.group(2)) <= size:
            raise ValueError(f"{text!r} is a light square; only the dark squares are played on")
        raise ValueError(f"{text!r} is not a square of the {size}x{size} board")

    def mask_names(self, mask: int) -> list[str]:
        return [self.name_of[i] for i in sorted(_indices(mask), key=self.rank.__getitem__)]


def _indices(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def write_fen(squares: Squares, state: State) -> str:
    white, black, kings, turn = state
    fields = ["W" if turn == WHITE_TO_MOVE else "B"]
    for colour, pieces in (("W", white), ("B", black)):
        names = [
            ("K" if kings >> i & 1 else "") + squares.name_of[i]
            for i in sorted(_indices(pieces), key=squares.rank.__getitem__)
        ]
        fields.append(colour + ",".join(names))
    return ":".join(fields)


def parse_fen(squares: Squares, fen: str) -> State:
    """Parse a PDN FEN such as ``B:W21,22,K30:B1,2,3`` (ranges like ``1-12`` are accepted)."""
    if not isinstance(fen, str) or not fen.strip():
        raise InvalidFen("the FEN is empty")
    text = fen.strip().rstrip(".")
    parts = [part.strip() for part in text.split(":")]
    if len(parts) != 3 or parts[0].upper() not in ("W", "B"):
        raise InvalidFen(f"FEN {fen!r} must look like 'W:W21,22,K30:B1,2,3' (side to move, then each side's pieces)")
    turn = WHITE_TO_MOVE if parts[0].upper() == "W" else BLACK_TO_MOVE
    sides: dict[str, tuple[int, int]] = {}
    for field in parts[1:]:
        colour = field[:1].upper()
        if colour not in ("W", "B") or colour in sides:
            raise InvalidFen(f"FEN {fen!r}: each of W and B must be listed once, found {field!r}")
        sides[colour] = _parse_pieces(squares, field[1:], fen)
    (white, white_kings), (black, black_kings) = sides["W"], sides["B"]
    if white & black:
        both = squares.mask_names(white & black)
        raise InvalidFen(f"FEN {fen!r}: square {both[0]} holds a white and a black piece")
    engine = squares.engine
    stuck = (white & ~white_kings & engine.white_crown_row) | (black & ~black_kings & engine.black_crown_row)
    if stuck:
        raise InvalidFen(
            f"FEN {fen!r}: a man on {squares.mask_names(stuck)[0]} stands on its crowning row; make it a king (K)"
        )
    return State(white, black, white_kings | black_kings, turn)


def _parse_pieces(squares: Squares, field: str, fen: str) -> tuple[int, int]:
    # Fast path: every item a plain square token and none repeated.
    items = field.split(",")
    lookup = squares.fen_bits.get
    entries = [lookup(item) for item in items]
    if None not in entries:
        pieces = kings = 0
        for bit, king_bit in cast(list[tuple[int, int]], entries):  # no None: checked just above
            pieces |= bit
            kings |= king_bit
        if pieces.bit_count() == len(entries):
            return pieces, kings
    # Slow path: spaces, ranges, mistakes to explain.
    pieces = kings = 0
    tokens = squares.fen_tokens
    for item in field.split(","):
        entry = tokens.get(item)
        if entry is None:
            item = item.strip()
            if not item:
                continue
            entry = tokens.get(item)
        indices: Sequence[int]
        if entry is not None:
            indices, king = (entry[0],), entry[1]
        else:
            king = item[0] in "Kk"
            indices = _parse_squares(squares, item[1:] if king else item, fen)
        for index in indices:
            bit = 1 << index
            if pieces & bit:
                raise InvalidFen(f"FEN {fen!r}: square {squares.name_of[index]} is listed twice")
            pieces |= bit
            if king:
                kings |= bit
    return pieces, kings


def _parse_squares(squares: Squares, name: str, fen: str) -> list[int]:
    """A square name that is not a plain name: a PDN range like ``1-12``, or a mistake to explain."""
    try:
        if "-" in name and squares.numbering == "pdn":
            low, high = (squares.parse(end) for end in name.split("-", 1))
            numbers = range(int(squares.name_of[low]), int(squares.name_of[high]) + 1)
            return [squares.parse(str(n)) for n in numbers]
        return [squares.parse(name)]
    except ValueError as error:
        raise InvalidFen(f"FEN {fen!r}: {error}") from None


MOVE_PATTERN = re.compile(r"^\s*([a-z]?\d{1,2})((?:\s*[-x:]\s*[a-z]?\d{1,2})+)\s*$", re.IGNORECASE)


def split_move(text: str) -> list[str] | None:
    """The square names of a move text like ``22x15x6``, ``c3-d4`` or ``22x6``; None if it is not one."""
    if not isinstance(text, str):
        return None
    match = MOVE_PATTERN.match(text)
    if not match:
        return None
    return [match.group(1)] + re.split(r"\s*[-x:]\s*", match.group(2).strip(), flags=re.IGNORECASE)[1:]
