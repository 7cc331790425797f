"""Boards as inline SVG: python-chess draws the chess boards (``chess.svg.board``), our own renderer the
draughts boards in the same colours and frame, so every board on the site looks alike. ``Drawing`` is one
finished diagram; diagrams.py decides what each one shows and checks it against the rules layer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import chess
import chess.svg

from shared_rules.draughts.engine import State
from shared_rules.draughts.game import DraughtsGame

#: A point on the board, in board units.
Point = tuple[float, float]
#: An arrow between two engine squares, and its colour.
Arrow = tuple[int, int, str]

SQUARE = 45
MARGIN = 4  # a thin frame: the square names are on the squares, so a phone's width goes to the squares
BOARD = 8 * SQUARE
LABEL_SIZE = 13  # board units: 12.7 px when the board is 368 units drawn 360 px wide (a phone), more on wider
LABEL_INK = "#1a1a1a"  # 6.3:1 on the dark squares, 12:1 on the light ones
MARKER = "#0a4a16"  # landing dots and last-move rings: 3.7:1 on the dark squares, 7.3:1 on the light ones
COLORS = chess.svg.DEFAULT_COLORS
LIGHT = COLORS["square light"]
DARK = COLORS["square dark"]
FRAME = COLORS["margin"]
GREEN = COLORS["arrow green"]
RED = COLORS["arrow red"]
BLUE = COLORS["arrow blue"]
LANDING = MARKER

# Piece colours for draughts. English draughts is played by Black and Red ("white" in the notation).
DRAUGHTS_PIECES = {
    "white": ("#f4f1e8", "#222"),
    "red": ("#b3261e", "#3a0b08"),
    "black": ("#262626", "#d9d9d9"),
}
CROWN = "M-9,3 L-11,-7 L-5,-2 L0,-9 L5,-2 L11,-7 L9,3 Z"  # drawn centred on a king


@dataclass
class Drawing:
    """What a diagram shows: its SVG (without title) and the facts it was checked against."""

    key: str
    game: str
    svg: str  # the board, no <title>; ``with_text`` adds the accessible name
    fen: str
    facts: dict[str, Any] = field(default_factory=dict)

    def with_text(self, alt: str, prefix: str) -> str:
        """The SVG with an accessible name and ids made unique on the page by ``prefix``."""
        svg = _prefix_ids(self.svg, prefix)
        title_id = f"{prefix}-title"
        return svg.replace(
            "<svg ",
            f'<svg role="img" aria-labelledby="{title_id}" ',
            1,
        ).replace(">", f'><title id="{title_id}">{escape(alt)}</title>', 1)


# ---------------------------------------------------------------------------------------------- frame


def _frame(
    inner: str, files: str, ranks: str, flipped: bool, numbers: Sequence[tuple[float, float, str, bool]] = ()
) -> str:
    """A board of 8x8 squares of SQUARE units in a thin dark frame, its squares named on the squares.

    Files are written on the bottom row and ranks on the left column (as the board is turned); ``numbers``
    are (x, y, text) for numbered boards, at a square's top-left corner. Each name sits on a chip of its
    square's colour, drawn over the pieces, so it reads the same on an empty square and beside a piece.
    """
    size = BOARD + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="0 0 {size} {size}" class="board">',
        f'<rect width="{size}" height="{size}" fill="{FRAME}"/>',
        f'<svg x="{MARGIN}" y="{MARGIN}" width="{BOARD}" height="{BOARD}" viewBox="0 0 {BOARD} {BOARD}">',
        inner,
        "</svg>",
        f'<g font-family="sans-serif" font-weight="700" font-size="{LABEL_SIZE}" fill="{LABEL_INK}" class="labels">',
    ]
    labels = list(numbers)
    if files:
        for i in range(8):
            file = 7 - i if flipped else i
            row = 7 if flipped else 0
            labels.append(
                (
                    i * SQUARE + SQUARE - 2 - _label_width(files[file]),
                    SQUARE * 7 + SQUARE - 2 - LABEL_SIZE,
                    files[file],
                    (row + file) % 2 == 0,
                )
            )
    if ranks:
        for j in range(8):
            row = j if flipped else 7 - j
            file = 7 if flipped else 0
            labels.append((2, j * SQUARE + 2, ranks[row], (row + file) % 2 == 0))
    for x, y, text, dark in labels:
        width = _label_width(text)
        parts.append(
            f'<rect x="{MARGIN + x}" y="{MARGIN + y}" width="{width}" height="{LABEL_SIZE + 2}" rx="2" '
            f'fill="{DARK if dark else LIGHT}"/>'
            f'<text x="{MARGIN + x + 2}" y="{MARGIN + y + LABEL_SIZE - 1}">{text}</text>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _label_width(text: str) -> float:
    """The width of a square name's chip: about 0.62 em a character in a bold sans-serif, and 2 units of padding."""
    return round(len(text) * LABEL_SIZE * 0.62 + 4, 1)


