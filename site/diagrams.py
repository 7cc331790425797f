"""Board diagrams as inline SVG, drawn at build time from positions the rules layer checks.

Chess boards come from python-chess (``chess.svg.board``); draughts boards from our own renderer in
the same colours and frame, so every diagram on the site looks alike. Each diagram in ``DIAGRAMS``
is a position plus what to mark on it; ``render`` asserts, through ``shared_rules``, that the marked
moves are what the rules say (a castling that is legal, a king's landing squares that are exactly
those the engine allows, a countdown that really ends in a draw), so a caption cannot drift from
the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

import chess
import chess.svg

from shared_rules import get_game

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
    facts: dict = field(default_factory=dict)

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


def _frame(inner: str, files: str, ranks: str, flipped: bool, numbers=()) -> str:
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
    board: chess.Board, *, arrows=(), marks=(), lastmove=None, check=None, fill=None, flipped: bool = False
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


def draughts_svg(game, state, *, arrows=(), marks=(), landings=(), highlight=(), flipped: bool = False) -> str:
    """A draughts board in chess.svg's look. Squares are engine indices; ``arrows`` are (from, to, colour)."""
    engine, squares = game.engine, game.squares
    numbered = squares.numbering == "pdn"
    light_side = "red" if game.name == "english" else "white"

    def corner(index):
        row, file = engine.coords[index]
        if flipped:
            return (7 - file) * SQUARE, row * SQUARE
        return file * SQUARE, (7 - row) * SQUARE

    def centre(index):
        x, y = corner(index)
        return x + SQUARE / 2, y + SQUARE / 2

    parts = []
    for row in range(8):
        for file in range(8):
            x = (7 - file) * SQUARE if flipped else file * SQUARE
            y = row * SQUARE if flipped else (7 - row) * SQUARE
            dark = (row + file) % 2 == 0
            parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{DARK if dark else LIGHT}"/>')
    for index in highlight:
        parts.append(_ring(*corner(index)))
    numbers = []
    if numbered:  # on the dark squares' top-left corners, drawn over the pieces by _frame
        numbers = [(*(c + 2 for c in corner(index)), name, True) for index, name in squares.name_of.items()]
    white, black, kings, _ = state
    for index in engine.coords:
        bit = 1 << index
        if not (white | black) & bit:
            continue
        side = light_side if white & bit else "black"
        fill, line = DRAUGHTS_PIECES[side]
        cx, cy = centre(index)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="17" fill="{fill}" stroke="{line}" stroke-width="1.5"/>')
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="12" fill="none" stroke="{line}" stroke-width="1"/>')
        if kings & bit:
            parts.append(f'<path d="{CROWN}" transform="translate({cx},{cy})" fill="{line}"/>')
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


def _arrow(start, end, colour) -> str:
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


# ---------------------------------------------------------------------------------------------- the diagrams


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(f"diagram no longer matches the rules: {message}")


def _chess_move(fen: str, san: str):
    game = get_game("chess")
    position = game.from_fen(fen)
    move = position.parse_move(san)
    return position, move


def start_position(game_name: str) -> Drawing:
    game = get_game(game_name)
    position = game.start()
    svg = chess_svg(position.board) if game_name == "chess" else draughts_svg(game, position.state)
    return Drawing(f"{game_name}-start", game_name, svg, position.fen(), {"turn": position.turn})


def castling() -> Drawing:
    fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    position, short = _chess_move(fen, "O-O")
    _, long = _chess_move(fen, "O-O-O")
    _check(position.board.is_castling(short) and position.board.is_castling(long), "both castlings legal")
    arrows = [
        chess.svg.Arrow(chess.E1, chess.G1, color="green"),
        chess.svg.Arrow(chess.H1, chess.F1, color="green"),
        chess.svg.Arrow(chess.E1, chess.C1, color="blue"),
        chess.svg.Arrow(chess.A1, chess.D1, color="blue"),
    ]
    return Drawing("castling", "chess", chess_svg(position.board, arrows=arrows), fen, {"legal": ["O-O", "O-O-O"]})


def castling_through_attack() -> Drawing:
    fen = "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1"
    position = get_game("chess").from_fen(fen)
    legal = position.legal_notations()
    _check("O-O" not in legal and "O-O-O" in legal, "f1 attacked: only the long castling")
    arrows = [
        chess.svg.Arrow(chess.C4, chess.F1, color="red"),
        chess.svg.Arrow(chess.E1, chess.C1, color="blue"),
        chess.svg.Arrow(chess.A1, chess.D1, color="blue"),
    ]
    return Drawing(
        "castling-attacked",
        "chess",
        chess_svg(position.board, arrows=arrows, marks=[chess.G1]),
        fen,
        {"legal": ["O-O-O"], "illegal": ["O-O"]},
    )


