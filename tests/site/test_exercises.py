"""Jifunze exercises: what the page embeds is the rules layer's answer, and an independent oracle agrees.

Chess is checked against python-chess alone, draughts against the reference generator of the rules tests
(tests/site/oracles.py); both oracles also solve the exercises of several moves again, by their own
search, so every "right" and "wrong" in an embedded tree is confirmed without the rules layer.
"""

from __future__ import annotations

from functools import cache

import build_site
import chess
import exercises
import pytest

from tests.rules import reference_draughts as reference
from tests.site import oracles

ALL = [(game, exercise) for game, items in exercises.EXERCISES.items() for exercise in items]
PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def nodes(solved: dict, left: int):
    """Every position of the player's in an embedded exercise: (moves, moves left), the root first."""
    stack = [(solved["moves"], left)]
    while stack:
        moves, left = stack.pop()
        yield moves, left
        stack += [(m["next"]["moves"], left - 1) for m in moves if "next" in m]


@pytest.mark.parametrize("game,exercise", ALL, ids=[f"{g}-{e.key}" for g, e in ALL])
def test_each_page_embeds_the_solved_exercise(built, game, exercise):
    solved = exercises.solve(exercise)
    for lang in build_site.LANGS:
        embedded = built.pages[f"/{lang}/jifunze/{game}/"].config["exercises"]
        assert solved in embedded


def test_the_lessons_have_the_exercises_the_issue_asks_for():
    chess_goals = [e.goal for e in exercises.EXERCISES["chess"]]
    assert len(chess_goals) >= 12
    for goal in ("escape_king", "escape_capture", "escape_block", "castle", "en_passant", "crown"):
        assert goal in chess_goals
    # Each piece's moves: one drill per kind of piece, where that piece makes the capture.
    drilled = set()
    for exercise in exercises.EXERCISES["chess"]:
        if exercise.goal == "capture_best":
            board = chess.Board(exercise.fen)
            for answer in exercises.solve(exercise)["answers"]:
                drilled.add(board.piece_type_at(board.parse_san(answer).from_square))
    assert drilled == set(chess.PIECE_TYPES)
    # Mate with K+Q and with K+R against the computer: more than one move, nothing else on the board.
    long_mates = {
        "".join(sorted(piece.symbol() for piece in chess.Board(e.fen).piece_map().values()))
        for e in exercises.EXERCISES["chess"]
        if e.goal == "mate" and e.moves > 1
    }
    assert {"KQk", "KRk"} <= long_mates

    english = exercises.EXERCISES["english"]
    assert len(english) >= 10
    assert {"safe", "capture_most", "crown", "material", "win"} <= {e.goal for e in english}
    tanzanian = exercises.EXERCISES["tanzanian"]
    assert len(tanzanian) >= 12
    assert {"safe", "capture_most", "crown", "win", "material"} <= {e.goal for e in tanzanian}
    assert any(e.setup for e in tanzanian)  # the countdown catch starts with the count running


def test_the_countdown_catch_starts_with_two_moves_left():
    (catch,) = [e for e in exercises.EXERCISES["tanzanian"] if e.key == "countdown-catch"]
    solved = exercises.solve(catch)
    assert solved["count"] == 10 and catch.moves == 2
    # With a fresh count the same position has many more winning moves: the count is what makes it hard.
    fresh = exercises.solve(exercises.Exercise("fresh", "tanzanian", solved["fen"], "win", 3))
    assert set(solved["answers"]) < set(fresh["answers"])


# ------------------------------------------------------------------------------------------ chess oracle


def chess_forced_mate(board: chess.Board, left: int) -> bool:
    """python-chess: the side to move mates within ``left`` moves whatever the defence."""
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if left > 1 and not board.is_game_over() and all_replies_lose(board, left - 1):
                return True
        finally:
            board.pop()
    return False


def all_replies_lose(board: chess.Board, left: int) -> bool:
    for reply in list(board.legal_moves):
        board.push(reply)
        try:
            if board.is_game_over() or not chess_forced_mate(board, left):
                return False
        finally:
            board.pop()
    return True


