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
- ``castle``, ``en_passant`` (chess): make that special move;
- ``escape_king``, ``escape_capture``, ``escape_block`` (chess): get out of check by moving the king, by
  taking the checking piece, or by putting a piece in between;
- ``safe`` (draughts): a move after which the opponent has no capture;
- ``material`` (draughts): after the allowed moves, have taken more pieces than you gave.

An exercise whose goal no move reaches, or every move reaches, is a mistake and fails the build.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from shared_rules import get_game
from shared_rules.search.levels import choose_move

PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
#: Goals judged by the move alone (any number of moves may reach them).
MOVE_GOALS = ("crown", "castle", "en_passant", "escape_king", "escape_capture", "escape_block", "safe")
#: Goals that compare the moves of one position with each other: one move only.
RELATIVE_GOALS = ("capture_best", "capture_most")
#: Goals that may take several moves against the computer defender.
FORCED_GOALS = ("mate", "win", "material")
#: The level the computer defends at (the search chooses among the replies that hold out longest).
DEFENDER_LEVEL = 3


@dataclass(frozen=True)
class Exercise:
    key: str  # also the content key of its instructions and hints
    game: str
    fen: str
    goal: str
    moves: int = 1  # how many of the player's moves the goal may take; the computer replies in between
    setup: tuple[str, ...] = ()  # moves played from ``fen`` before the exercise starts (a running count)


def _ex(game: str, key: str, fen: str, goal: str, moves: int = 1, setup: tuple[str, ...] = ()) -> Exercise:
    return Exercise(key, game, fen, goal, moves, setup)