def en_passant() -> Drawing:
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    position, move = _chess_move(fen, "exd6")
    _check(position.board.is_en_passant(move), "exd6 is en passant")
    after = position.play(move)
    _check(after.board.piece_at(chess.D5) is None, "the pawn on d5 is taken")
    svg = chess_svg(
        position.board,
        arrows=[chess.svg.Arrow(chess.E5, chess.D6)],
        marks=[chess.D5],
        lastmove=chess.Move.from_uci("d7d5"),
    )
    return Drawing("en-passant", "chess", svg, fen, {"move": "exd6"})


def promotion() -> Drawing:
    fen = "7k/4P3/8/8/8/8/8/4K3 w - - 0 1"
    position = get_game("chess").from_fen(fen)
    promotions = {position.notation(m) for m in position.legal_moves() if m.promotion}
    _check(promotions == {"e8=Q+", "e8=R+", "e8=B", "e8=N"}, f"four promotions, got {promotions}")
    svg = chess_svg(position.board, arrows=[chess.svg.Arrow(chess.E7, chess.E8)])
    return Drawing("promotion", "chess", svg, fen, {"moves": sorted(promotions)})


def checkmate() -> Drawing:
    before = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    position, move = _chess_move(before, "Ra8")
    after = position.play(move)
    _check(after.status().reason == "checkmate", "Ra8 mates")
    svg = chess_svg(after.board, lastmove=move, check=chess.G8)
    return Drawing("checkmate", "chess", svg, after.fen(), {"move": "Ra8#"})


def stalemate() -> Drawing:
    fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    position = get_game("chess").from_fen(fen)
    _check(position.status().reason == "stalemate", "Black is stalemated")
    return Drawing("stalemate", "chess", chess_svg(position.board), fen, {})


def _draughts(game_name: str, fen: str):
    game = get_game(game_name)
    return game, game.from_fen(fen)


def _named(game, names):
    return [game.squares.index_of[name] for name in names]


def _path_arrows(move, colour=GREEN):
    stops = (move.origin,) + tuple(move.path)
    return [(a, b, colour) for a, b in zip(stops, stops[1:])]


def _bits(mask: int):
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def english_multi_capture() -> Drawing:
    fen = "B:W14,22,23,30:B9,4"
    game, position = _draughts("english", fen)
    moves = {position.notation(m): m for m in position.legal_moves()}
    _check(set(moves) == {"9x18x25", "9x18x27"}, f"two capture routes, got {sorted(moves)}")
    chosen = moves["9x18x27"]
    other = moves["9x18x25"]
    arrows = _path_arrows(chosen) + [(other.path[0], other.path[1], BLUE)]
    svg = draughts_svg(game, position.state, arrows=arrows, marks=_bits(chosen.captured), flipped=True)
    return Drawing("english-multi-capture", "english", svg, fen, {"routes": sorted(moves)})


def english_crowning_ends_capture() -> Drawing:
    fen = "B:W19,26,27:B1,22"
    game, position = _draughts("english", fen)
    (move,) = position.legal_moves()
    _check(move.crowned and position.notation(move) == "22x31", "22x31 crowns")
    after = position.play(move)
    _check(after.turn == "white", "the move ended on crowning")
    # Had the new king been allowed to go on, it could have jumped 27 and 19 as well.
    as_king = game.from_fen("B:W19,27:B1,K31")
    further = [as_king.notation(m) for m in as_king.legal_moves()]
    _check("31x24x15" in further, f"a king on 31 could capture on: {further}")
    arrows = _path_arrows(move) + [(game.squares.index_of["31"], game.squares.index_of["24"], RED)]
    svg = draughts_svg(game, position.state, arrows=arrows, marks=_bits(move.captured), flipped=True)
    return Drawing("english-crowning-ends-capture", "english", svg, fen, {"move": "22x31", "not_allowed": "31x24x15"})


def english_king() -> Drawing:
    fen = "W:WK18:B1,2"
    game, position = _draughts("english", fen)
    targets = sorted(position.legal_notations())
    _check(targets == ["18-14", "18-15", "18-22", "18-23"], f"a king steps four ways, got {targets}")
    origin = game.squares.index_of["18"]
    landings = [m.destination for m in position.legal_moves()]
    svg = draughts_svg(game, position.state, landings=landings, highlight=[origin])
    return Drawing("english-king", "english", svg, fen, {"moves": targets})


