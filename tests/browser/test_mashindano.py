"""Mashindano on 360x740 phones, in Swahili and Tagalog: four players open a league's link (from the menu's
section too), join it, see the crosstable fill in as its twelve games end (resignations and draws, counted from
the games' stream), and the winner shown on every phone."""

from __future__ import annotations

import json

import pytest

from tests.browser.harness import http

PHONE = {"width": 360, "height": 740}
NAMES = ("Asha", "Baraka", "Chausiku", "Daudi")
LANGS = ("sw", "tl", "sw", "tl")


@pytest.mark.slow  # twelve games and the phones' 5 s polls: about half a minute
def test_four_phones_join_a_league_by_its_link_and_see_the_winner(contexts, needs_dynamodb, server):
    origin = server.origin
    players = [http(origin, "POST", "/v1/players", {"name": name}) for name in NAMES]
    made = http(
        origin,
        "POST",
        "/v1/tournaments",
        {"format": "league", "game": "english", "players": 4, "options": {"days_per_move": 2}},
        players[0]["token"],
    )
    tournament_id, code = made["tournament"]["id"], made["invite"]["code"]
    phones = []
    for who, lang in zip(players, LANGS, strict=True):
        page = contexts.new_page(viewport=PHONE)
        kept = {"player_id": who["player_id"], "token": who["token"]}
        page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))})")
        page.goto(f"/{lang}/mashindano/?id={tournament_id}#invite={code}")
        join = page.locator("#tournaments .join")
        join.wait_for(state="visible")
        box = join.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360 and box["height"] >= 40
        join.click()
        page.locator("#tournaments .crosstable tr.you").wait_for()
        phones.append(page)
    first = phones[0]
    first.goto("/sw/")
    first.locator("header details.menu summary").click()  # the menu's section leads to the page
    first.locator("header details.menu a[href$='/mashindano/']").click()
    first.wait_for_url("**/sw/mashindano/")
    first.goto(f"/sw/mashindano/?id={tournament_id}")
    rows = first.locator("#tournaments .crosstable tbody tr")
    rows.nth(3).wait_for()
    assert rows.count() == 4
    assert first.locator("#tournaments .t-next a").is_visible()  # your next game, on the play page

    view = http(origin, "GET", f"/v1/tournaments/{tournament_id}", None, players[0]["token"])
    seat_of = {row["name"]: row["seat"] for row in view["players"]}
    token_of = {seat_of[p["name"]]: p["token"] for p in players}
    asha = seat_of["Asha"]
    for game in view["games"]:  # Asha wins every game; the others draw
        white, black = token_of[game["white"]], token_of[game["black"]]
        if asha in (game["white"], game["black"]):
            http(origin, "POST", f"/v1/games/{game['id']}/resign", None, black if game["white"] == asha else white)
        else:
            http(origin, "POST", f"/v1/games/{game['id']}/draw", {"action": "offer"}, white)
            http(origin, "POST", f"/v1/games/{game['id']}/draw", {"action": "accept"}, black)
    for page, lang in zip(phones, LANGS, strict=True):
        winner = page.locator("#tournaments .t-winner")
        winner.wait_for(state="visible", timeout=30_000)
        assert "Asha" in winner.inner_text()
        assert ("Mshindi" if lang == "sw" else "Nanalo") in winner.inner_text()
        top = page.locator("#tournaments .crosstable tbody tr").first
        assert "Asha" in top.inner_text() and "2-0" in top.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the table scrolls in its own box
    assert not contexts.problems, contexts.problems


@pytest.mark.slow  # the phones' 15 s heartbeats
def test_the_arena_page_counts_down_then_pairs_two_phones(contexts, needs_dynamodb, server):
    """The server's clock is moved past the start (``POST /v1/_local/clock``) instead of waiting for it."""
    from datetime import UTC, datetime, timedelta

    origin = server.origin
    players = [http(origin, "POST", "/v1/players", {"name": name}) for name in ("Neema", "Jomar")]
    starts = (datetime.now(UTC) + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"format": "arena", "game": "chess", "public": True, "options": {"turn_seconds": 60}, "minutes": 30}
    made = http(origin, "POST", "/v1/tournaments", {**body, "starts": starts}, players[0]["token"])
    arena_id = made["tournament"]["id"]
    phones = []
    try:
        for who, lang in zip(players, ("sw", "tl"), strict=True):
            page = contexts.new_page(viewport=PHONE)
            kept = {"player_id": who["player_id"], "token": who["token"]}
            page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))})")
            page.goto(f"/{lang}/mashindano/?id={arena_id}")
            page.locator("#tournaments .join").click()
            when = page.locator("#tournaments .t-when")
            when.wait_for()
            page.wait_for_function("document.querySelector('#tournaments .t-when').textContent.includes(':')")
            assert ("Yanaanza" if lang == "sw" else "Magsisimula") in when.inner_text()  # the countdown
            phones.append(page)
        http(origin, "POST", "/v1/_local/clock", {"advance": 11 * 60})
        for page in phones:  # the next heartbeat (15 s) finds the arena on: both paired in one wave
            link = page.locator("#tournaments .t-next a")
            link.wait_for(state="visible", timeout=45_000)
            assert "#game=" in (link.get_attribute("href") or "")
        hrefs = {page.locator("#tournaments .t-next a").get_attribute("href") for page in phones}
        assert len({href.split("#game=")[1] for href in hrefs if href}) == 1  # one game, the two of them
    finally:
        http(origin, "POST", "/v1/_local/clock", {"reset": True})
    assert not contexts.problems, contexts.problems