def _prefix_ids(svg: str, prefix: str) -> str:
    """Make the ids of one SVG unique in a page that inlines several (chess.svg reuses its ids)."""
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', svg)
    return re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", svg)


# ---------------------------------------------------------------------------------------------- chess


def chess_svg(
    board: chess.Board,
    *,
    arrows: Sequence[chess.svg.Arrow] = (),
    marks: Iterable[int] = (),
    lastmove: chess.Move | None = None,
    check: int | None = None,
    fill: dict[int, str] | None = None,
    flipped: bool = False,
) -> str:
    inner = chess.svg.board(
        board,
        orientation=not flipped,
        arrows=arrows,
        squares=chess.SquareSet(marks) if marks else None,
        check=check,
        fill=fill or {},
        coordinates=False,
    )
    inner = re.sub(r"<desc>.*?</desc>", "", inner, flags=re.S)
    if lastmove:  # rings on the last move's squares, 3:1 or more against both square colours
        rings = "".join(_ring(*_chess_corner(square, flipped)) for square in (lastmove.from_square, lastmove.to_square))
        head, _, tail = inner.rpartition("</svg>")
        inner = head + rings + "</svg>" + tail
    return _frame(inner, "abcdefgh", "12345678", flipped)


def _chess_corner(square: int, flipped: bool) -> tuple[int, int]:
    file, rank = chess.square_file(square), chess.square_rank(square)
    if flipped:
        return (7 - file) * SQUARE, rank * SQUARE
    return file * SQUARE, (7 - rank) * SQUARE


def _ring(x: float, y: float) -> str:
    """A last-move mark: a 4-unit ring inside the square, so the piece on it stays in view."""
    return (
        f'<rect x="{x + 2}" y="{y + 2}" width="{SQUARE - 4}" height="{SQUARE - 4}" fill="none" '
        f'stroke="{MARKER}" stroke-width="4" class="last"/>'
    )


# ---------------------------------------------------------------------------------------------- draughts


def _draughts_squares(flipped: bool) -> list[str]:
    parts = []
    for row in range(8):
        for file in range(8):
            x = (7 - file) * SQUARE if flipped else file * SQUARE
            y = row * SQUARE if flipped else (7 - row) * SQUARE
            dark = (row + file) % 2 == 0
            parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{DARK if dark else LIGHT}"/>')
    return parts


def _draughts_pieces(
    indices: Iterable[int], state: State, light_side: str, centre: Callable[[int], Point]
) -> list[str]:
    white, black, kings, _ = state
    parts = []
    for index in indices:
        bit = 1 << index
        if not (white | black) & bit:
            continue
        fill, line = DRAUGHTS_PIECES[light_side if white & bit else "black"]
        cx, cy = centre(index)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="17" fill="{fill}" stroke="{line}" stroke-width="1.5"/>')
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="12" fill="none" stroke="{line}" stroke-width="1"/>')
        if kings & bit:
            parts.append(f'<path d="{CROWN}" transform="translate({cx},{cy})" fill="{line}"/>')
    return parts


