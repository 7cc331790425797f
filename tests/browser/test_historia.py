"""Historia ya Michezo on a 360x740 phone, in Swahili and Tagalog: a player with games won, lost and going on
opens the history, filters it by losses, and opens the lost game on the play page to step through it."""

from __future__ import annotations

import json

import pytest

from tests.browser.harness import build_site_module, http

PHONE = {"width": 360, "height": 740}
RESULTS_NOTE = (
    "All-time wins, draws and losses: every finished public game against another player, rated or casual. "
    "Games against the computer, private games and aborted games do not count."
)


def a_game(origin: str, asha: dict, baraka: dict, moves: list[str], loser: dict | None) -> str:
    created = http(origin, "POST", "/v1/games", {"game": "chess", "color": "white"}, asha["token"])
    game_id = created["game"]["id"]
    http(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, baraka["token"])
    for ply, move in enumerate(moves):
        http(origin, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, (asha, baraka)[ply % 2]["token"])
    if loser is not None:
        http(origin, "POST", f"/v1/games/{game_id}/resign", None, loser["token"])
    return game_id


def said_of_him(lang: str, text: str) -> None:
    """Baraka's won and lost game, on his page, said of him (sw "Ameshinda"), not as the reader's own result
    (sw "Umeshinda": "you have won", which told Asha that his win was hers)."""
    t = build_site_module().translations(lang)
    for result in ("Won", "Lost"):
        theirs, own = t.pgettext("another player's result", result), t.gettext(result)
        assert theirs in text and theirs != result
        assert theirs == own or own not in text


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_open_the_history_filter_by_losses_and_step_through_the_game(contexts, needs_dynamodb, server, lang):
    origin = server.origin
    asha = http(origin, "POST", "/v1/players", {"name": "Asha"})
    baraka = http(origin, "POST", "/v1/players", {"name": "Baraka"})
    won = a_game(origin, asha, baraka, ["e4", "e5"], baraka)
    lost = a_game(origin, asha, baraka, ["d4", "d5", "c4"], asha)
    going_on = a_game(origin, asha, baraka, [], None)
    page = contexts.new_page(viewport=PHONE)
    kept = {"player_id": asha["player_id"], "token": asha["token"]}
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))})")

    page.goto(f"/{lang}/")
    page.locator("header details.menu summary").click()  # the menu leads there
    page.locator("header details.menu a[href$='/historia/']").click()
    rows = page.locator("#history li a")
    rows.nth(2).wait_for()
    assert [rows.nth(i).get_attribute("data-game") for i in range(3)] == [going_on, lost, won]
    assert "Baraka" in rows.first.inner_text()
    first = rows.first.bounding_box()
    assert first is not None and first["width"] <= 360 and first["height"] >= 44  # a tappable row on a phone

    page.select_option("#filter-result", "loss")
    page.locator(".history-filters button[type=submit]").click()
    page.wait_for_url("**result=loss**")
    rows.first.wait_for()
    assert rows.count() == 1 and rows.first.get_attribute("data-game") == lost
    assert page.locator("#filter-result").input_value() == "loss"  # the filter stays chosen

    rows.first.click()
    page.locator("#game").wait_for(state="visible")
    assert lost in page.url
    steps = page.locator("#game ol.moves li")  # the lost game's moves, to step through
    steps.first.wait_for()
    assert "d4" in page.locator("#game ol.moves").inner_text()
    assert not contexts.problems, contexts.problems

    # Baraka's profile, as a name on the rating list links to it: his results and his latest games.
    page.goto(f"/{lang}/mchezaji/?id={baraka['player_id']}")
    expect_name = page.locator("#profile .profile-name")
    page.wait_for_function("document.querySelector('#profile .profile-name').textContent === 'Baraka'")
    assert expect_name.inner_text() == "Baraka"
    chess = page.locator("#profile .profile-games li[data-game='chess']")
    # His all-time results (the tallies kept at each game's end: docs/games.md "Wins, draws and losses"), in
    # the page's words, and what counts said under them; the going-on game counts nothing yet.
    t = build_site_module().translations(lang)
    counts = t.gettext("{win} won, {draw} drawn, {loss} lost").format(win=1, draw=0, loss=1)
    assert chess.is_visible() and chess.locator(".results").inner_text() == counts != "1 won, 0 drawn, 1 lost"
    note = page.locator("#profile .results-note")
    assert note.is_visible() and note.inner_text() == t.gettext(RESULTS_NOTE) != RESULTS_NOTE
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    between = page.locator("#profile .head-to-head")  # Asha, on this phone, against him: one won, one lost
    between.wait_for()
    assert all(str(n) in between.inner_text() for n in (1, 0))
    recent = page.locator("#profile .profile-recent li a")
    assert recent.count() == 3 and recent.first.get_attribute("data-game") == going_on
    said_of_him(lang, page.locator("#profile .profile-recent").inner_text())
    all_games = page.locator("#profile .all-games")
    assert all_games.get_attribute("href").endswith(f"?player={baraka['player_id']}")
    all_games.click()
    rows.nth(2).wait_for()
    assert rows.count() == 3  # his public games, read without a token
    said_of_him(lang, page.locator("#history").inner_text())
    assert not contexts.problems, contexts.problems
