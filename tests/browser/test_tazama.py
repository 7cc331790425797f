"""Tazama on a 360x740 phone, in Swahili and Tagalog: a live table played between two other phones (here, the
API) is listed once its first move is made, a tap follows it to its end as a spectator, and TV moves on to the
next game on the air when the one it shows ends."""

from __future__ import annotations

import re

import pytest

from tests.browser.harness import build_site_module, http

PHONE = {"width": 360, "height": 740}


def live_table(origin: str) -> tuple[str, dict]:
    asha = http(origin, "POST", "/v1/players", {"name": "Asha"})
    baraka = http(origin, "POST", "/v1/players", {"name": "Baraka"})
    created = http(
        origin, "POST", "/v1/games", {"game": "chess", "color": "white", "options": {"turn_seconds": 60}}, asha["token"]
    )
    game_id = created["game"]["id"]
    http(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, baraka["token"])
    return game_id, {"white": asha["token"], "black": baraka["token"]}


def move(origin: str, game_id: str, seats: dict, text: str, ply: int) -> None:
    http(
        origin,
        "POST",
        f"/v1/games/{game_id}/moves",
        {"move": text, "ply": ply},
        seats["white" if ply % 2 == 0 else "black"],
    )


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_watch_a_live_table_to_its_end_and_tv_moves_on(contexts, needs_dynamodb, server, lang):
    origin = server.origin
    t = build_site_module().translations(lang)
    game_id, seats = live_table(origin)
    move(origin, game_id, seats, "e4", 0)
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/")
    page.locator("header details.menu summary").click()
    page.locator("header details.menu a[href$='/tazama/']").click()
    row = page.locator(f"#on-air li a[data-game='{game_id}']")
    row.wait_for()
    assert "Asha" in row.inner_text() and "Baraka" in row.inner_text()
    assert page.locator(".board-tabs a[aria-current=page]").get_attribute("data-game") == "chess"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    row.click()  # follow it as a spectator: the same page and delivery as the players'
    page.locator("#game").wait_for(state="visible")
    moves = page.locator("#game ol.moves")
    moves.filter(has_text="e4").wait_for()
    move(origin, game_id, seats, "e5", 1)
    moves.filter(has_text="e5").wait_for()
    http(origin, "POST", f"/v1/games/{game_id}/resign", None, seats["black"])
    page.locator("#game .status").filter(has_text=t.gettext("by resignation")).wait_for(timeout=60_000)

    # TV: the top game, then the next once it ends.
    first, first_seats = live_table(origin)
    move(origin, first, first_seats, "d4", 0)
    page.goto(f"/{lang}/tazama/?game=chess")
    page.locator(f"#on-air li a[data-game='{first}']").wait_for(timeout=40_000)  # within 30 s (15 s cached)
    assert game_id not in page.locator("#on-air").inner_text()  # an ended game is off the list
    second, second_seats = live_table(origin)
    move(origin, second, second_seats, "c4", 0)
    # TV from the first game (the link names the top game, which may be another test's table on this server).
    page.goto(re.sub(r"#game=[^&]+", f"#game={first}", page.locator("#on-air .tv").get_attribute("href")))
    page.locator("#game ol.moves").filter(has_text="d4").wait_for()
    http(origin, "POST", f"/v1/games/{first}/resign", None, first_seats["black"])
    page.wait_for_function(f"!location.hash.includes('{first}') && location.hash.includes('tv=')", timeout=60_000)
    shown = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    on_air = [game["id"] for game in http(origin, "GET", "/v1/games/live?game=chess")["games"]]
    assert second in on_air and shown in on_air  # TV moved on to a game on the air
    if shown == second:
        page.locator("#game ol.moves").filter(has_text="c4").wait_for()
    assert not contexts.problems, contexts.problems
