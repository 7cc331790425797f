"""Jifunze exercises: what the page embeds is the rules layer's answer, and an independent oracle agrees."""

from __future__ import annotations

import chess
import exercises
import pytest

from tests.site import oracles

ALL = [(game, exercise) for game, items in exercises.EXERCISES.items() for exercise in items]


@pytest.mark.parametrize("game,exercise", ALL, ids=[f"{g}-{e.key}" for g, e in ALL])
def test_each_page_embeds_the_solved_exercise(built, game, exercise):
    solved = exercises.solve(exercise)
    for lang in ("sw", "tl", "en"):
        embedded = built.pages[f"/{lang}/jifunze/{game}/"].config["exercises"]
        assert solved in embedded


@pytest.mark.parametrize("game,exercise", [x for x in ALL if x[0] == "chess"], ids=lambda x: getattr(x, "key", x))
def test_chess_exercises_agree_with_python_chess(game, exercise):
    solved = exercises.solve(exercise)
    board = chess.Board(exercise.fen)
    assert {m["uci"] for m in solved["moves"]} == {m.uci() for m in board.legal_moves}
    for move in solved["moves"]:
        after = board.copy()
        after.push_uci(move["uci"])
        assert move["after"] == after.fen()
        if exercise.goal == "mate":
            assert move["correct"] == after.is_checkmate(), move["san"]
        elif exercise.goal == "crown":
            assert move["correct"] == (chess.Move.from_uci(move["uci"]).promotion == chess.QUEEN)
    if exercise.goal == "capture_best":
        assert solved["answers"] == ["Nxd5"]  # the knight takes the queen; the rook or the pawn are worth less


@pytest.mark.parametrize("game,exercise", [x for x in ALL if x[0] != "chess"], ids=lambda x: getattr(x, "key", x))
def test_draughts_exercises_agree_with_the_reference_generator(game, exercise):
    solved = exercises.solve(exercise)
    assert {oracles.as_reference(game, m) for m in solved["moves"]} == oracles.draughts_moves(game, exercise.fen)
    most = max(len(m["captured"]) for m in solved["moves"])
    for move in solved["moves"]:
        if exercise.goal == "capture_most":
            assert move["correct"] == (len(move["captured"]) == most > 0)
        else:  # crown: the man ends on its far row
            rank = oracles.square(game, move["to"])[1]
            board, turn = oracles.board_from_fen(game, exercise.fen)
            man = not board[oracles.square(game, move["from"])].king
            assert move["correct"] == (man and rank == (7 if turn == "white" else 0))


def test_tanzanian_answers_by_hand():
    # Worked out by hand on a board, independently of both generators.
    answers = {e.key: exercises.solve(e)["answers"] for e in exercises.EXERCISES["tanzanian"]}
    assert answers == {
        "most-pieces": ["e3xc5xa7"],  # e3 jumps d4 to c5, then b6 to a7; c3xe5 takes only d4
        "king-capture": ["c3xf6xd8xa5"],  # over e5 (landing on f6, the first square that goes on), e7, b6
        "crown-a-king": ["c7-d8"],
    }


def test_an_exercise_without_a_wrong_move_is_refused():
    only_captures = exercises.Exercise("x", "tanzanian", "W:WKc3:Bd4", "capture_most")
    with pytest.raises(AssertionError, match="right and wrong moves"):
        exercises.solve(only_captures)
    no_crown = exercises.Exercise("x", "english", "B:W30:B1", "crown")
    with pytest.raises(AssertionError, match="0 of"):
        exercises.solve(no_crown)


def test_every_exercise_has_words_in_every_language(built):
    for game, items in exercises.EXERCISES.items():
        for lang in ("sw", "tl", "en"):
            page = built.pages[f"/{lang}/jifunze/{game}/"]
            for exercise in items:
                assert f"x-{exercise.key}" in page.ids