EXERCISES: dict[str, tuple[Exercise, ...]] = {
    "chess": (
        _ex("chess", "king-steps", "k7/8/8/8/5p2/2pKp3/8/8 w - - 0 1", "capture_best"),
        _ex("chess", "rook-lines", "k7/8/3n4/8/8/1b6/8/3R2K1 w - - 0 1", "capture_best"),
        _ex("chess", "bishop-diagonals", "k7/8/8/2q3r1/8/8/8/2B4K w - - 0 1", "capture_best"),
        _ex("chess", "queen-lines", "k7/8/8/8/r7/4n3/1b6/3Q3K w - - 0 1", "capture_best"),
        _ex("chess", "knight-jumps", "k7/8/3qr3/8/3N4/5p2/8/7K w - - 0 1", "capture_best"),
        _ex("chess", "pawn-captures", "k7/8/8/3nr3/4P3/8/8/7K w - - 0 1", "capture_best"),
        _ex("chess", "take-the-queen", "4k3/8/8/1p1q3r/8/2N5/8/4K2R w - - 0 1", "capture_best"),
        _ex("chess", "check-king-steps", "k2r4/8/8/8/8/8/7R/3K4 w - - 0 1", "escape_king"),
        _ex("chess", "check-capture", "6k1/5ppp/8/8/8/8/5PBP/R3r1K1 w - - 0 1", "escape_capture"),
        _ex("chess", "check-block", "k7/8/8/8/7q/8/6P1/4K3 w - - 0 1", "escape_block"),
        _ex("chess", "castle-safely", "4k3/8/8/8/2b5/8/PPP2PPP/R3K2R w KQ - 0 1", "castle"),
        _ex("chess", "en-passant", "k7/8/8/4Pp2/8/8/8/4K3 w - f6 0 2", "en_passant"),
        _ex("chess", "promote", "8/1P6/8/8/5k2/8/8/4K3 w - - 0 1", "crown"),
        _ex("chess", "back-rank-mate", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "mate"),
        _ex("chess", "queen-mate", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "mate"),
        _ex("chess", "queen-king-mate", "6k1/8/7K/8/8/8/8/3Q4 w - - 0 1", "mate", 2),
        _ex("chess", "rook-king-mate", "6k1/8/8/4R2K/8/8/8/8 w - - 0 1", "mate", 3),
    ),
    "english": (
        _ex("english", "man-steps", "B:W23,13,19:B20,11,12", "safe"),
        _ex("english", "forced-capture", "B:W32,21,29:B12,24,17", "safe"),
        _ex("english", "most-pieces", "B:W14,22,25,27:B9,10", "capture_most"),
        _ex("english", "three-ways", "B:W15,16,17,24:B11,14", "capture_most"),
        _ex("english", "triple-jump", "B:W24,15,14,27,7:B3", "capture_most"),
        _ex("english", "crown-a-king", "B:W21,30:B10,26,27", "crown"),
        _ex("english", "shot", "B:W9,14,13,16,20:B3,7,22,25,28", "material", 2),
        _ex("english", "two-for-one", "B:W10,26,18,12,28:B5,4,1,16,20", "material", 2),
        _ex("english", "two-kings", "B:WK22:BK30,K9", "win", 2),
        _ex("english", "king-hunt", "B:WK16:BK10,K29", "win", 3),
    ),
    "tanzanian": (
        _ex("tanzanian", "men-forward", "W:Wf4,f2,a5:Bh4,g3,h6", "safe"),
        _ex("tanzanian", "man-steps", "W:Wh2,h4,c1:Bf2,a7,c3", "safe"),
        _ex("tanzanian", "most-pieces", "W:Wc3,e3,g1:Bb6,d4,h8", "capture_most"),
        _ex("tanzanian", "flying-capture", "W:WKh8:Bd4,f4,a3", "safe"),
        _ex("tanzanian", "king-capture", "W:WKc3,h2:Bb2,b6,e5,e7", "capture_most"),
        _ex("tanzanian", "landing-square", "W:WKd8,h2:Bf8,e7,c7,g5", "capture_most"),
        _ex("tanzanian", "long-landing", "W:WKa1,g7:Bc7,h6,b2,a3", "capture_most"),
        _ex("tanzanian", "crown-a-king", "W:Wa1,c7:Bb8,e7,h8", "crown"),
        _ex("tanzanian", "crown-by-capture", "W:Wg3,d2,f6:Be3,d8,g7,b8", "crown"),
        _ex("tanzanian", "crown-then-capture", "W:Wb6,g7,a5,d2:Be7,h2,d4,f8", "material", 2),
        _ex("tanzanian", "shot", "W:Wc3,g7,f2,h2,g1:Bh8,a5,h4,a7,f4", "material", 2),
        _ex("tanzanian", "king-finish", "W:WKb4,c1:Bc5,h4", "win", 2),
        _ex("tanzanian", "countdown-catch", "W:WKe7,Ke3,Kh2:BKb8", "win", 2, ("h2-g1", "b8-g3", "g1-h2", "g3-b8") * 5),
    ),
}


def start(exercise: Exercise):
    """The rules layer's position the exercise starts from (after its set-up moves, if any)."""
    position = get_game(exercise.game).from_fen(exercise.fen)
    for notation in exercise.setup:
        position = position.play(notation)
    return position


def solve(exercise: Exercise) -> dict:
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


def _node(exercise: Exercise, position, left: int, material: int) -> dict:
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
        if entry["correct"] and not entry["done"]:
            after = position.play(move)
            reply = _defend(exercise, after, left - 1, material)
            replied = after.play(reply)
            entry["reply"] = describe(after, reply)
            entry["next"] = _node(exercise, replied, left - 1, material)
        entry.pop("captured_value", None)
    return {"moves": [entry for _, entry in moves]}


def _judge(exercise: Exercise, position, move, left: int, material: int) -> tuple[bool, bool]:
    """(right, finished): whether the move keeps the goal in reach, and whether it reaches it now."""
    goal = exercise.goal
    if goal in RELATIVE_GOALS:
        return False, True  # marked by comparing the moves (``_mark_relative``)
    if goal in MOVE_GOALS:
        reached = _move_goal(goal, position, move)
        return reached, True
    after = position.play(move)
    if _reached(goal, position, after, material, final=left == 1):
        return True, True
    if left == 1 or after.status().is_over:
        return False, True
    return _forced_after(exercise, after, left - 1, material), False


