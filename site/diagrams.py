"""The board diagrams of the Sheria and Jifunze pages, drawn at build time from positions the rules layer checks.

Each diagram in ``DIAGRAMS`` is a position plus what to mark on it; each one asserts, through
``shared_rules``, that the marked moves are what the rules say (a castling that is legal, a king's landing
squares that are exactly those the engine allows, a countdown that really ends in a draw), so a caption
cannot drift from the rules. The drawing itself (a board as SVG, ``Drawing``) is board_svg.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import chess
import chess.svg
from board_svg import BLUE, GREEN, LANDING, RED, Drawing, chess_svg, draughts_svg, piece_sprite

from shared_rules import Position, get_game
from shared_rules.chess_game import ChessPosition
from shared_rules.draughts.engine import RawMove
from shared_rules.draughts.game import DraughtsGame, DraughtsPosition

P = TypeVar("P", bound=Position[Any])

__all__ = [
    "DIAGRAMS",
    "Drawing",
    "chess_svg",
    "draughts_svg",
    "line_of_play",
    "piece_sprite",
    "position_svg",
    "render_all",
]

# ---------------------------------------------------------------------------------------------- the diagrams


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(f"diagram no longer matches the rules: {message}")


def _chess(fen: str) -> ChessPosition:
    position = get_game("chess").from_fen(fen)
    assert isinstance(position, ChessPosition)
    return position


def _play(position: P, move: Any) -> P:
    """``position.play(move)``, typed as the position's own class."""
    after = position.play(move)
    assert isinstance(after, type(position))
    return after


def _chess_move(fen: str, san: str) -> tuple[ChessPosition, chess.Move]:
    position = _chess(fen)
    return position, position.parse_move(san)


def position_svg(game_name: str, fen: str, *, flipped: bool = False) -> str:
    """The board of ``fen`` in ``game_name``, as the pages draw every board."""
    if game_name == "chess":
        return chess_svg(_chess(fen).board, flipped=flipped)
    game, position = _draughts(game_name, fen)
    return draughts_svg(game, position.state, flipped=flipped)


def start_position(game_name: str) -> Drawing:
    game = get_game(game_name)
    position = game.start()
    if isinstance(position, ChessPosition):
        svg = chess_svg(position.board)
    else:
        assert isinstance(game, DraughtsGame) and isinstance(position, DraughtsPosition)
        svg = draughts_svg(game, position.state)
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
    position = _chess(fen)
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
    after = _play(position, move)
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
    position = _chess(fen)
    promotions = {position.notation(m) for m in position.legal_moves() if m.promotion}
    _check(promotions == {"e8=Q+", "e8=R+", "e8=B", "e8=N"}, f"four promotions, got {promotions}")
    svg = chess_svg(position.board, arrows=[chess.svg.Arrow(chess.E7, chess.E8)])
    return Drawing("promotion", "chess", svg, fen, {"moves": sorted(promotions)})


def checkmate() -> Drawing:
    before = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    position, move = _chess_move(before, "Ra8")
    after = _play(position, move)
    _check(after.status().reason == "checkmate", "Ra8 mates")
    svg = chess_svg(after.board, lastmove=move, check=chess.G8)
    return Drawing("checkmate", "chess", svg, after.fen(), {"move": "Ra8#"})


def stalemate() -> Drawing:
    fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    position = _chess(fen)
    _check(position.status().reason == "stalemate", "Black is stalemated")
    return Drawing("stalemate", "chess", chess_svg(position.board), fen, {})


def _draughts(game_name: str, fen: str) -> tuple[DraughtsGame, DraughtsPosition]:
    game = get_game(game_name)
    position = game.from_fen(fen)
    assert isinstance(game, DraughtsGame) and isinstance(position, DraughtsPosition)
    return game, position


def _named(game: DraughtsGame, names: Iterable[str]) -> list[int]:
    return [game.squares.index_of[name] for name in names]


def _path_arrows(move: RawMove, colour: str = GREEN) -> list[tuple[int, int, str]]:
    stops = (move.origin,) + tuple(move.path)
    return [(a, b, colour) for a, b in zip(stops, stops[1:])]


