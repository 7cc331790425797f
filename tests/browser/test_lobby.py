"""Two phones find each other through the lobby (one in Swahili, one in Tagalog, 360x740): one makes a
challenge with "Play anyone" and waits, the other's "Play anyone" accepts it, and both reach the same rated
Tanzanian game, which they play to its end."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.boards import page_config
from tests.browser.harness import http, page_token
from tests.browser.test_mchezo import POLL_MS, Player

PHONE = {"width": 360, "height": 740}
#: The first requests of a session wait for the local runner to import the games function.
SLOW = 30_000


def play_anyone(player: Player, name: str) -> None:
    player.open(f"/{player.lang}/mchezo/")
    player.page.locator("#name-input").fill(name)
    player.page.select_option("#game-choice", "tanzanian")
    player.page.locator('#create-form input[name="rated"]').check()
    player.page.locator("#play-anyone").click()


def test_two_phones_meet_in_the_lobby_and_play_a_rated_tanzanian_game(contexts, needs_dynamodb, server):
    asha, baraka = Player(contexts, "sw", viewport=PHONE), Player(contexts, "tl", viewport=PHONE)
    play_anyone(asha, "Asha")  # nobody is seeking: her challenge is made, and she waits
    note = asha.page.locator("#lobby .lobby-status")
    expect(note).to_have_text(asha.messages["lobby_waiting"], timeout=SLOW)
    expect(asha.page.locator("#lobby .seek-list li")).to_have_count(1)
    expect(asha.page.locator("#lobby .seek-list li button")).to_have_text(asha.messages["lobby_withdraw"])

    baraka.open("/tl/mchezo/")
    baraka.page.select_option("#game-choice", "tanzanian")
    listed = baraka.page.locator("#lobby .seek-list li")
    expect(listed).to_have_count(1, timeout=SLOW)
    expect(listed).to_contain_text("Asha (1500?)")
    expect(listed).to_contain_text(baraka.messages["lobby_rated_tag"])
    assert baraka.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    play_anyone(baraka, "Baraka")  # accepts Asha's challenge: the game opens on his phone
    baraka.page.locator("#game").wait_for(state="visible")
    game_id = baraka.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    assert game_id

    asha.page.clock.fast_forward(POLL_MS + 100)  # her next poll of the challenge finds the game
    asha.page.wait_for_function("id => location.hash.includes(id)", arg=game_id)
    asha.page.locator("#game").wait_for(state="visible")
    game = http(server.origin, "GET", f"/v1/games/{game_id}")
    assert game["rated"] is True and game["game"] == "tanzanian" and game["state"] == "active"
    assert {seat["name"] for seat in game["players"].values()} == {"Asha", "Baraka"}
    for player in (asha, baraka):
        expect(player.page.locator("#game .players")).to_contain_text("Asha")
        expect(player.page.locator("#game .players")).to_contain_text("Baraka")
    assert asha.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for player in (asha, baraka):  # the challenge, taken, has left both lists
        expect(player.page.locator("#lobby .seek-list li")).to_have_count(0)
        expect(player.page.locator("#lobby .lobby-empty")).to_be_visible()

    # Two moves a side first (from outside the pages): a rated game that ends sooner is aborted, never rated.
    seated = http(server.origin, "GET", f"/v1/games/{game_id}")
    phone_of = {colour: asha if seat["name"] == "Asha" else baraka for colour, seat in seated["players"].items()}
    for ply in range(4):
        state = http(server.origin, "GET", f"/v1/games/{game_id}")
        move = {"move": state["legal_moves"][0], "ply": ply}
        http(server.origin, "POST", f"/v1/games/{game_id}/moves", move, page_token(phone_of[state["turn"]].page))
    for player in (asha, baraka):
        player.page.clock.fast_forward(POLL_MS + 100)
        expect(player.page.locator('#game [data-action="resign"]')).to_be_visible(timeout=SLOW)

    # The game ends: Asha resigns, and both phones show it, and the rating change, in their own language.
    asha.click_action("resign")
    asha.wait_status(asha.messages["reason_resignation"])
    baraka.page.clock.fast_forward(POLL_MS + 100)
    baraka.wait_status(baraka.messages["reason_resignation"])
    ended = http(server.origin, "GET", f"/v1/games/{game_id}")
    change = ended["rating_change"]
    asha_seat = next(colour for colour, seat in ended["players"].items() if seat["name"] == "Asha")
    baraka_seat = "black" if asha_seat == "white" else "white"
    assert change[asha_seat] < 0 < change[baraka_seat]
    for player in (asha, baraka):
        player.wait_status(player.messages["rating_change"].split("%(changes)s")[0])
        player.wait_status(f"+{change[baraka_seat]}")
        # "Your ratings" on the page: the new rating in Tanzanian draughts, provisional after one game.
        expect(player.page.locator("#ratings")).to_be_visible(timeout=SLOW)
    expect(asha.page.locator("#ratings li")).to_contain_text(f"{1500 + change[asha_seat]}?")
    expect(baraka.page.locator("#ratings li")).to_contain_text(f"{1500 + change[baraka_seat]}?")
    assert page_config(baraka.page)["lang"] == "tl" and page_config(asha.page)["lang"] == "sw"
    assert contexts.problems == []
