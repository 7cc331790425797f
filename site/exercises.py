"""Jifunze exercises: small positions with a goal, solved at build time by the rules layer.

Each exercise names a position, a goal and how many of the player's moves it may take. ``solve`` lists
every legal move with its squares, its notation, the position after it and whether it is right, so the
page embeds all of it as JSON and the browser needs no rules code. An exercise of several moves is a
tree: after each right move that does not finish the goal, the computer defender's reply (the rules
layer's search, among the replies that hold out longest) and the player's next choices are embedded too.

Goals, each decided by the rules layer on the move and the position after it:

- ``capture_best`` (chess): capture the most valuable piece within reach;
- ``capture_most`` (draughts): a capture that takes the greatest number of pieces;
- ``crown``: promote to a queen (chess), crown a man (draughts);
- ``mate`` (chess), ``win`` (draughts): end the game as the winner within the allowed moves;
- ``castle``, ``en_passant`` (chess): make that special move (``castle`` in two moves: clear the way, then
  castle, with the king and rook unmoved);
- ``stalemate`` (chess): from a lost position, a move after which every reply of the opponent leaves the
  player stalemated (a draw saved);
- ``escape_king``, ``escape_capture``, ``escape_block`` (chess): get out of check by moving the king, by
  taking the checking piece, or by putting a piece in between;
- ``safe`` (draughts): a move after which the opponent has no capture;
- ``material`` (draughts): after the allowed moves, have taken more pieces than you gave;
- ``reach``: move to the exercise's target square (chess: with the named piece, "Nf3");
- ``protect`` (chess): make the attacked piece on the target square safe without moving it (defend it,
  block the attack or take the attacker);
- ``safe_capture`` (chess): capture a piece that cannot be taken back;
- ``gain_best`` (chess): the capture that wins most once a recapture is counted (value taken, less the
  capturing piece's value when it can be taken back);
- ``check`` (chess): give check within the allowed moves.

A wrong move that is legal but meets another rule carries ``why``, a code the page explains in its own
language (``reasons`` in the content): it stalemates, escapes check another way, can be taken back, ...

An exercise whose goal no move reaches, or every move reaches, is a mistake and fails the build.
"""

from __future__ import annotations

from typing import Any

import chess
from exercise_list import CHESS, ENGLISH, TANZANIAN, Exercise

from shared_rules import get_game
from shared_rules.draughts.engine import RawMove
from shared_rules.draughts.game import DraughtsGame, DraughtsPosition
from shared_rules.search.levels import choose_move

PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
#: Goals judged by the move alone (any number of moves may reach them).
MOVE_GOALS = (
    "crown", "castle", "en_passant", "escape_king", "escape_capture", "escape_block", "safe", "reach",
    "protect", "safe_capture",
)  # fmt: skip
#: Goals that compare the moves of one position with each other: one move only.
RELATIVE_GOALS = ("capture_best", "capture_most", "gain_best")
#: Goals that may take several moves against the computer defender (``castle`` too, when it is given more).
FORCED_GOALS = ("mate", "win", "material", "check")
#: Goals judged by the move and every reply to it: the defender's answer is forced and ends the exercise.
REPLY_GOALS = ("stalemate",)
EXERCISES: dict[str, tuple[Exercise, ...]] = {"chess": CHESS, "english": ENGLISH, "tanzanian": TANZANIAN}
__all__ = ["EXERCISES", "Exercise", "solve", "square_map", "start"]
#: A position of the exercise's game (a ChessPosition or a DraughtsPosition), and a move of it: the goals read
#: the attributes of their own game, which the game's name decides, so the checker is told no more.
AnyPosition = Any
AnyMove = Any
#: One legal move as the page embeds it (its squares, notation, the position after it, the verdict).
MoveEntry = dict[str, Any]
#: The level the computer defends at (the search chooses among the replies that hold out longest).
DEFENDER_LEVEL = 3