def chess_expected(goal: str, board: chess.Board, move: chess.Move, left: int) -> bool:
    king = board.king(board.turn)
    if goal == "crown":
        return move.promotion == chess.QUEEN
    if goal == "castle":
        return board.is_castling(move)
    if goal == "en_passant":
        return board.is_en_passant(move)
    if goal.startswith("escape_"):
        assert board.is_check()
        takes = move.to_square in board.checkers()
        return {
            "escape_king": move.from_square == king,
            "escape_capture": takes,
            "escape_block": move.from_square != king and not takes,
        }[goal]
    after = board.copy()
    after.push(move)
    return after.is_checkmate() or (left > 1 and not after.is_game_over() and all_replies_lose(after, left - 1))


@pytest.mark.parametrize("exercise", [e for e in exercises.EXERCISES["chess"]], ids=lambda e: e.key)
def test_chess_exercises_agree_with_python_chess(exercise):
    solved = exercises.solve(exercise)
    position = {id(solved["moves"]): chess.Board(exercise.fen)}
    for moves, left in nodes(solved, exercise.moves):
        board = position[id(moves)]
        assert {m["uci"] for m in moves} == {m.uci() for m in board.legal_moves}
        values = {}
        for entry in moves:
            move = chess.Move.from_uci(entry["uci"])
            after = board.copy()
            after.push(move)
            assert entry["after"] == after.fen()
            captured = board.piece_at(move.to_square) or (board.is_en_passant(move) and chess.Piece(chess.PAWN, True))
            values[entry["san"]] = PIECE_VALUE.get(captured.piece_type, 0) if captured else 0
            if exercise.goal != "capture_best":
                assert entry["correct"] == chess_expected(exercise.goal, board, move, left), entry["san"]
            if "next" in entry:  # the computer's reply is legal, and the player's next position follows it
                reply = chess.Move.from_uci(entry["reply"]["uci"])
                assert reply in after.legal_moves and entry["correct"]
                after.push(reply)
                assert entry["reply"]["after"] == after.fen()
                position[id(entry["next"]["moves"])] = after
        if exercise.goal == "capture_best":
            best = max(values.values())
            assert {m["san"] for m in moves if m["correct"]} == {san for san, v in values.items() if v == best > 0}
    if exercise.key == "take-the-queen":
        assert solved["answers"] == ["Nxd5"]  # the knight takes the queen; the rook or the pawn are worth less


# ------------------------------------------------------------------------------------------ draughts oracle


def other(colour: str) -> str:
    return "black" if colour == "white" else "white"


def ref_balance(board: dict, side: str) -> int:
    return sum(1 if p.colour == side else -1 for p in board.values())


class DraughtsOracle:
    def __init__(self, game: str, goal: str, mover: str, material: int):
        self.flying = game == "tanzanian"
        self.goal, self.mover, self.material = goal, mover, material

    def moves(self, board, turn):
        return reference.legal_moves(board, turn, flying=self.flying)

    def reached(self, board, turn_after: str, final: bool) -> bool:
        if self.goal == "win":
            return not any(p.colour == turn_after for p in board.values()) or not self.moves(board, turn_after)
        return final and ref_balance(board, self.mover) - self.material >= 1  # material

    @cache  # noqa: B019  (one oracle per test; the boards are frozen for the key)
    def _forced(self, key, left: int) -> bool:
        board = dict(key)
        return any(self.right(board, move, left) for move in self.moves(board, self.mover))

    def forced(self, board, left: int) -> bool:
        return self._forced(frozenset(board.items()), left)

    def right(self, board, move, left: int) -> bool:
        after = oracles.play(board, move)
        opponent = other(self.mover)
        if self.reached(after, opponent, final=left == 1):
            return True
        if left == 1:
            return False
        replies = self.moves(after, opponent)
        return bool(replies) and all(self.forced(oracles.play(after, reply), left - 1) for reply in replies)


def draughts_expected(game: str, goal: str, board, turn, move, left: int, oracle) -> bool | None:
    if goal == "crown":
        origin, destination, _ = move
        return not board[origin].king and destination[1] == reference.crown_rank(turn)
    if goal == "safe":
        after = oracles.play(board, move)
        return not any(captured for _, _, captured in reference.legal_moves(after, other(turn), oracle.flying))
    if goal in ("win", "material"):
        return oracle.right(board, move, left)
    return None  # capture_most: compared across the moves


