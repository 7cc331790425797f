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

from tests.checks import known
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
def test_each_lesson_fetches_the_solved_exercise(built, game, exercise):
    solved = exercises.solve(exercise)
    for lang in build_site.LANGS:
        embedded = built.exercises(f"/{lang}/jifunze/{game}/")
        assert solved in embedded


def test_the_lessons_cover_what_a_beginner_needs_in_order():
    chess_exercises = exercises.EXERCISES["chess"]
    assert len(chess_exercises) >= 36
    goals = [e.goal for e in chess_exercises]
    for goal in (
        "reach", "capture_best", "protect", "safe_capture", "gain_best", "check", "escape_king", "escape_capture",
        "escape_block", "mate", "castle", "en_passant", "crown",
    ):  # fmt: skip
        assert goal in goals, goal
    # Every piece: a plain move to a marked square and a capture where that piece is the answer.
    stepped = {e.target[0] if e.target[0].isupper() else "P" for e in chess_exercises if e.goal == "reach"}
    assert stepped == {"K", "Q", "R", "B", "N", "P"}
    drilled = set()
    for exercise in chess_exercises:
        if exercise.goal == "capture_best":
            board = chess.Board(exercise.fen)
            for answer in exercises.solve(exercise)["answers"]:
                drilled.add(board.piece_type_at(board.parse_san(answer).from_square))
    assert drilled == set(chess.PIECE_TYPES)
    # Promotion before castling; stalemate taught by a mate whose wrong moves stalemate; check in two.
    assert goals.index("crown") < goals.index("castle")
    assert any("stalemate" in {m.get("why") for m in exercises.solve(e)["moves"]} for e in chess_exercises)
    assert any(e.goal == "check" and e.moves == 2 for e in chess_exercises)
    long_mates = {
        "".join(sorted(piece.symbol() for piece in chess.Board(e.fen).piece_map().values()))
        for e in chess_exercises
        if e.goal == "mate" and e.moves > 1
    }
    assert {"KQk", "KRk", "KRRk"} <= long_mates

    for game, least in (("english", 24), ("tanzanian", 28)):
        items = exercises.EXERCISES[game]
        assert len(items) >= least
        assert {"safe", "capture_most", "crown", "material", "win"} <= {e.goal for e in items}
        solved = {e.key: exercises.solve(e) for e in items}
        # Crowning comes before any exercise with a king on the board.
        first_crown = next(i for i, e in enumerate(items) if e.goal == "crown")
        assert all("K" not in e.fen for e in items[:first_crown]), game
        # A plain single capture, and a capture that is compulsory while a quiet move looks tempting.
        assert any(all(len(m["captured"]) == 1 for m in solved[e.key]["moves"]) for e in items if e.goal == "safe")
        assert "must-capture" in solved
        # King moves (a king's quiet move is an answer) and king captures.
        assert any(
            any(m["correct"] and not m["captured"] and f"K{m['from']}" in e.fen.replace(":W", ",").replace(":B", ",")
                for m in solved[e.key]["moves"])
            for e in items
        ), game  # fmt: skip
    tanzanian = exercises.EXERCISES["tanzanian"]
    assert any(e.setup for e in tanzanian)  # the countdown catch starts with the count running
    # The landing choice: one king capture with two or more landing squares, some right and some wrong.
    assert any(
        len({m["to"] for m in exercises.solve(e)["moves"] if m["correct"]}) >= 2
        and any(not m["correct"] for m in exercises.solve(e)["moves"])
        for e in tanzanian
        if e.goal == "safe" and "K" in e.fen
    )


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


def chess_forced_check(board: chess.Board, left: int) -> bool:
    """python-chess: the side to move gives check within ``left`` moves whatever the defence."""
    for move in board.legal_moves:
        if board.gives_check(move):
            return True
        board.push(move)
        try:
            if (
                left > 1
                and not board.is_game_over()
                and all(
                    _after_reply(board, reply, lambda b: chess_forced_check(b, left - 1))
                    for reply in list(board.legal_moves)
                )
            ):
                return True
        finally:
            board.pop()
    return False


def _after_reply(board: chess.Board, reply: chess.Move, then) -> bool:
    board.push(reply)
    try:
        return not board.is_game_over() and then(board)
    finally:
        board.pop()


def chess_square_goal(exercise, board: chess.Board, move: chess.Move) -> bool:
    """reach, protect and safe_capture, from python-chess's attacks alone."""
    after = board.copy()
    after.push(move)
    if exercise.goal == "reach":
        letter = exercise.target[:-2] or "P"
        return chess.square_name(move.to_square) == exercise.target[-2:] and (
            known(board.piece_at(move.from_square)).symbol().upper() == letter
        )
    if exercise.goal == "protect":
        square = chess.parse_square(exercise.target)
        attackers = after.attackers(after.turn, square)
        return move.from_square != square and (not attackers or bool(after.attackers(board.turn, square)))
    return board.is_capture(move) and not after.attackers(after.turn, move.to_square)