def tanzanian_multi_capture() -> Drawing:
    fen = "W:Wc3,g1:Bd4,d6,h8"
    game, position = _draughts("tanzanian", fen)
    (move,) = position.legal_moves()
    _check(position.notation(move) == "c3xe5xc7", "the man captures twice")
    svg = draughts_svg(game, position.state, arrows=_path_arrows(move), marks=_bits(move.captured))
    return Drawing("tanzanian-multi-capture", "tanzanian", svg, fen, {"move": "c3xe5xc7"})


def tanzanian_flying_king() -> Drawing:
    fen = "W:WKa1:Bc3,e7,h8"
    game, position = _draughts("tanzanian", fen)
    moves = {position.notation(m): m for m in position.legal_moves()}
    _check(set(moves) == {"a1xd4", "a1xe5", "a1xf6xd8"}, f"landing squares d4, e5, f6, got {sorted(moves)}")
    first_hop = sorted({m.path[0] for m in moves.values()}, key=game.squares.rank.__getitem__)
    _check([game.squares.name_of[i] for i in first_hop] == ["d4", "e5", "f6"], "three landing squares")
    on = game.squares.index_of
    arrows = [(on["a1"], on["c3"], GREEN), (on["f6"], on["d8"], BLUE)]
    svg = draughts_svg(game, position.state, arrows=arrows, landings=first_hop, marks=[on["c3"]])
    return Drawing(
        "tanzanian-flying-king", "tanzanian", svg, fen, {"landings": ["d4", "e5", "f6"], "moves": sorted(moves)}
    )


def tanzanian_crowning_ends_capture() -> Drawing:
    fen = "W:Wd6,a1:Be7,g7,b8"
    game, position = _draughts("tanzanian", fen)
    (move,) = position.legal_moves()
    _check(move.crowned and position.notation(move) == "d6xf8", "d6xf8 crowns and ends")
    as_king = game.from_fen("W:WKf8,a1:Bg7,b8")
    _check(any(m.captured for m in as_king.legal_moves()), "a king on f8 could have captured g7")
    on = game.squares.index_of
    arrows = _path_arrows(move) + [(on["f8"], on["h6"], RED)]
    svg = draughts_svg(game, position.state, arrows=arrows, marks=_bits(move.captured))
    return Drawing("tanzanian-crowning-ends-capture", "tanzanian", svg, fen, {"move": "d6xf8"})


def _quiet_play(position):
    """Play quiet moves that give the other side no capture (first in order) until the game ends."""
    strong_moves = 0
    while not position.status().is_over:
        for move in position.legal_moves():
            after = position.play(move)
            if not move.captured and not any(reply.captured for reply in after.legal_moves()):
                break
        else:
            raise AssertionError(f"no quiet move in {position.fen()}")
        strong_moves += position.turn == "white"
        position = after
    return position, strong_moves


def tanzanian_countdown() -> Drawing:
    fen = "W:WKa1,Kc1,Ke1:BKd8"
    game, position = _draughts("tanzanian", fen)
    _check(position.countdown == 0, "the count starts with three kings against one")
    # If the three kings never take the lone one, the game ends drawn on their twelfth move.
    end, strong_moves = _quiet_play(position)
    _check(end.status().reason == "three_kings_countdown", f"a countdown draw, got {end.status()}")
    _check(strong_moves == 12, f"drawn after the 12th move of the three kings, not {strong_moves}")
    svg = draughts_svg(game, position.state, highlight=_named(game, ("a1", "c1", "e1", "d8")))
    return Drawing("tanzanian-countdown", "tanzanian", svg, fen, {"moves": strong_moves})


# ---------------------------------------------------------------------------------------------- lesson diagrams


def line_of_play(key: str, game_name: str, fen: str, moves: tuple[str, ...], *, flipped: bool = False) -> Drawing:
    """A position and a line of play drawn as arrows (first move green, then blue, red, ...).

    Every move must be legal where it is played (the rules layer replays the line), and a draughts
    capture crosses out the pieces it takes, so the picture cannot show a move the rules refuse."""
    game = get_game(game_name)
    position = start = game.from_fen(fen)
    colours = (GREEN, BLUE, RED, LANDING)
    arrows, marks, chess_arrows = [], [], []
    for number, notation in enumerate(moves):
        move = position.parse_move(notation)
        _check(move in position.legal_moves(), f"{key}: {notation} is legal in {position.fen()}")
        if game_name == "chess":
            colour = ("green", "blue", "red", "yellow")[number % 4]
            chess_arrows.append(chess.svg.Arrow(move.from_square, move.to_square, color=colour))
        else:
            arrows += _path_arrows(move, colours[number % len(colours)])
            marks += _bits(move.captured)
        position = position.play(move)
    if game_name == "chess":
        svg = chess_svg(start.board, arrows=chess_arrows, flipped=flipped)
    else:
        svg = draughts_svg(game, start.state, arrows=arrows, marks=marks, flipped=flipped)
    return Drawing(key, game_name, svg, fen, {"moves": list(moves), "after": position.fen()})


