"""A Jifunze exercise solved by clicking squares: the board shows the position the rules layer gives, and
the page says so; a wrong move is refused as wrong, and "Start again" sets the exercise up again."""

from __future__ import annotations

import json

import pytest

from tests.browser.boards import BoardView, after, expected_pieces, move_squares, page_config

CASES = [
    ("sw", "chess", "promote"),  # a promotion: the piece is chosen in the board's own dialog
    ("tl", "english", "most-pieces"),  # a double jump, clicked square by square
    ("en", "tanzanian", "king-capture"),  # a flying king's triple capture with its landing squares
]


@pytest.mark.parametrize(("lang", "game", "key"), CASES, ids=[f"{g}-{k}" for _, g, k in CASES])
def test_an_exercise_is_solved_by_clicking(contexts, lang, game, key):
    page = contexts.new_page()
    page.goto(f"/{lang}/jifunze/{game}/")
    config = page_config(page)
    messages = config["messages"]
    index = next(i for i, ex in enumerate(config["exercises"]) if ex["key"] == key)
    exercise = config["exercises"][index]
    article = page.locator(f'.exercise[data-index="{index}"]')
    article.scroll_into_view_if_needed()
    board = BoardView(article.locator(".board-host"))
    status = article.locator(".status")
    board.wait_for_pieces(expected_pieces(game, exercise["fen"]))  # made playable once near the view

    # A wrong move first: the page says it is not the answer and shows the move played.
    wrong = next(m for m in exercise["moves"] if not m["correct"])
    board.play(game, exercise["fen"], wrong["san"])
    expect_status(status, told(page, wrong, messages["wrong"]), "bad")
    board.wait_for_pieces(expected_pieces(game, after(game, exercise["fen"], wrong["san"])))
    article.locator(".reset").click()
    board.wait_for_pieces(expected_pieces(game, exercise["fen"]))

    answer = exercise["answers"][0]
    squares = move_squares(game, exercise["fen"], answer)
    board.play(game, exercise["fen"], answer)  # a promotion: then the piece, in the board's own dialog
    expect_status(status, messages["correct"], "ok")
    board.wait_for_pieces(expected_pieces(game, after(game, exercise["fen"], answer)))
    assert board.square(squares[0]).get_attribute("class").split().count("last") == 1
    assert contexts.problems == []


def told(page, move: dict, plain: str) -> str:
    """What the page says after a wrong move: the reason for its ``why`` code, or the plain message."""
    reasons = json.loads(page.locator("#jifunze-reasons").text_content())
    return reasons.get(move.get("why"), plain)


def expect_status(status, text: str, kind: str) -> None:
    status.page.wait_for_function(
        "([node, text, kind]) => node.textContent.includes(text) && node.classList.contains(kind)",
        arg=[status.element_handle(), text, kind],
    )


@pytest.mark.parametrize("game", ["chess", "english", "tanzanian"])
def test_every_exercise_is_solved_in_the_browser(contexts, game):
    # Every exercise of the game, on the Swahili page, solved by clicking: after each right move of a longer
    # exercise the computer's reply appears on the board and the page says so, until the goal is reached.
    page = contexts.new_page()
    page.goto(f"/sw/jifunze/{game}/")
    config = page_config(page)
    messages = config["messages"]
    assert len(config["exercises"]) >= {"chess": 36, "english": 24, "tanzanian": 28}[game]
    for index in range(len(config["exercises"])):
        solve_by_clicking(page, game, messages, config["exercises"], index)
    assert contexts.problems == []


def solve_by_clicking(page, game: str, messages: dict, exercises: list[dict], index: int):
    """Solve exercise ``index`` of the page by clicking its right moves; after each right move of a longer
    exercise the computer's reply appears and the page says so, until the goal. Its article on the page."""
    exercise = exercises[index]
    article = page.locator(f'.exercise[data-index="{index}"]')
    article.scroll_into_view_if_needed()
    board = BoardView(article.locator(".board-host"))
    status = article.locator(".status")
    fen, moves = exercise["fen"], exercise["moves"]
    board.wait_for_pieces(expected_pieces(game, fen))
    for _ in range(exercise["length"]):
        move = next(m for m in moves if m["correct"])
        board.play(game, fen, move["san"])
        if move["done"]:
            expect_status(status, messages["correct"], "ok")
            board.wait_for_pieces(expected_pieces(game, move["after"]))
            return article
        reply = move["reply"]
        expect_status(status, messages["exercise_reply"].replace("%(move)s", reply["san"]), "ok")
        board.wait_for_pieces(expected_pieces(game, reply["after"]))
        fen, moves = reply["after"], move["next"]["moves"]
    raise AssertionError(f"{exercise['key']}: not solved within {exercise['length']} moves")


def test_a_wrong_second_move_is_wrong_and_start_again_resets_the_tree(contexts):
    # King and queen against the computer: a right first move, the computer's reply, then a move that does not
    # mate is refused as wrong; "Start again" brings back the first position and its choices.
    page = contexts.new_page()
    page.goto("/tl/jifunze/chess/")
    config = page_config(page)
    messages = config["messages"]
    index = next(i for i, ex in enumerate(config["exercises"]) if ex["key"] == "queen-king-mate")
    exercise = config["exercises"][index]
    article = page.locator(f'.exercise[data-index="{index}"]')
    article.scroll_into_view_if_needed()
    board = BoardView(article.locator(".board-host"))
    status = article.locator(".status")
    first = next(m for m in exercise["moves"] if m["correct"])
    board.play("chess", exercise["fen"], first["san"])
    board.wait_for_pieces(expected_pieces("chess", first["reply"]["after"]))
    wrong = next(m for m in first["next"]["moves"] if not m["correct"])
    board.play("chess", first["reply"]["after"], wrong["san"])
    expect_status(status, told(page, wrong, messages["wrong"]), "bad")
    article.locator(".reset").click()
    board.wait_for_pieces(expected_pieces("chess", exercise["fen"]))
    assert contexts.problems == []


def test_a_wrong_move_that_meets_another_rule_is_told_why(contexts):
    # A king move in a "block the check" exercise escapes check too: the page says so, in the page's language.
    page = contexts.new_page()
    page.goto("/tl/jifunze/chess/")
    config = page_config(page)
    reasons = json.loads(page.locator("#jifunze-reasons").text_content())
    index = next(i for i, ex in enumerate(config["exercises"]) if ex["key"] == "check-block")
    exercise = config["exercises"][index]
    article = page.locator(f'.exercise[data-index="{index}"]')
    article.scroll_into_view_if_needed()
    board = BoardView(article.locator(".board-host"))
    king_move = next(m for m in exercise["moves"] if m.get("why") == "by_king")
    board.play("chess", exercise["fen"], king_move["san"])
    expect_status(article.locator(".status"), reasons["by_king"], "bad")
    assert contexts.problems == []


def test_the_hint_opens_before_the_answer(contexts):
    page = contexts.new_page()
    page.goto("/sw/jifunze/english/")
    article = page.locator(".exercise").first
    article.scroll_into_view_if_needed()
    hint, answer = article.locator("details.hint"), article.locator("details.answer")
    assert not answer.is_visible() and not article.locator("details.answer p").is_visible()
    hint.locator("summary").first.click()
    assert hint.locator("p").first.is_visible() and not article.locator("details.answer p").is_visible()
    answer.locator("summary").click()
    assert article.locator("details.answer p").is_visible()
    assert contexts.problems == []