def start(exercise: Exercise) -> AnyPosition:
    """The rules layer's position the exercise starts from (after its set-up moves, if any)."""
    position = get_game(exercise.game).from_fen(exercise.fen)
    for notation in exercise.setup:
        position = position.play(notation)
    return position


def solve(exercise: Exercise) -> dict[str, Any]:
    """The exercise as the page embeds it: every legal move, the position after it, and the answers."""
    if exercise.goal in RELATIVE_GOALS and exercise.moves != 1:
        raise ValueError(f"exercise {exercise.key}: {exercise.goal!r} compares the moves of one position")
    position = start(exercise)
    node = _node(exercise, position, exercise.moves, _material(position))
    answers = [m["san"] for m in node["moves"] if m["correct"]]
    if not answers or len(answers) == len(node["moves"]):
        raise AssertionError(
            f"exercise {exercise.game}/{exercise.key}: {len(answers)} of {len(node['moves'])} moves reach "
            f"the goal {exercise.goal!r}; an exercise needs right and wrong moves"
        )
    return {
        "key": exercise.key,
        "game": exercise.game,
        "goal": exercise.goal,
        "fen": position.fen(),
        "turn": position.turn,
        "length": exercise.moves,
        "count": getattr(position, "countdown", None),
        "moves": node["moves"],
        "answers": answers,
    }


def _node(exercise: Exercise, position: AnyPosition, left: int, material: int) -> dict[str, Any]:
    """One position of the player's: every legal move, marked, with the defender's reply after a right one."""
    describe = _chess_move if exercise.game == "chess" else _draughts_move
    moves = []
    for move in position.legal_moves():
        entry = describe(position, move)
        entry["correct"], entry["done"] = _judge(exercise, position, move, left, material)
        moves.append((move, entry))
    if exercise.goal in RELATIVE_GOALS:
        _mark_relative(exercise.goal, [entry for _, entry in moves])
    for move, entry in moves:
        if not entry["correct"] and (why := _why(exercise, position, move, entry)):
            entry["why"] = why
        if entry["correct"] and not entry["done"]:
            after = position.play(move)
            reply = _defend(exercise, after, left - 1, material)
            replied = after.play(reply)
            entry["reply"] = describe(after, reply)
            entry["next"] = _node(exercise, replied, left - 1, material)
        entry.pop("captured_value", None)
        entry.pop("gain", None)
    return {"moves": [entry for _, entry in moves]}


def _judge(exercise: Exercise, position: AnyPosition, move: AnyMove, left: int, material: int) -> tuple[bool, bool]:
    """(right, finished): whether the move keeps the goal in reach, and whether it reaches it now."""
    goal = exercise.goal
    if goal in RELATIVE_GOALS:
        return False, True  # marked by comparing the moves (``_mark_relative``)
    if goal in MOVE_GOALS and exercise.moves == 1:
        reached = _move_goal(exercise, position, move)
        return reached, True
    after = position.play(move)
    if goal in REPLY_GOALS:
        replies = [] if after.status().is_over else after.legal_moves()
        return bool(replies) and all(after.play(reply).status().reason == "stalemate" for reply in replies), True
    if _reached(goal, position, after, material, final=left == 1):
        return True, True
    if left == 1 or after.status().is_over:
        return False, True
    return _forced_after(exercise, after, left - 1, material), False


def _forced(exercise: Exercise, position: AnyPosition, left: int, material: int) -> bool:
    """Whether the player to move reaches the goal within ``left`` moves whatever the defender does."""
    for move in position.legal_moves():
        after = position.play(move)
        if _reached(exercise.goal, position, after, material, final=left == 1):
            return True
        if left > 1 and not after.status().is_over and _forced_after(exercise, after, left - 1, material):
            return True
    return False


def _forced_after(exercise: Exercise, after: AnyPosition, left: int, material: int) -> bool:
    """After the player's move: every reply of the defender still leaves the goal in reach."""
    for reply in after.legal_moves():
        replied = after.play(reply)
        if replied.status().is_over or not _forced(exercise, replied, left, material):
            return False
    return True