def chess_expected(exercise, board: chess.Board, move: chess.Move, left: int) -> bool:
    goal = exercise.goal
    if goal in ("reach", "protect", "safe_capture"):
        return chess_square_goal(exercise, board, move)
    if goal == "check":
        after = board.copy()
        after.push(move)
        return after.is_check() or (
            left > 1
            and all(_after_reply(after, r, lambda b: chess_forced_check(b, left - 1)) for r in after.legal_moves)
        )
    king = board.king(board.turn)
    if goal == "crown":
        return move.promotion == chess.QUEEN
    if goal in ("castle", "stalemate"):
        return (
            oracles.castles_soon(board, move, left) if goal == "castle" else oracles.leaves_only_stalemate(board, move)
        )
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
            if exercise.goal == "gain_best" and captured:  # less the capturing piece if it can be taken back
                lost = (
                    PIECE_VALUE[known(board.piece_type_at(move.from_square))]
                    if after.attackers(after.turn, move.to_square)
                    else 0
                )
                values[entry["san"]] -= lost
            if exercise.goal not in ("capture_best", "gain_best"):
                assert entry["correct"] == chess_expected(exercise, board, move, left), entry["san"]
            if "next" in entry:  # the computer's reply is legal, and the player's next position follows it
                reply = chess.Move.from_uci(entry["reply"]["uci"])
                assert reply in after.legal_moves and entry["correct"]
                after.push(reply)
                assert entry["reply"]["after"] == after.fen()
                position[id(entry["next"]["moves"])] = after
        if exercise.goal in ("capture_best", "gain_best"):
            best = max(values.values())
            assert {m["san"] for m in moves if m["correct"]} == {san for san, v in values.items() if v == best > 0}
    if exercise.key == "take-the-queen":
        assert solved["answers"] == ["Nxc5"]  # the knight takes the queen; the rook or the pawn are worth less


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
    assert answers["landing-square"] == ["h8xd4xg1"]  # over g7; d4 is the first square that goes on, over f2
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


def test_a_wrong_move_that_meets_another_rule_is_told_why_in_every_language():
    # The page shows the reason for a move's ``why`` code instead of the plain "try another move".
    for game, items in exercises.EXERCISES.items():
        codes = {
            m["why"] for e in items for moves, _ in nodes(exercises.solve(e), e.moves) for m in moves if "why" in m
        }
        for lang in build_site.LANGS:
            reasons = build_site.content(lang, game)["jifunze"].get("reasons", {})
            assert codes - set(reasons) == set(), (lang, game)
    by_key = {e.key: exercises.solve(e) for e in exercises.EXERCISES["chess"]}
    whys = {m["san"]: m.get("why") for m in by_key["check-block"]["moves"]}
    assert whys["Ke2"] == "by_king"  # it escapes check too, but the exercise asks for a block
    whys = {m["san"]: m.get("why") for m in by_key["stalemate-rescue"]["moves"]}
    assert whys["Qf7"] == "stalemate" and whys["Qf6+"] == "check_not_mate"


def test_the_hint_comes_first_and_the_answer_is_one_more_step():
    for game, items in exercises.EXERCISES.items():
        for lang in build_site.LANGS:
            words = build_site.content(lang, game)["jifunze"]["exercises"]
            for exercise in items:
                hint = words[exercise.key]["hint"]
                answers = exercises.solve(exercise)["answers"]
                assert [a for a in answers if a.rstrip("+#") in hint] == [], (lang, game, exercise.key)


def test_the_page_nests_the_answer_inside_the_hint(built):
    html = built.pages["/en/jifunze/chess/"].html
    hint = html.index('<details class="hint">')
    answer = html.index('<details class="answer">', hint)
    assert html.index("</details>", hint) > answer  # the answer's <details> opens inside the hint's
    reasons = built.pages["/sw/jifunze/chess/"].scripts["jifunze-reasons"]
    assert "stalemate" in reasons and "sare" in reasons


def _placement(game: str, fen: str):
    if game == "chess":
        return fen.split()[0]
    return frozenset(item for side in fen.split(":")[1:] for item in (side[0] + p for p in side[1:].split(",") if p))


def test_no_lesson_diagram_shows_an_exercise_and_its_answer():
    # A lesson's picture of an exercise's own position with the answer drawn on it gives the exercise away.
    import diagrams

    drawings = list(diagrams.render_all().values())
    for game, items in exercises.EXERCISES.items():
        for exercise in items:
            solved = exercises.solve(exercise)
            position = _placement(game, solved["fen"])
            afters = {_placement(game, m["after"]) for m in solved["moves"] if m["correct"]}
            for drawing in drawings:
                if drawing.game != game:
                    continue
                same = _placement(game, drawing.fen) == position
                told = any(answer in str(drawing.facts) for answer in solved["answers"])
                assert not (same and told), (exercise.key, drawing.key)
                assert _placement(game, drawing.facts.get("after", drawing.fen)) not in afters or not same
