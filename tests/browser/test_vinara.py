"""The leaderboard page on a phone (360x740) in Swahili and Tagalog, fed by the API: six players who play each
other a round a day for four days (each pair one rated Tanzanian game a day, the first-named winning) are
listed once they have met five established opponents and their deviation is under 100 (fair play, the rating
list's rule: two of the six qualify after 4 days, `tests/games/test_rating_list.py` has the rule itself), best
first, with the page's own headings; a game nobody qualifies in says so. The players come from Tanzania, Kenya and
the Philippines (CloudFront's viewer country): the scope tabs list one country's players only."""

from __future__ import annotations

import itertools
import time
import urllib.error

import pytest

from tests.browser.harness import build_site_module, http, missing_dynamodb

PHONE = {"width": 360, "height": 740}
DAYS = 4
#: The widest name a player may take (24 columns, docs/games.md "Fair play"), in the widest Latin letter: the
#: list must still fit a 360 px phone.
LONGEST_NAME = "W" * 24
#: The club in order of strength; after 4 rounds the fourth and fifth are listed (the others' deviation or
#: opponents fall short: the strongest met only weaker players who were still provisional).
NAMES = ["Neema", "Juma", "Zawadi", "Asha", LONGEST_NAME, "Baraka"]
#: Where each comes from: the two listed are Asha (Tanzania) and the longest name (Kenya).
COUNTRIES = ["TZ", "KE", "PH", "TZ", "KE", "TZ"]
GAMES_TO_QUALIFY = DAYS * (len(NAMES) - 1)
OPENING = ["a3-b4", "h6-g5", "b2-a3", "g7-h6"]  # Tanzanian draughts: White starts


def call(server, method: str, path: str, body: dict | None = None, token: str | None = None, **headers: str) -> dict:
    """``http``, sent again after a 503 as the API asks (a loaded machine's local store may be slow)."""
    for _ in range(5):
        try:
            return http(server.origin, method, path, body, token=token, headers=headers)
        except urllib.error.HTTPError as error:
            if error.code != 503:
                raise
            time.sleep(1)
    return http(server.origin, method, path, body, token=token, headers=headers)


def won_game(server, winner: dict, loser: dict) -> None:
    """A rated Tanzanian game: the winner (White) and the loser make two moves each, then the loser resigns."""
    body = {"game": "tanzanian", "rated": True, "color": "white"}
    created = call(server, "POST", "/v1/games", body, token=winner["token"])
    game_id = created["game"]["id"]
    http(
        server.origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=loser["token"]
    )
    for ply, move in enumerate(OPENING):
        mover = winner if ply % 2 == 0 else loser
        call(server, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=mover["token"])
    call(server, "POST", f"/v1/games/{game_id}/resign", token=loser["token"])


@pytest.fixture(scope="module")
def rated_players(server):
    """The club after its four rounds: (Asha, the longest name), the two listed."""
    reason = missing_dynamodb()
    if reason:
        pytest.skip(reason)
    club = [
        call(server, "POST", "/v1/players", {"name": name}, **{"CloudFront-Viewer-Country": country})
        for name, country in zip(NAMES, COUNTRIES, strict=True)
    ]
    for _day in range(DAYS):
        for winner, loser in itertools.combinations(club, 2):
            won_game(server, winner, loser)
        call(server, "POST", "/v1/_local/clock", {"advance": 86_401})  # a pair's rated games count 3 a day
    return club[3], club[4]


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
    # The page is called what the menu calls it (sw "Orodha ya Ubora", tl "Listahan ng rating"): one name.
    assert page.locator("h1").inner_text() == t.gettext("Rating list") != "Rating list"
    assert page.locator("header details.menu a[href$='/vinara/']").text_content().strip() == t.gettext("Rating list")
    headings = page.locator("#leaderboard th").all_inner_texts()
    assert headings[1:] == [t.gettext("Player"), t.gettext("Rating"), t.gettext("Rated games")]
    assert page.locator(".board-title").inner_text() == t.gettext("Tanzanian draughts")
    assert page.locator(".board-tabs a[aria-current=page]").get_attribute("data-game") == "tanzanian"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    page.locator(".board-tabs a[data-game=chess]").click()
    page.wait_for_url("**?game=chess")
    status = page.locator("#leaderboard .status")
    status.filter(has_text=t.gettext("No one is on this rating list yet: play rated games to get on it.")).wait_for()
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


def _as_player(page, player: dict) -> None:
    """This phone is ``player``'s (the token ``api.js`` keeps)."""
    keep = "([id, token]) => localStorage.setItem('ubao.player', JSON.stringify({player_id: id, token, handles: true}))"
    page.evaluate(keep, [player["player_id"], player["token"]])


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_country_scope_lists_only_that_countrys_players(contexts, rated_players, server, lang):
    asha, _ = rated_players
    t = build_site_module().translations(lang)
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/vinara/?game=tanzanian")
    _as_player(page, asha)
    page.reload()
    names = page.evaluate("l => ['TZ', 'KE'].map(c => new Intl.DisplayNames([l], {type: 'region'}).of(c))", lang)
    country_tab = page.locator(".scope-tabs a.country-tab")
    country_tab.wait_for()  # Asha's country, from GET /v1/players/me
    scopes = page.locator(".scope-tabs a")
    assert (
        scopes.all_inner_texts() == [t.gettext("All players"), names[0]] and t.gettext("All players") != "All players"
    )
    assert page.locator(".scope-tabs").get_attribute("aria-label") == t.gettext("Which players")
    assert page.locator(".scope-tabs a[aria-current=page]").get_attribute("data-country") == ""  # everyone first
    rows = page.locator("#leaderboard tbody tr")
    rows.first.wait_for()
    assert rows.count() == 2
    assert all(scopes.nth(i).bounding_box()["height"] >= 44 for i in range(2))
    country_tab.click()
    page.wait_for_url("**/vinara/?game=tanzanian&country=TZ")
    rows.first.wait_for()
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())] == ["Asha"]
    assert page.locator(".scope-tabs a[aria-current=page]").get_attribute("data-country") == "TZ"
    assert page.locator(".board-title").inner_text() == f"{t.gettext('Tanzanian draughts')} · {names[0]}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # A game tab keeps the scope; a game nobody of the country qualifies in says so in the country's words.
    page.locator(".board-tabs a[data-game=chess]").click()
    page.wait_for_url("**/vinara/?game=chess&country=TZ")
    empty = t.gettext("No one from this country is on this rating list yet.")
    page.locator("#leaderboard .status").filter(has_text=empty).wait_for()
    # Another country by its address (a shared link): Kenya's list is the longest name alone.
    page.goto(f"/{lang}/vinara/?game=tanzanian&country=KE")
    rows.first.wait_for()
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())] == [LONGEST_NAME]
    assert country_tab.inner_text() == names[1]
    page.locator(".scope-tabs a[data-country='']").click()
    page.wait_for_url("**/vinara/?game=tanzanian")
    page.locator("#leaderboard tbody tr:nth-child(2)").wait_for()
    assert rows.count() == 2
    assert contexts.problems == []