def _holds_out(exercise: Exercise, replied: AnyPosition, left: int, material: int) -> int:
    """How many of the player's moves the goal needs after this reply (more is a better defence)."""
    for needed in range(1, left + 1):
        if _forced(exercise, replied, needed, material):
            return needed
    return left + 1


def _defend(exercise: Exercise, after: AnyPosition, left: int, material: int) -> AnyMove:
    """The computer's reply: the search's choice among the replies that put the goal furthest off."""
    replies = after.legal_moves()
    scored = {reply: _holds_out(exercise, after.play(reply), left, material) for reply in replies}
    longest = max(scored.values())
    best = [reply for reply, needed in scored.items() if needed == longest]
    if len(best) == 1:
        return best[0]
    # A clock that never advances: the level's node budget alone bounds the search, so a build on a loaded
    # machine embeds the same reply as one on an idle machine (a CPU-time cap made them differ).
    choice = choose_move(after.game, after, DEFENDER_LEVEL, clock=_frozen_clock).move
    return choice if choice in best else best[0]


def _frozen_clock() -> float:
    return 0.0


def _reached(goal: str, before: AnyPosition, after: AnyPosition, material: int, final: bool) -> bool:
    status = after.status()
    if goal in ("mate", "win"):
        return status.result == before.turn and (goal == "win" or status.reason == "checkmate")
    if goal == "material":
        return final and _material(after, before.turn) - material >= 1
    if goal == "check":
        return bool(after.board.is_check())
    if goal == "castle":  # the king went two squares along its row: only castling does that
        king, moved = before.board.king(before.board.turn), after.board.king(before.board.turn)
        return king is not None and moved is not None and chess.square_distance(king, moved) == 2
    raise ValueError(f"unknown goal {goal!r}")


def _material(position: AnyPosition, side: str | None = None) -> int:
    """Pieces of ``side`` (default: the side to move) minus the opponent's: men and kings count one each."""
    if position.game.name == "chess":
        return 0
    side = side or position.turn
    white, black, _, _ = position.state
    mine, theirs = (white, black) if side != "black" else (black, white)
    return int(mine.bit_count() - theirs.bit_count())


def _move_goal(exercise: Exercise, position: AnyPosition, move: AnyMove) -> bool:
    goal = exercise.goal
    if position.game.name != "chess":
        if goal == "crown":
            return bool(move.crowned)
        if goal == "safe":
            return not any(reply.captured for reply in position.play(move).legal_moves())
        if goal == "reach":
            return bool(position.game.squares.name_of[move.destination] == exercise.target)
        raise ValueError(f"unknown draughts goal {goal!r}")
    board = position.board
    if goal in ("reach", "protect", "safe_capture"):
        return _chess_square_goal(exercise, board, move)
    king = board.king(board.turn)
    if goal == "crown":
        return bool(move.promotion == chess.QUEEN)
    if goal == "castle":
        return bool(board.is_castling(move))
    if goal == "en_passant":
        return bool(board.is_en_passant(move))
    if not board.is_check():
        raise AssertionError(f"{goal}: the position {board.fen()} is not check")
    return _escape_way(board, move, king) == goal


def _escape_way(board: chess.Board, move: chess.Move, king: chess.Square | None) -> str:
    if move.from_square == king:
        return "escape_king"
    return "escape_capture" if move.to_square in board.checkers() else "escape_block"


def _chess_square_goal(exercise: Exercise, board: chess.Board, move: chess.Move) -> bool:
    after = board.copy(stack=False)
    after.push(move)
    if exercise.goal == "reach":
        piece, square = exercise.target[:-2], chess.parse_square(exercise.target[-2:])
        moved = board.piece_at(move.from_square)
        return move.to_square == square and (not piece or (moved is not None and moved.symbol().upper() == piece))
    if exercise.goal == "protect":
        square = chess.parse_square(exercise.target)
        if not board.is_attacked_by(not board.turn, square) or board.is_attacked_by(board.turn, square):
            raise AssertionError(f"protect: the piece on {exercise.target} must be attacked and undefended")
        # Safe where it stands: defended, or no longer attacked (a block, or the attacker taken).
        return move.from_square != square and (
            after.is_attacked_by(board.turn, square) or not after.is_attacked_by(after.turn, square)
        )
    return board.is_capture(move) and not after.is_attacked_by(after.turn, move.to_square)  # safe_capture