def _bits(mask: int) -> list[int]:
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


def _quiet_play(position: DraughtsPosition) -> tuple[DraughtsPosition, int]:
    """Play quiet moves that give the other side no capture (first in order) until the game ends."""
    strong_moves = 0
    while not position.status().is_over:
        for move in position.legal_moves():
            after = _play(position, move)
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
    if game_name == "chess":
        svg, after = _chess_line(key, fen, moves, flipped)
    else:
        svg, after = _draughts_line(key, game_name, fen, moves, flipped)
    return Drawing(key, game_name, svg, fen, {"moves": list(moves), "after": after})


def _chess_line(key: str, fen: str, moves: tuple[str, ...], flipped: bool) -> tuple[str, str]:
    """The chess line's arrows on its first position, and the position after it (as FEN)."""
    position = start = _chess(fen)
    arrows = []
    for number, notation in enumerate(moves):
        move = position.parse_move(notation)
        _check(move in position.legal_moves(), f"{key}: {notation} is legal in {position.fen()}")
        colour = ("green", "blue", "red", "yellow")[number % 4]
        arrows.append(chess.svg.Arrow(move.from_square, move.to_square, color=colour))
        position = _play(position, move)
    return chess_svg(start.board, arrows=arrows, flipped=flipped), position.fen()


def _draughts_line(key: str, game_name: str, fen: str, moves: tuple[str, ...], flipped: bool) -> tuple[str, str]:
    """The draughts line's arrows and crossed-out captures on its first position, and the position after."""
    game, position = _draughts(game_name, fen)
    start = position
    colours = (GREEN, BLUE, RED, LANDING)
    arrows: list[tuple[int, int, str]] = []
    marks: list[int] = []
    for number, notation in enumerate(moves):
        move = position.parse_move(notation)
        _check(move in position.legal_moves(), f"{key}: {notation} is legal in {position.fen()}")
        arrows += _path_arrows(move, colours[number % len(colours)])
        marks += _bits(move.captured)
        position = _play(position, move)
    return draughts_svg(game, start.state, arrows=arrows, marks=marks, flipped=flipped), position.fen()


def three_ways_out_of_check() -> Drawing:
    """The three ways out of a check, each checked by the rules layer: king move, block, capture."""
    fen = "R3r1k1/8/8/8/8/2N5/8/4K3 w - - 0 1"
    position = _chess(fen)
    _check(position.board.is_check(), "the rook on e8 gives check")
    legal = set(position.legal_notations())
    ways = {"Kf2": "green", "Ne4": "blue", "Rxe8+": "red"}
    _check(set(ways) <= legal, f"king move, block and capture are legal, got {sorted(legal)}")
    arrows = [chess.svg.Arrow(*_squares(position, san), color=colour) for san, colour in ways.items()]
    svg = chess_svg(position.board, arrows=arrows, check=chess.E1)
    return Drawing("check-ways", "chess", svg, fen, {"ways": list(ways)})


def _squares(position: ChessPosition, san: str) -> tuple[int, int]:
    move = position.parse_move(san)
    return move.from_square, move.to_square


def mate_picture(key: str, fen: str) -> Drawing:
    position = _chess(fen)
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
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ("O-O",),
    ),
    "check-ways": three_ways_out_of_check,
    "lesson-queen-mate": lambda: mate_picture("lesson-queen-mate", "6k1/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
    "lesson-rook-mate": lambda: mate_picture("lesson-rook-mate", "R5k1/8/6K1/8/8/8/8/8 b - - 0 1"),
    "english-shot": lambda: line_of_play(
        "english-shot", "english", "B:W9,14,13,16,20:B3,7,22,25,28", ("7-11", "16x7", "3x10x17"), flipped=True
    ),
    "english-two-kings": lambda: line_of_play("english-two-kings", "english", "B:WK23:BK10", ("10-14", "23-19")),
    "tanzanian-three-kings": lambda: line_of_play(
        "tanzanian-three-kings", "tanzanian", "W:WKc1,Ke1,Kg1:BKh8", ("e1-d2",)
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
