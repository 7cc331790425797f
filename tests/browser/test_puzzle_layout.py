"""Fumbo as a phone shows it (360x740): one game's puzzle at a time with its board near the top of the screen
and the side to play on the line above it; the other games' puzzles a tap on their tab away."""

from __future__ import annotations

import pytest

from tests.browser.boards import page_config

TOP_LIMIT = 200  # px from the viewport's top to the board's top edge
PHONE = {"width": 360, "height": 740}


def in_view(page, game: str) -> bool:
    """The game's puzzle section is the one showing: inside the row's visible width."""
    return page.evaluate(
        """(game) => {
          const row = document.querySelector(".puzzles").getBoundingClientRect();
          const box = document.querySelector(`#puzzle-${game}`).getBoundingClientRect();
          return Math.abs(box.left - row.left) < 2 && box.right <= row.right + 2;
        }""",
        game,
    )


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_one_puzzle_at_a_time_with_its_board_first(contexts, needs_dynamodb, lang):
    page = contexts.new(viewport=PHONE).new_page()
    page.goto(f"/{lang}/fumbo/")
    titles = page_config(page)["messages"]["game_titles"]
    page.locator("#puzzle-chess .board-host button[data-square]").first.wait_for()
    board = page.locator("#puzzle-chess .board-host").bounding_box()
    goal = page.locator("#puzzle-chess .goal").bounding_box()
    assert board is not None and goal is not None
    assert 0 <= board["y"] <= TOP_LIMIT, f"the board starts {board['y']} px down"
    assert goal["y"] < board["y"] and page.locator("#puzzle-chess .goal").inner_text().strip()  # whose move
    assert in_view(page, "chess") and not in_view(page, "english") and not in_view(page, "tanzanian")
    assert page.locator(".puzzle-tabs a[aria-current]").inner_text() == titles["chess"]

    # One tap on a tab shows that game's puzzle in place of the first, at the same height.
    for game in ("tanzanian", "english"):
        page.locator(f'.puzzle-tabs a[data-game="{game}"]').click()
        page.wait_for_function(
            "(game) => document.querySelector(`.puzzle-tabs a[data-game=${game}]`).hasAttribute('aria-current')",
            arg=game,
        )
        page.wait_for_function(
            """(game) => {
              const row = document.querySelector(".puzzles").getBoundingClientRect();
              return Math.abs(document.querySelector(`#puzzle-${game}`).getBoundingClientRect().left - row.left) < 2;
            }""",
            arg=game,
        )
        assert in_view(page, game) and not in_view(page, "chess")
        top = page.locator(f"#puzzle-{game} .board-host").bounding_box()
        assert top is not None and 0 <= top["y"] <= TOP_LIMIT
        assert page.evaluate("scrollY") == 0  # the page itself did not move
    # A reload keeps the game chosen (the address's hash).
    page.reload()
    page.locator("#puzzle-english .board-host button[data-square]").first.wait_for()
    page.wait_for_function("() => document.querySelector('.puzzles').scrollLeft > 0")
    assert in_view(page, "english")
