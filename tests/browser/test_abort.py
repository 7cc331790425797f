"""Fair play on a phone (360x740): a rated game offers Abort, not Resign, until each side has made two moves,
and the button fits the screen; aborting ends the game on both pages with no result (docs/games.md, "Fair
play")."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.harness import http, page_token
from tests.browser.test_mchezo import Player
from tests.browser.test_move_steps import PHONE

POLL_MS = 5_000


def rated_chess_on_two_phones(contexts, lang: str) -> tuple[Player, Player, str]:
    asha, baraka = Player(contexts, lang, "Asha", PHONE), Player(contexts, lang, "Baraka", PHONE)
    asha.open(f"/{lang}/mchezo/")
    asha.page.locator("#name-input").fill("Asha")
    asha.page.select_option("#game-choice", "chess")
    asha.page.select_option("#color-choice", "white")
    asha.page.locator('#create-form input[name="rated"]').check()
    asha.page.locator("#create-form button[type=submit]").click()
    asha.wait_status(asha.messages["waiting_opponent"])
    baraka.join(asha.page.locator("#invite-link").input_value())
    asha.page.clock.fast_forward(POLL_MS + 100)
    asha.wait_status(asha.messages["your_turn"])
    game_id = asha.page.url.split("#game=")[1]
    return asha, baraka, game_id


def fits_the_screen(player: Player, action: str) -> bool:
    box = player.page.locator(f'#game [data-action="{action}"]').bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_abort_until_the_second_move_then_resign(contexts, needs_dynamodb, server):
    asha, baraka, game_id = rated_chess_on_two_phones(contexts, "sw")
    for player in (asha, baraka):
        assert player.action_visible("abort") and not player.action_visible("resign")
        assert fits_the_screen(player, "abort")
    label = asha.page.locator('#game [data-action="abort"]').inner_text().strip()
    assert label not in ("", "Abort the game")  # in the page's language

    # Three plies in, Black has one move to go: still Abort. The fourth ply: Resign again.
    tokens = {"white": page_token(asha.page), "black": page_token(baraka.page)}
    for ply, (color, move) in enumerate((("white", "e4"), ("black", "e5"), ("white", "Nf3"))):
        http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=tokens[color])
    baraka.page.clock.fast_forward(POLL_MS + 100)
    baraka.wait_status(baraka.messages["your_turn"])
    assert baraka.action_visible("abort") and not baraka.action_visible("resign")
    http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "Nc6", "ply": 3}, token=tokens["black"])
    asha.page.clock.fast_forward(POLL_MS + 100)
    asha.wait_status(asha.messages["your_turn"])
    # Her page said "your turn" before the HTTP moves too: wait for the poll that brings the fourth ply.
    expect(asha.page.locator('#game [data-action="resign"]')).to_be_visible()
    assert not asha.action_visible("abort")
    assert contexts.problems == []


def test_aborting_ends_the_game_on_both_pages_with_no_result(contexts, needs_dynamodb):
    asha, baraka, _ = rated_chess_on_two_phones(contexts, "tl")
    baraka.click_action("abort")
    baraka.wait_status(baraka.messages["result_aborted"])
    asha.page.clock.fast_forward(POLL_MS + 100)
    asha.wait_status(asha.messages["result_aborted"])
    assert not asha.action_visible("abort") and not asha.action_visible("resign")
    assert contexts.problems == []