def _why(exercise: Exercise, position: AnyPosition, move: AnyMove, entry: MoveEntry) -> str | None:
    """Why a legal move is wrong, when it meets another rule: a code the page explains, or None."""
    if entry["result"] == "stalemate":
        return "stalemate"
    if position.game.name != "chess":
        if entry["result"] == "three_kings_countdown":
            return "countdown"
        if exercise.goal == "safe":
            return "gives_capture"
        return "fewer" if exercise.goal == "capture_most" and entry["captured"] else None
    board, goal = position.board, exercise.goal
    if goal.startswith("escape_"):
        return _escape_way(board, move, board.king(board.turn)).replace("escape_", "by_")
    if goal == "crown" and move.promotion:
        return "underpromotion"
    if goal == "castle" and _loses_castling(board, move):
        return "castling_lost"
    if goal == "mate" and exercise.moves == 1 and entry["san"].endswith("+"):
        return "check_not_mate"
    if goal == "protect" and move.from_square == chess.parse_square(exercise.target):
        return "moved_away"
    if goal == "reach" and move.to_square == chess.parse_square(exercise.target[-2:]):
        return "other_piece"
    if goal in ("capture_best", "gain_best", "safe_capture") and board.is_capture(move):
        after = board.copy(stack=False)
        after.push(move)
        return "taken_back" if after.is_attacked_by(after.turn, move.to_square) else "smaller"
    return None


def _loses_castling(board: chess.Board, move: chess.Move) -> bool:
    """A king move, or a move of a rook that may still castle, that is not castling itself."""
    if board.is_castling(move) or not board.has_castling_rights(board.turn):
        return False
    moved = board.piece_type_at(move.from_square)
    return moved == chess.KING or (
        moved == chess.ROOK and bool(board.castling_rights & chess.BB_SQUARES[move.from_square])
    )


def _mark_relative(goal: str, moves: list[MoveEntry]) -> None:
    key = {"capture_best": "captured_value", "gain_best": "gain"}.get(goal)
    if key is None:
        most = max(len(m["captured"]) for m in moves)
        for m in moves:
            m["correct"] = most > 0 and len(m["captured"]) == most
        return
    best = max(m[key] for m in moves)
    for m in moves:
        m["correct"] = best > 0 and m[key] == best


def _chess_move(position: AnyPosition, move: chess.Move) -> MoveEntry:
    board = position.board
    after = position.play(move)
    captured = board.piece_at(move.to_square)
    if board.is_en_passant(move):
        captured = chess.Piece(chess.PAWN, not board.turn)
    value = PIECE_VALUE.get(captured.piece_type, 0) if captured else 0
    taken_back = after.board.is_attacked_by(after.board.turn, move.to_square)
    mover = PIECE_VALUE.get(board.piece_type_at(move.from_square), 0)
    return {
        "from": chess.square_name(move.from_square),
        "to": chess.square_name(move.to_square),
        "path": [chess.square_name(move.to_square)],
        "san": position.notation(move),
        "uci": move.uci(),
        "promotion": chess.piece_symbol(move.promotion) if move.promotion else None,
        "captured_value": value,
        "gain": value - (mover if taken_back else 0) if value else 0,
        "after": after.fen(),
        "result": after.status().reason,
    }


def _draughts_move(position: DraughtsPosition, move: RawMove) -> MoveEntry:
    game = position.game
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


def square_map(game_name: str) -> dict[str, list[int]]:
    """Square name -> [row, file] (row 0 = White's first row) for a draughts game, from the rules layer."""
    game = get_game(game_name)
    assert isinstance(game, DraughtsGame)
    return {name: list(game.engine.coords[index]) for index, name in game.squares.name_of.items()}