def three_ways_out_of_check() -> Drawing:
    """The three ways out of a check, each checked by the rules layer: king move, block, capture."""
    fen = "R3r1k1/8/8/8/8/2N5/8/4K3 w - - 0 1"
    position = get_game("chess").from_fen(fen)
    _check(position.board.is_check(), "the rook on e8 gives check")
    legal = set(position.legal_notations())
    ways = {"Kf2": "green", "Ne4": "blue", "Rxe8+": "red"}
    _check(set(ways) <= legal, f"king move, block and capture are legal, got {sorted(legal)}")
    arrows = [chess.svg.Arrow(*_squares(position, san), color=colour) for san, colour in ways.items()]
    svg = chess_svg(position.board, arrows=arrows, check=chess.E1)
    return Drawing("check-ways", "chess", svg, fen, {"ways": list(ways)})


def _squares(position, san: str):
    move = position.parse_move(san)
    return move.from_square, move.to_square


def mate_picture(key: str, fen: str) -> Drawing:
    position = get_game("chess").from_fen(fen)
    _check(position.status().reason == "checkmate", f"{key}: the position is checkmate")
    board = position.board
    return Drawing(key, "chess", chess_svg(board, check=board.king(board.turn)), fen, {})


LESSON_DIAGRAMS: dict[str, Callable[[], Drawing]] = {
    "lesson-notation": lambda: line_of_play(
        "lesson-notation", "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ("e4", "e5", "Nf3")
    ),
    "lesson-values": lambda: line_of_play("lesson-values", "chess", "4k3/8/8/1p1q3r/8/2N5/8/4K2R w - - 0 1", ("Nxd5",)),
    "lesson-development": lambda: line_of_play(
        "lesson-development",
        "chess",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 3",
        ("O-O",),
    ),
    "check-ways": three_ways_out_of_check,
    "lesson-queen-mate": lambda: mate_picture("lesson-queen-mate", "6k1/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
    "lesson-rook-mate": lambda: mate_picture("lesson-rook-mate", "R5k1/8/6K1/8/8/8/8/8 b - - 0 1"),
    "english-shot": lambda: line_of_play(
        "english-shot", "english", "B:W9,14,13,16,20:B3,7,22,25,28", ("7-11", "16x7", "3x10x17"), flipped=True
    ),
    "english-back-row": lambda: line_of_play(
        "english-back-row", "english", "W:W10,25:B1,3,12", ("10-7", "3x10"), flipped=True
    ),
    "english-numbers": lambda: line_of_play(
        "english-numbers",
        "english",
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ("11-15", "23-19"),
        flipped=True,
    ),
    "tanzanian-notation": lambda: line_of_play(
        "tanzanian-notation",
        "tanzanian",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        ("c3-d4", "f6-e5", "d4xf6"),
    ),
    "tanzanian-long-diagonal": lambda: line_of_play(
        "tanzanian-long-diagonal", "tanzanian", "B:Wc3,f4,g1:BKh8,a7", ("h8xb2",)
    ),
}


DIAGRAMS: dict[str, Callable[[], Drawing]] = {
    "chess-start": lambda: start_position("chess"),
    "english-start": lambda: start_position("english"),
    "tanzanian-start": lambda: start_position("tanzanian"),
    "castling": castling,
    "castling-attacked": castling_through_attack,
    "en-passant": en_passant,
    "promotion": promotion,
    "checkmate": checkmate,
    "stalemate": stalemate,
    "english-multi-capture": english_multi_capture,
    "english-crowning-ends-capture": english_crowning_ends_capture,
    "english-king": english_king,
    "tanzanian-multi-capture": tanzanian_multi_capture,
    "tanzanian-flying-king": tanzanian_flying_king,
    "tanzanian-crowning-ends-capture": tanzanian_crowning_ends_capture,
    "tanzanian-countdown": tanzanian_countdown,
}


DIAGRAMS.update(LESSON_DIAGRAMS)


def render_all() -> dict[str, Drawing]:
    return {key: make() for key, make in DIAGRAMS.items()}


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
