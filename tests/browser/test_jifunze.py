"""A Jifunze exercise solved by clicking squares: the board shows the position the rules layer gives, and
the page says so; a wrong move is refused as wrong, and "Start again" sets the exercise up again."""

from __future__ import annotations

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
    assert board.pieces() == expected_pieces(game, exercise["fen"])

    # A wrong move first: the page says it is not the answer and shows the move played.
    wrong = next(m for m in exercise["moves"] if not m["correct"])
    board.play(game, exercise["fen"], wrong["san"])
    expect_status(status, messages["wrong"], "bad")
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


def expect_status(status, text: str, kind: str) -> None:
    status.page.wait_for_function(
        "([node, text, kind]) => node.textContent.includes(text) && node.classList.contains(kind)",
        arg=[status.element_handle(), text, kind],
    )