@pytest.mark.parametrize("exercise", [e for g, e in ALL if g != "chess"], ids=lambda e: f"{e.game}-{e.key}")
def test_draughts_exercises_agree_with_the_reference_generator(exercise):
    game = exercise.game
    solved = exercises.solve(exercise)
    root, turn = oracles.board_from_fen(game, solved["fen"])
    oracle = DraughtsOracle(game, exercise.goal, turn, ref_balance(root, turn))
    position = {id(solved["moves"]): root}
    for moves, left in nodes(solved, exercise.moves):
        board = position[id(moves)]
        by_reference = {oracles.as_reference(game, m): m for m in moves}
        assert set(by_reference) == oracle.moves(board, turn)
        most = max(len(m["captured"]) for m in moves)
        for move, entry in by_reference.items():
            expected = draughts_expected(game, exercise.goal, board, turn, move, left, oracle)
            if expected is None:
                expected = len(entry["captured"]) == most > 0
            assert entry["correct"] == expected, entry["san"]
            after = oracles.play(board, move)
            assert oracles.board_from_fen(game, entry["after"]) == (after, other(turn))
            if "next" in entry:
                reply = oracles.as_reference(game, entry["reply"])
                assert reply in oracle.moves(after, other(turn))
                replied = oracles.play(after, reply)
                assert oracles.board_from_fen(game, entry["reply"]["after"]) == (replied, turn)
                position[id(entry["next"]["moves"])] = replied


def test_tanzanian_answers_by_hand():
    # Worked out by hand on a board, independently of both generators.
    answers = {e.key: exercises.solve(e)["answers"] for e in exercises.EXERCISES["tanzanian"]}
    assert answers["most-pieces"] == ["e3xc5xa7"]  # e3 jumps d4 to c5, then b6 to a7; c3xe5 takes only d4
    assert answers["king-capture"] == ["c3xf6xd8xa5"]  # over e5 (landing on f6, the first square that goes on)
    assert answers["crown-a-king"] == ["c7-d8"]
    assert answers["men-forward"] == ["f2-e3"]  # g3 would take f2 (landing e1); f4 cannot take g3 backwards
    assert answers["landing-square"] == ["d8xf6xh4"]  # f6 is the first landing square that goes on, over g5
    assert sorted(answers["flying-capture"]) == ["h8xa1", "h8xc3"]  # on b2 the man on a3 takes it (a3xc1)


def test_an_exercise_without_a_wrong_move_is_refused():
    only_captures = exercises.Exercise("x", "tanzanian", "W:WKc3:Bd4", "capture_most")
    with pytest.raises(AssertionError, match="right and wrong moves"):
        exercises.solve(only_captures)
    no_crown = exercises.Exercise("x", "english", "B:W30:B1", "crown")
    with pytest.raises(AssertionError, match="0 of"):
        exercises.solve(no_crown)
    not_check = exercises.Exercise("x", "chess", "k7/8/8/8/8/8/P7/K7 w - - 0 1", "escape_king")
    with pytest.raises(AssertionError, match="not check"):
        exercises.solve(not_check)
    with pytest.raises(ValueError, match="compares the moves"):
        exercises.solve(exercises.Exercise("x", "english", "B:W14,22,25,27:B9,10", "capture_most", 2))


def test_every_exercise_has_words_in_every_language(built):
    for game, items in exercises.EXERCISES.items():
        for lang in build_site.LANGS:
            page = built.pages[f"/{lang}/jifunze/{game}/"]
            for exercise in items:
                assert f"x-{exercise.key}" in page.ids


#: How each language says that a move is legal, for the "take the most pieces" tasks.
LEGAL = {"en": "legal", "sw": "halali", "tl": "legal"}


def test_take_the_most_tasks_say_every_capture_is_legal():
    # Neither draughts game obliges a player to take the most pieces, so a task that asks for the most must
    # say that the other captures are legal too, or it would teach a rule these games do not have.
    for game in ("english", "tanzanian"):
        for exercise in exercises.EXERCISES[game]:
            if exercise.goal != "capture_most":
                continue
            for lang in build_site.LANGS:
                task = build_site.content(lang, game)["jifunze"]["exercises"][exercise.key]["task"]
                assert LEGAL[lang] in task.lower(), (lang, game, exercise.key)
