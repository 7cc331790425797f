"""Two phones on different games find each other through "Play anyone" (360x740, one in Swahili, one in
Tagalog): Asha seeks a rated Tanzanian game; Baraka, on chess and casual (the form's defaults), sees her
challenge listed with its game and kind, and his "Play anyone" says which game and kind it is before taking it;
both reach the same game."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.harness import http
from tests.browser.test_mchezo import POLL_MS, Player

PHONE = {"width": 360, "height": 740}
SLOW = 30_000  # the first requests of a session wait for the local runner to import the games function


def test_two_phones_on_different_games_find_each_other(contexts, needs_dynamodb, server):
    asha, baraka = Player(contexts, "sw", viewport=PHONE), Player(contexts, "tl", viewport=PHONE)
    asha.open("/sw/mchezo/")
    asha.page.locator("#name-input").fill("Asha")
    asha.page.select_option("#game-choice", "tanzanian")
    asha.page.locator('#create-form input[name="rated"]').check()
    asha.page.locator("#play-anyone").click()
    expect(asha.page.locator("#lobby .lobby-status")).to_have_text(asha.messages["lobby_waiting"], timeout=SLOW)

    baraka.open("/tl/mchezo/")
    assert baraka.page.locator("#game-choice").input_value() == "chess"
    assert not baraka.page.locator('#create-form input[name="rated"]').is_checked()
    listed = baraka.page.locator('#lobby .seek-list li[data-game="tanzanian"]')
    expect(listed).to_have_count(1, timeout=SLOW)
    title = baraka.messages["game_titles"]["tanzanian"]
    expect(listed.locator("strong")).to_have_text(title)
    expect(listed).to_contain_text("Asha (1500?)")
    expect(listed).to_contain_text(baraka.messages["lobby_rated_tag"])
    expect(baraka.page.locator("#lobby .lobby-empty")).to_be_visible()  # none for chess, the game chosen
    assert baraka.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    asked: list[str] = []
    baraka.page.on("dialog", lambda dialog: asked.append(dialog.message))  # Player accepts every dialog
    baraka.page.locator("#name-input").fill("Baraka")
    baraka.page.locator("#play-anyone").click()
    baraka.page.locator("#game").wait_for(state="visible")
    assert len(asked) == 1 and title in asked[0] and baraka.messages["lobby_rated_tag"] in asked[0], asked
    game_id = baraka.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    # The form is hidden with the game open: the lobby's words no longer point at "the options above".
    expect(baraka.page.locator("#lobby .lobby-intro")).to_be_hidden()
    expect(baraka.page.locator("#lobby .lobby-intro-open")).to_be_visible()

    asha.page.clock.fast_forward(POLL_MS + 100)  # her next poll of the challenge finds the game
    asha.page.wait_for_function("id => location.hash.includes(id)", arg=game_id)
    game = http(server.origin, "GET", f"/v1/games/{game_id}")
    assert game["game"] == "tanzanian" and game["rated"] is True and game["state"] == "active"
    assert {seat["name"] for seat in game["players"].values()} == {"Asha", "Baraka"}
    assert contexts.problems == []
