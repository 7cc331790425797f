"""The player's choices kept on a 360x740 phone, in Swahili and Tagalog: the game chosen last, "swap who starts",
each game's own table options and "show legal squares" survive a reload and a new game, and the new game is
made with them."""

from __future__ import annotations

import pytest

from tests.browser.boards import page_config
from tests.browser.harness import http

PHONE = {"width": 360, "height": 740}


def form_state(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("#create-form input[name], #create-form select[name]")]
             .map((f) => [(f.closest("fieldset")?.dataset.game || "") + "." + f.name,
                          f.type === "checkbox" ? f.checked : f.value]))"""
    )


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_choices_survive_a_reload_and_a_new_game(contexts, server, needs_dynamodb, lang):
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/mchezo/")
    before = form_state(page)
    assert before[".game"] == "chess" and before[".swap_colors"] is True
    assert before["tanzanian.thirty_moves"] is False and before["english.move_limit"] == ""

    # English draughts against the computer, with no swap, 7 days, a move limit; Tanzanian's option set too.
    page.select_option("#game-choice", "tanzanian")
    page.locator('fieldset[data-game="tanzanian"] input[name="thirty_moves"]').check()
    page.select_option("#game-choice", "english")
    page.locator('fieldset[data-game="english"] input[name="move_limit"]').fill("80")
    page.locator('fieldset[data-game="english"] input[name="move_limit"]').dispatch_event("change")
    page.locator('#create-form input[name="swap_colors"]').uncheck()
    page.select_option("#days-choice", "7")
    page.select_option("#opponent-choice", "1")
    chosen = form_state(page)

    page.reload()
    assert form_state(page) == chosen
    assert page.locator('fieldset[data-game="english"]').is_visible()  # the game kept shows its own options
    assert not page.locator('fieldset[data-game="tanzanian"]').is_visible()

    page.locator("#create-form button[type=submit]").click()
    page.locator("#game .board-host button[data-square]").first.wait_for()
    game_id = page.url.split("game=")[1]
    made = http(server.origin, "GET", f"/v1/games/{game_id}")
    assert made["game"] == "english"
    assert made["options"]["move_limit"] == 80 and made["options"]["swap_colors"] is False
    assert made["options"]["days_per_move"] == 7

    # "Show legal squares" off in this game: the next game's board marks none either.
    page.locator("#show-legal").uncheck()
    page.goto(f"/{lang}/mchezo/")
    assert form_state(page) == chosen
    page.locator("#create-form button[type=submit]").click()
    page.locator("#game .board-host button[data-square]").first.wait_for()
    assert page.url.split("game=")[1] != game_id
    assert not page.locator("#show-legal").is_checked()
    messages = page_config(page)["messages"]
    assert messages["your_turn"]
    page.wait_for_function(
        "() => document.querySelector('#game .move-form') && !document.querySelector('#game .move-form').hidden"
    )
    mine = page.locator("#game .board-host button.mine").first  # one of the player's pieces: a tap marks nothing
    mine.click()
    assert page.locator("#game .board-host button.dest").count() == 0
    assert contexts.problems == []
