"""Jifunze exercises: small positions with a goal, solved at build time by the rules layer.

Each exercise names a position and a goal (``capture_most``, ``capture_best``, ``crown``, ``mate``).
``solve`` lists every legal move with its squares, its notation, the position after it and whether
it reaches the goal, so the page can embed all of it as JSON and the browser needs no rules code.
An exercise whose goal no move reaches, or every move reaches, is a mistake and fails the build.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from shared_rules import get_game

PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


@dataclass(frozen=True)
class Exercise:
    key: str  # also the content key of its instructions and hints
    game: str
    fen: str
    goal: str  # capture_most | capture_best | crown | mate


EXERCISES: dict[str, tuple[Exercise, ...]] = {
    "chess": (
        Exercise("take-the-queen", "chess", "4k3/8/8/1p1q3r/8/2N5/8/4K2R w - - 0 1", "capture_best"),
        Exercise("back-rank-mate", "chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "mate"),
        Exercise("queen-mate", "chess", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "mate"),
        Exercise("promote", "chess", "8/1P6/8/8/5k2/8/8/4K3 w - - 0 1", "crown"),
    ),
    "english": (
        Exercise("most-pieces", "english", "B:W14,22,25,27:B9,10", "capture_most"),
        Exercise("three-ways", "english", "B:W15,16,17,24:B11,14", "capture_most"),
        Exercise("crown-a-king", "english", "B:W21,30:B10,26,27", "crown"),
    ),
    "tanzanian": (
        Exercise("most-pieces", "tanzanian", "W:Wc3,e3,g1:Bb6,d4,h8", "capture_most"),
        Exercise("king-capture", "tanzanian", "W:WKc3,h2:Bb2,b6,e5,e7", "capture_most"),
        Exercise("crown-a-king", "tanzanian", "W:Wa1,c7:Bb8,e7,h8", "crown"),
    ),
}


def solve(exercise: Exercise) -> dict:
    """The exercise as the page embeds it: every legal move, the position after it, and the answers."""
    game = get_game(exercise.game)
    position = game.from_fen(exercise.fen)
    if exercise.game == "chess":
        moves = [_chess_move(position, move) for move in position.legal_moves()]
        _mark_chess(exercise.goal, position, moves)
    else:
        moves = [_draughts_move(game, position, move) for move in position.legal_moves()]
        _mark_draughts(exercise.goal, moves)
    answers = [m["san"] for m in moves if m["correct"]]
    if not answers or len(answers) == len(moves):
        raise AssertionError(
            f"exercise {exercise.game}/{exercise.key}: {len(answers)} of {len(moves)} moves reach "
            f"the goal {exercise.goal!r}; an exercise needs right and wrong moves"
        )
    return {
        "key": exercise.key,
        "game": exercise.game,
        "goal": exercise.goal,
        "fen": exercise.fen,
        "turn": position.turn,
        "moves": moves,
        "answers": answers,
    }


def _chess_move(position, move: chess.Move) -> dict:
    board = position.board
    after = position.play(move)
    captured = board.piece_at(move.to_square)
    if board.is_en_passant(move):
        captured = chess.Piece(chess.PAWN, not board.turn)
    return {
        "from": chess.square_name(move.from_square),
        "to": chess.square_name(move.to_square),
        "path": [chess.square_name(move.to_square)],
        "san": position.notation(move),
        "uci": move.uci(),
        "promotion": chess.piece_symbol(move.promotion) if move.promotion else None,
        "captured_value": PIECE_VALUE.get(captured.piece_type, 0) if captured else 0,
        "after": after.fen(),
        "result": after.status().reason,
    }


def _mark_chess(goal: str, position, moves: list[dict]) -> None:
    if goal == "mate":
        for m in moves:
            m["correct"] = m["result"] == "checkmate"
    elif goal == "capture_best":
        best = max(m["captured_value"] for m in moves)
        for m in moves:
            m["correct"] = best > 0 and m["captured_value"] == best
    elif goal == "crown":
        for m in moves:
            m["correct"] = m["promotion"] == "q"
    else:
        raise ValueError(f"unknown chess goal {goal!r}")
    for m in moves:
        del m["captured_value"]


def _draughts_move(game, position, move) -> dict:
    names = game.squares.name_of
    after = position.play(move)
    return {
        "from": names[move.origin],
        "to": names[move.destination],
        "path": [names[i] for i in move.path],
        "captured": game.squares.mask_names(move.captured),
        "san": position.notation(move),
        "crowned": move.crowned,
        "after": after.fen(),
        "result": after.status().reason,
    }


def _mark_draughts(goal: str, moves: list[dict]) -> None:
    if goal == "capture_most":
        most = max(len(m["captured"]) for m in moves)
        for m in moves:
            m["correct"] = most > 0 and len(m["captured"]) == most
    elif goal == "crown":
        for m in moves:
            m["correct"] = m["crowned"]
    else:
        raise ValueError(f"unknown draughts goal {goal!r}")


def square_map(game_name: str) -> dict[str, list[int]]:
    """Square name -> [row, file] (row 0 = White's first row) for a draughts game, from the rules layer."""
    game = get_game(game_name)
    return {name: list(game.engine.coords[index]) for index, name in game.squares.name_of.items()}
