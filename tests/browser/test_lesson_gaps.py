"""The lessons' last gaps (native review 2026-12-04, section 3), solved by clicking in Swahili and Tagalog:
setting up the queen, clearing the way to castle (the computer answers in between), saving a lost game by
stalemate, en passant only at once, a second check in two, and a Tanzanian crowning that ends the capture.
Each page also names the answer by the number of answers and the pieces by their game."""

from __future__ import annotations

import pytest

from tests.browser.boards import BoardView, expected_pieces, page_config
from tests.browser.test_jifunze import expect_status, solve_by_clicking

NEW = {
    "chess": ["board-setup", "clear-the-way", "stalemate-save", "en-passant-or-not", "check-in-two-again"],
    "tanzanian": ["crowning-stops"],
}
CASES = [(lang, game) for lang in ("sw", "tl") for game in NEW]
#: The answer line's first words for one answer and for several (msgids chosen by the count, not a plural rule).
ONE = {"sw": "Jibu:", "tl": "Sagot:"}
SEVERAL = {"sw": "Jibu lolote kati ya haya:", "tl": "Alinman sa mga sagot na ito:"}


@pytest.mark.parametrize(("lang", "game"), CASES, ids=[f"{lang}-{game}" for lang, game in CASES])
def test_the_new_exercises_are_solved_by_clicking(contexts, lang, game):
    page = contexts.new_page()
    page.goto(f"/{lang}/jifunze/{game}/")
    config = page_config(page)
    messages = config["messages"]
    keys = [exercise["key"] for exercise in config["exercises"]]
    for key in NEW[game]:
        index = keys.index(key)
        exercise = config["exercises"][index]
        article = solve_by_clicking(page, game, messages, config["exercises"], index)
        label = article.locator("details.answer p").text_content().strip()
        expected = ONE[lang] if len(exercise["answers"]) == 1 else SEVERAL[lang]
        assert label.startswith(expected), (key, label)
    assert contexts.problems == []


def test_the_castling_exercise_says_why_a_king_move_is_wrong(contexts):
    page = contexts.new_page()
    page.goto("/sw/jifunze/chess/")
    config = page_config(page)
    index = next(i for i, ex in enumerate(config["exercises"]) if ex["key"] == "clear-the-way")
    exercise = config["exercises"][index]
    article = page.locator(f'.exercise[data-index="{index}"]')
    article.scroll_into_view_if_needed()
    board = BoardView(article.locator(".board-host"))
    board.wait_for_pieces(expected_pieces("chess", exercise["fen"]))
    king_move = next(m for m in exercise["moves"] if m.get("why") == "castling_lost")
    board.play("chess", exercise["fen"], king_move["san"])
    reasons = page.locator("#jifunze-reasons").text_content()
    assert "castling" in reasons
    expect_status(article.locator(".status"), "castling haiwezekani tena", "bad")
    assert "Gusa kipande" in page.locator("#exercises > p").first.text_content()
    assert contexts.problems == []
