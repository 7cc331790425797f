"""A rematch as a phone shows it (360x740): the offer reaches the opponent's open page within a poll, and a
reload of it, with Accept; accepting opens the new game on both pages, its board first: on the offerer's at
its next poll, by itself; her inbox marks it as the rematch, and the old game says the rematch began."""

from __future__ import annotations

import pytest

from tests.browser.test_game_page import assert_board_first
from tests.browser.test_move_steps import chess_on_two_phones

REMATCH_POLL_MS = 2_500  # game.js polls this often while a rematch offer or its answer can arrive


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_rematch_offer_shows_on_the_opponents_page_with_accept(contexts, needs_dynamodb, lang):
    asha, baraka = chess_on_two_phones(contexts, lang)
    asha.click_action("resign")  # the page asks first; the dialog is accepted
    asha.wait_status(asha.messages["reason_resignation"])
    baraka.page.clock.fast_forward(5_100)
    baraka.wait_status(baraka.messages["reason_resignation"])
    assert not baraka.action_visible("accept-rematch")

    asha.click_action("rematch")
    asha.wait_status(asha.messages["rematch_offered_by_you"])
    assert not asha.action_visible("accept-rematch") and asha.action_visible("withdraw-rematch")
    # His open page hears of it at its next poll, and a reload of it (a notification's link) shows it too.
    baraka.page.clock.fast_forward(REMATCH_POLL_MS + 100)
    baraka.wait_status(baraka.messages["rematch_offered_to_you"])
    assert baraka.action_visible("accept-rematch") and baraka.action_visible("decline-rematch")
    baraka.page.reload()
    baraka.wait_status(baraka.messages["rematch_offered_to_you"])
    accept = baraka.page.locator('#game [data-action="accept-rematch"]')
    assert accept.is_visible() and accept.inner_text().strip() not in ("", "Accept the rematch")

    # Accepted: one new game, the colours swapped (he is White now, so his move), its board at the top.
    accept.click()
    baraka.wait_status(baraka.messages["your_turn"])
    assert_board_first(baraka)
    old_url, new_id = asha.page.url, baraka.page.url.split("#game=")[1]
    asha.page.clock.fast_forward(REMATCH_POLL_MS + 100)  # her next poll sees it agreed: the new game opens itself
    asha.wait_status(asha.messages["waiting_move"])
    assert asha.page.url.split("#game=")[1] == new_id
    assert_board_first(asha)
    # Her inbox marks the new game as the rematch.
    entry = asha.page.locator(f'#inbox a[data-game="{new_id}"]')
    entry.wait_for(state="attached")
    assert asha.messages["rematch_tag"] in entry.text_content()

    # The old game opened again (a reload, a notification): it says the rematch began, one tap away.
    asha.open(old_url.split("#")[0] + "#game=" + old_url.split("#game=")[1])
    asha.page.reload()
    asha.wait_status(asha.messages["rematch_started"])
    assert not asha.action_visible("rematch")
    asha.click_action("open-rematch")
    asha.wait_status(asha.messages["waiting_move"])
    assert asha.page.url.split("#game=")[1] == new_id
    assert contexts.problems == []
