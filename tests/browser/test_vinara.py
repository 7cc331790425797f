"""The leaderboard page on a phone (360x740) in Swahili and Tagalog, fed by the API: two players who played
20 rated games of Tanzanian draughts against each other (their deviation is then under 100) are listed, best
first, with the page's own headings; a game nobody qualifies in says so."""

from __future__ import annotations

import time
import urllib.error

import pytest

from tests.browser.harness import build_site_module, http, missing_dynamodb

PHONE = {"width": 360, "height": 740}
GAMES_TO_QUALIFY = 20  # two newcomers' deviation falls under 100 after 20 games against each other
OPENING = ["a3-b4", "h6-g5", "b2-a3", "g7-h6"]  # Tanzanian draughts: White starts
#: The widest name a player may take (24 columns, docs/games.md "Fair play"), in the widest Latin letter: the
#: list must still fit a 360 px phone.
LONGEST_NAME = "W" * 24


def call(server, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """``http``, sent again after a 503 as the API asks (a loaded machine's local store may be slow)."""
    for _ in range(5):
        try:
            return http(server.origin, method, path, body, token=token)
        except urllib.error.HTTPError as error:
            if error.code != 503:
                raise
            time.sleep(1)
    return http(server.origin, method, path, body, token=token)


@pytest.fixture(scope="module")
def rated_players(server):
    """Asha and Baraka, 20 rated Tanzanian games apart (Baraka resigns two in three): (Asha, Baraka)."""
    reason = missing_dynamodb()
    if reason:
        pytest.skip(reason)
    asha = call(server, "POST", "/v1/players", {"name": "Asha"})
    baraka = call(server, "POST", "/v1/players", {"name": LONGEST_NAME})
    for number in range(GAMES_TO_QUALIFY):
        created = call(server, "POST", "/v1/games", {"game": "tanzanian", "rated": True}, token=asha["token"])
        game_id = created["game"]["id"]
        http(
            server.origin,
            "POST",
            f"/v1/games/{game_id}/join",
            {"invite": created["invite"]["code"]},
            token=baraka["token"],
        )
        # Two moves a side first: a rated game ended before them is aborted and counts for nothing.
        for ply, move in enumerate(OPENING):
            mover = asha if (ply % 2 == 0) == (created["seat"] == "white") else baraka
            call(server, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=mover["token"])
        loser = baraka if number % 3 else asha
        call(server, "POST", f"/v1/games/{game_id}/resign", token=loser["token"])
        if number % 3 == 2:  # a pair's rated games count 3 a day (fair play): the next day on the server's clock
            call(server, "POST", "/v1/_local/clock", {"advance": 86_401})
    return asha, baraka


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_leaderboard_page_lists_the_best_on_a_phone(contexts, rated_players, server, lang):
    asha, _ = rated_players
    ratings = call(server, "GET", "/v1/players/me", token=asha["token"])["ratings"]["tanzanian"]
    assert ratings["games"] == GAMES_TO_QUALIFY and ratings["rd"] < 100 and not ratings["provisional"]
    t = build_site_module().translations(lang)
    page = contexts.new_page(viewport=PHONE)
    assert page.viewport_size == {"width": 360, "height": 740}
    page.goto(f"/{lang}/vinara/?game=tanzanian")
    rows = page.locator("#leaderboard tbody tr")
    rows.first.wait_for()
    assert rows.count() == 2
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first == ["1", "Asha", str(ratings["rating"]), str(GAMES_TO_QUALIFY)]
    assert rows.nth(1).locator("td").nth(1).inner_text() == LONGEST_NAME
    assert page.locator("h1").inner_text() == t.gettext("Leaderboard") != "Leaderboard"
    headings = page.locator("#leaderboard th").all_inner_texts()
    assert headings[1:] == [t.gettext("Player"), t.gettext("Rating"), t.gettext("Rated games")]
    assert page.locator(".board-title").inner_text() == t.gettext("Tanzanian draughts")
    assert page.locator(".board-tabs a[aria-current=page]").get_attribute("data-game") == "tanzanian"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    page.locator(".board-tabs a[data-game=chess]").click()
    page.wait_for_url("**?game=chess")
    status = page.locator("#leaderboard .status")
    status.filter(has_text=t.gettext("No one is on this leaderboard yet: play rated games to get on it.")).wait_for()
    assert page.locator("#leaderboard tbody tr").count() == 0
    # The tabs: 44 px to tap, the chosen one marked apart from the others.
    tabs = page.locator(".board-tabs a")
    assert all(tabs.nth(i).bounding_box()["height"] >= 44 for i in range(tabs.count()))
    style = "node => getComputedStyle(node).backgroundColor"
    assert page.locator(".board-tabs a[aria-current=page]").evaluate(style) != tabs.nth(1).evaluate(style)
    # A name opens the player's profile: Asha's rating, her graph and her results.
    page.goto(f"/{lang}/vinara/?game=tanzanian")
    rows.first.locator("a").click()
    page.wait_for_url(f"**/mchezaji/?id={asha['player_id']}")
    line = page.locator("#profile .profile-games li[data-game=tanzanian]")
    line.locator("svg polyline").wait_for()
    assert page.locator("#profile .profile-name").inner_text() == "Asha"
    assert str(ratings["rating"]) in line.locator(".rating").inner_text()
    assert page.locator("#profile .profile-recent li").count() == 10
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert contexts.problems == []


def test_the_players_ratings_and_graph_on_mchezo(contexts, rated_players, server):
    asha, _ = rated_players
    rating = call(server, "GET", "/v1/players/me", token=asha["token"])["ratings"]["tanzanian"]["rating"]
    page = contexts.new_page(viewport=PHONE)
    page.goto("/sw/mchezo/")
    page.evaluate(
        "([id, token]) => localStorage.setItem('ubao.player', JSON.stringify({player_id: id, token}))",
        [asha["player_id"], asha["token"]],
    )
    page.reload()
    line = page.locator("#ratings li[data-game=tanzanian]")
    line.locator("svg polyline").wait_for()
    assert (
        line.inner_text().strip() == f"{build_site_module().translations('sw').gettext('Tanzanian draughts')} {rating}"
    )
    svg = line.locator("svg").evaluate("node => node.outerHTML")
    assert len(svg) < 600 and svg.count(",") == GAMES_TO_QUALIFY  # a point per rated game, a few hundred bytes
    assert page.locator("#ratings a").get_attribute("href") == "/sw/vinara/"
    assert contexts.problems == []