def draughts_svg(
    game: DraughtsGame,
    state: State,
    *,
    arrows: Iterable[Arrow] = (),
    marks: Iterable[int] = (),
    landings: Iterable[int] = (),
    highlight: Iterable[int] = (),
    flipped: bool = False,
) -> str:
    """A draughts board in chess.svg's look. Squares are engine indices; ``arrows`` are (from, to, colour)."""
    engine, squares = game.engine, game.squares
    numbered = squares.numbering == "pdn"
    light_side = game.variant.light_side

    def corner(index: int) -> Point:
        row, file = engine.coords[index]
        if flipped:
            return (7 - file) * SQUARE, row * SQUARE
        return file * SQUARE, (7 - row) * SQUARE

    def centre(index: int) -> Point:
        x, y = corner(index)
        return x + SQUARE / 2, y + SQUARE / 2

    parts = _draughts_squares(flipped)
    for index in highlight:
        parts.append(_ring(*corner(index)))
    numbers: list[tuple[float, float, str, bool]] = []
    if numbered:  # on the dark squares' top-left corners, drawn over the pieces by _frame
        for index, name in squares.name_of.items():
            x, y = corner(index)
            numbers.append((x + 2, y + 2, name, True))
    parts += _draughts_pieces(engine.coords, state, light_side, centre)
    for index in landings:
        cx, cy = centre(index)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="8" fill="{LANDING}" class="landing"/>')
    for start, end, colour in arrows:
        parts.append(_arrow(centre(start), centre(end), colour))
    for index in marks:  # a cross over a captured piece, outlined so it shows on any piece
        cx, cy = centre(index)
        cross = f"M{cx - 10},{cy - 10}L{cx + 10},{cy + 10}M{cx + 10},{cy - 10}L{cx - 10},{cy + 10}"
        parts.append(
            f'<path d="{cross}" stroke="#fff" stroke-width="7" stroke-linecap="round"/>'
            f'<path d="{cross}" stroke="#000" stroke-width="3.5" stroke-linecap="round"/>'
        )
    # Numbered boards name their squares on the squares; algebraic ones in the margin, like chess.
    coordinates = ("", "") if numbered else ("abcdefgh", "12345678")
    return _frame("".join(parts), *coordinates, flipped, numbers)


def _arrow(start: Point, end: Point, colour: str) -> str:
    """An arrow like chess.svg's: a thick line and a triangular head, ending short of the centre."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    head, width = SQUARE * 0.45, SQUARE * 0.2
    hx, hy = x2 - ux * head * 0.3, y2 - uy * head * 0.3  # the tip, a little short of the centre
    bx, by = hx - ux * head, hy - uy * head  # base of the head
    px, py = -uy * SQUARE * 0.25, ux * SQUARE * 0.25
    points = f"{hx:.1f},{hy:.1f} {bx + px:.1f},{by + py:.1f} {bx - px:.1f},{by - py:.1f}"
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{colour}" '
        f'stroke-width="{width:.1f}" stroke-linecap="butt"/>'
        f'<polygon points="{points}" fill="{colour}"/>'
    )


# ---------------------------------------------------------------------------------------------- piece sprite


def piece_sprite() -> str:
    """One hidden SVG with every piece as a symbol, for the interactive boards (``<use href="#pc-..">``)."""
    symbols = []
    for symbol in "PNBRQKpnbrqk":
        piece = chess.Piece.from_symbol(symbol)
        body = chess.svg.piece(piece)
        body = re.sub(r"^<svg[^>]*>|</svg>$", "", body)
        body = re.sub(r'\s?id="[^"]*"', "", body)
        symbols.append(f'<symbol id="pc-{symbol}" viewBox="0 0 45 45">{body}</symbol>')
    for side, code in (("white", "w"), ("red", "r"), ("black", "b")):
        fill, line = DRAUGHTS_PIECES[side]
        man = (
            f'<circle cx="22.5" cy="22.5" r="17" fill="{fill}" stroke="{line}" stroke-width="1.5"/>'
            f'<circle cx="22.5" cy="22.5" r="12" fill="none" stroke="{line}"/>'
        )
        king = man + f'<path d="{CROWN}" transform="translate(22.5,22.5)" fill="{line}"/>'
        symbols.append(f'<symbol id="pc-{code}m" viewBox="0 0 45 45">{man}</symbol>')
        symbols.append(f'<symbol id="pc-{code}k" viewBox="0 0 45 45">{king}</symbol>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" '
        'aria-hidden="true" focusable="false">' + "".join(symbols) + "</svg>"
    )