def _forced(exercise: Exercise, position, left: int, material: int) -> bool:
    """Whether the player to move reaches the goal within ``left`` moves whatever the defender does."""
    for move in position.legal_moves():
        after = position.play(move)
        if _reached(exercise.goal, position, after, material, final=left == 1):
            return True
        if left > 1 and not after.status().is_over and _forced_after(exercise, after, left - 1, material):
            return True
    return False


def _forced_after(exercise: Exercise, after, left: int, material: int) -> bool:
    """After the player's move: every reply of the defender still leaves the goal in reach."""
    for reply in after.legal_moves():
        replied = after.play(reply)
        if replied.status().is_over or not _forced(exercise, replied, left, material):
            return False
    return True


def _holds_out(exercise: Exercise, replied, left: int, material: int) -> int:
    """How many of the player's moves the goal needs after this reply (more is a better defence)."""
    for needed in range(1, left + 1):
        if _forced(exercise, replied, needed, material):
            return needed
    return left + 1


def _defend(exercise: Exercise, after, left: int, material: int):
    """The computer's reply: the search's choice among the replies that put the goal furthest off."""
    replies = after.legal_moves()
    scored = {reply: _holds_out(exercise, after.play(reply), left, material) for reply in replies}
    longest = max(scored.values())
    best = [reply for reply, needed in scored.items() if needed == longest]
    if len(best) == 1:
        return best[0]
    choice = choose_move(after.game, after, DEFENDER_LEVEL).move
    return choice if choice in best else best[0]


def _reached(goal: str, before, after, material: int, final: bool) -> bool:
    status = after.status()
    if goal in ("mate", "win"):
        return status.result == before.turn and (goal == "win" or status.reason == "checkmate")
    if goal == "material":
        return final and _material(after, before.turn) - material >= 1
    raise ValueError(f"unknown goal {goal!r}")


def _material(position, side: str | None = None) -> int:
    """Pieces of ``side`` (default: the side to move) minus the opponent's: men and kings count one each."""
    if position.game.name == "chess":
        return 0
    side = side or position.turn
    white, black, _, _ = position.state
    mine, theirs = (white, black) if side != "black" else (black, white)
    return mine.bit_count() - theirs.bit_count()


def _move_goal(goal: str, position, move) -> bool:
    if position.game.name != "chess":
        if goal == "crown":
            return bool(move.crowned)
        if goal == "safe":
            return not any(reply.captured for reply in position.play(move).legal_moves())
        raise ValueError(f"unknown draughts goal {goal!r}")
    board = position.board
    king = board.king(board.turn)
    if goal == "crown":
        return move.promotion == chess.QUEEN
    if goal == "castle":
        return board.is_castling(move)
    if goal == "en_passant":
        return board.is_en_passant(move)
    if not board.is_check():
        raise AssertionError(f"{goal}: the position {board.fen()} is not check")
    takes_checker = move.to_square in board.checkers()
    if goal == "escape_king":
        return move.from_square == king
    if goal == "escape_capture":
        return takes_checker
    if goal == "escape_block":
        return move.from_square != king and not takes_checker
    raise ValueError(f"unknown chess goal {goal!r}")


def _mark_relative(goal: str, moves: list[dict]) -> None:
    if goal == "capture_best":
        best = max(m["captured_value"] for m in moves)
        for m in moves:
            m["correct"] = best > 0 and m["captured_value"] == best
    else:
        most = max(len(m["captured"]) for m in moves)
        for m in moves:
            m["correct"] = most > 0 and len(m["captured"]) == most


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


def _draughts_move(position, move) -> dict:
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
    return {name: list(game.engine.coords[index]) for index, name in game.squares.name_of.items()}
