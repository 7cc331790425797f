"""The Mashindano page of one tournament on a 360x740 phone follows it on the live socket: the entries, then the
pairings and the first result of a league come as messages and the page hardly reads the tournament itself;
with the socket blocked the same page polls, shows the same, and says nothing about it."""

from __future__ import annotations

import re

import pytest

from tests.browser.harness import http

PHONE = {"width": 360, "height": 740}
NAMES = ("Asha", "Juma", "Neema")


def new_league(origin: str) -> tuple[str, list[str]]:
    maker = http(origin, "POST", "/v1/players", {"name": "Mwalimu"})["token"]
    request = {"format": "league", "game": "chess", "players": 3, "public": True, "options": {"days_per_move": 3}}
    league = http(origin, "POST", "/v1/tournaments", request, maker)["tournament"]["id"]
    return league, [http(origin, "POST", "/v1/players", {"name": name})["token"] for name in NAMES]


def follow_the_league(contexts, origin: str, blocked: bool) -> dict:
    league, tokens = new_league(origin)
    page = contexts.new_page(viewport=PHONE)
    seen = {"reads": 0, "frames": 0}
    if blocked:  # a network that lets no WebSocket through: each is closed as it opens
        page.route_web_socket(re.compile(r"/live\b"), lambda socket: socket.close())
    page.on("request", lambda r: r.method == "GET" and f"/v1/tournaments/{league}" in r.url and _add(seen, "reads"))
    page.on("websocket", lambda socket: socket.on("framereceived", lambda _: _add(seen, "frames")))
    page.goto(f"/sw/mashindano/?id={league}")
    page.locator(".one-view").wait_for(state="visible")
    if not blocked:
        for _ in range(600):  # the subscription's answer (a busy machine's cold starts can take a while)
            if seen["frames"]:
                break
            page.wait_for_timeout(100)
        assert seen["frames"], "the page never got its subscription's answer"
    seen.update(reads=0, frames=0)
    for token in tokens:
        http(origin, "POST", f"/v1/tournaments/{league}/join", {}, token)
    table = page.locator(".one-view .crosstable")
    for name in NAMES:
        table.filter(has_text=name).wait_for(timeout=30_000)
    games = http(origin, "GET", f"/v1/tournaments/{league}")["games"]
    assert len(games) == 6  # it filled and started: its six games are made
    first = games[0]["id"]
    white = http(origin, "GET", f"/v1/games/{first}")["players"]["white"]["name"]  # seats follow the seeding
    http(origin, "POST", f"/v1/games/{first}/resign", None, tokens[NAMES.index(white)])
    # White resigned the first game: its match score reaches the crosstable.
    page.locator(".one-view .crosstable td", has_text=re.compile(r"^(1-0|0-1)$")).first.wait_for(timeout=30_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not page.locator("#tournaments .status").inner_text().strip()  # nothing said about the socket
    return seen


def _add(seen: dict, name: str) -> bool:
    seen[name] += 1
    return True


@pytest.mark.slow
def test_a_league_page_follows_its_entries_pairings_and_results_on_the_socket(contexts, server, needs_dynamodb):
    seen = follow_the_league(contexts, server.origin, blocked=False)
    assert seen["frames"] >= 3, seen  # three entries (and the pairings, the result) came as messages
    assert seen["reads"] <= 1, seen  # the page read the tournament itself at most once (its minute's read)
    assert not contexts.problems, contexts.problems


@pytest.mark.slow
def test_with_the_socket_blocked_the_league_page_polls_and_shows_the_same(contexts, server, needs_dynamodb):
    seen = follow_the_league(contexts, server.origin, blocked=True)
    assert seen["frames"] == 0 and seen["reads"] >= 2, seen  # polling carried it
    assert not contexts.problems, contexts.problems
