"""Groups then knockout on 360x740 phones, in Swahili and Tagalog: a cup of two groups of four made through the
Mashindano page's form, joined by two phones and six players over HTTP, its 24 group games and its knockout
played or resigned over HTTP (a semi-final won 2-0, one level at 1-1 and settled by its deciding live game, a
final of "1½-½" with a real draw); both phones show the groups' tables, the bracket's rows and the winner. And
the same form making an arena (only its fields shown)."""

from __future__ import annotations

import json
import time
import urllib.error
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.harness import build_site_module, http

PHONE = {"width": 360, "height": 740}
#: The strongest first: in a group game the weaker player resigns, so each group's order is the names' order.
NAMES = ("Asha", "Baraka", "Chausiku", "Daudi", "Eliza", "Faraji", "Gloria", "Hamisi")


def gettext(lang: str):
    build_site_module()  # puts site/ on the path
    import catalogs

    return catalogs.translations(lang).gettext


def words(lang: str) -> dict:
    """The page's words the test reads, from the catalogs (as the page shows them)."""
    _ = gettext(lang)
    return {
        "cup": _("Groups then knockout"),
        "size": _("{groups} groups of {n}").format(groups=2, n=4),
        "group": _("Group {letter}").format(letter="A"),
        "rounds": [_("Semi-finals"), _("Final")],
        "decider": _("Deciding game: {score}").format(score="0-1"),
        "winner": _("Winner: {name}").split("{name}")[0],
        "deadline": _("Games unfinished on {date} are lost by the side to move").split("{date}"),
    }


def api(origin: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """``http``, sent again after a 503 (dynalite past the request's deadline on a loaded machine: the write may
    or may not be stored, docs/games.md), as a client does; a resent join that finds its entry, or a resent
    resignation that finds the game over, is done."""
    for attempt in range(10):
        try:
            return http(origin, method, path, body, token)
        except urllib.error.HTTPError as error:
            answer = json.loads(error.read() or b"{}")
            if attempt and error.code == 409 and answer["error"]["code"] in ("already_entered", "game_over"):
                return {"state": "finished"} if answer["error"]["code"] == "game_over" else answer
            if error.code != 503:
                raise
            time.sleep(1)
    raise AssertionError(f"{method} {path}: 503 ten times")


def phone(contexts, who: dict, lang: str, path: str):
    page = contexts.new_page(viewport=PHONE)
    kept = {"player_id": who["player_id"], "token": who["token"]}
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))})")
    page.goto(f"/{lang}/mashindano/{path}")
    return page


def resign(origin: str, game_id: str, loser_token: str) -> None:
    answer = api(origin, "POST", f"/v1/games/{game_id}/resign", {}, loser_token)
    assert answer["state"] == "finished", answer


def draw_after_two_moves(origin: str, game_id: str, white: str, black: str) -> None:
    """Two moves a side (an agreed draw before that is void in a tournament), then a draw agreed."""
    seats = {"white": white, "black": black}
    for _ in range(4):
        state = api(origin, "GET", f"/v1/games/{game_id}", None, white)
        api(origin, "POST", f"/v1/games/{game_id}/moves", {"move": state["legal_moves"][0], "ply": state["ply"]},
             seats[state["turn"]])  # fmt: skip
    api(origin, "POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, white)
    assert api(origin, "POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, black)["state"] == "finished"


def bracket_when(origin: str, tournament_id: str, token: str, ready) -> list[dict]:
    """The bracket once ``ready(bracket)`` holds (the results function makes knockout games as players become
    known, from the games' stream)."""
    deadline = time.monotonic() + 60
    while True:
        bracket = api(origin, "GET", f"/v1/tournaments/{tournament_id}", None, token)["bracket"]
        if ready(bracket) or time.monotonic() > deadline:
            return bracket
        time.sleep(0.5)


@pytest.mark.slow  # 32 games over HTTP and the phones' polls: about a minute
def test_a_cup_made_on_the_page_is_played_to_its_final(contexts, needs_dynamodb, server):
    origin = server.origin
    players = [api(origin, "POST", "/v1/players", {"name": name}) for name in NAMES]
    token = {p["name"]: p["token"] for p in players}

    maker = phone(contexts, players[0], "sw", "")
    maker.select_option("#league-format", "cup")
    assert maker.locator(".new-league .hint[data-for=cup]").is_visible()
    assert not maker.locator("#league-players").is_visible()  # a league's size is not a cup's
    maker.select_option("#cup-groups", "2")
    maker.select_option("#cup-players", "4")
    maker.select_option("#league-days", "2")
    maker.locator(".new-league button[type=submit]").click()
    maker.wait_for_url("**/sw/mashindano/?id=*")
    tournament_id = parse_qs(urlsplit(maker.url).query)["id"][0]
    invite = parse_qs(urlsplit(maker.url).fragment)["invite"][0]
    sw, tl = words("sw"), words("tl")
    assert sw["rounds"] == ["Nusu fainali", "Fainali"] and tl["cup"] != sw["cup"]  # translated, not English
    terms = maker.locator("#tournaments .t-terms")
    terms.wait_for()
    assert sw["cup"] in terms.inner_text() and sw["size"] in terms.inner_text()
    maker.locator("#tournaments .join").click()
    maker.locator("#tournaments .crosstable tr.you").wait_for()

    other = phone(contexts, players[1], "tl", f"?id={tournament_id}#invite={invite}")
    other.locator("#tournaments .t-terms").wait_for()
    assert tl["size"] in other.locator("#tournaments .t-terms").inner_text()
    other.locator("#tournaments .join").click()
    other.locator("#tournaments .crosstable tr.you").wait_for()
    for who in players[2:]:
        api(origin, "POST", f"/v1/tournaments/{tournament_id}/join", {"invite": invite}, who["token"])

    view = api(origin, "GET", f"/v1/tournaments/{tournament_id}", None, token["Asha"])
    name_of = {row["seat"]: row["name"] for row in view["players"]}
    token_of = {seat: token[name] for seat, name in name_of.items()}
    strength = {seat: NAMES.index(name) for seat, name in name_of.items()}
    assert len(view["groups"]) == 2 and len(view["games"]) == 24
    for game in view["games"]:  # the weaker resigns
        resign(origin, game["id"], token_of[max(game["white"], game["black"], key=strength.__getitem__)])
    semis = bracket_when(origin, tournament_id, token["Asha"], lambda b: all(len(row["games"]) == 2 for row in b[:2]))
    groups = api(origin, "GET", f"/v1/tournaments/{tournament_id}", None, token["Asha"])["groups"]
    for group in groups:  # each group ranked by strength: 3, 2, 1 and 0 wins of 3 pairings
        seats = [row["seat"] for row in group]
        assert seats == sorted(seats, key=strength.__getitem__) and [row["points"] for row in group] == [6, 4, 2, 0]
    (a1, a2), (b1, b2) = [[row["seat"] for row in group[:2]] for group in groups]
    assert [tuple(row["seats"]) for row in semis[:2]] == [(a1, b2), (b1, a2)]  # A1-B2, then B1-A2
    for leg in semis[0]["games"]:  # A1 wins both legs: 2-0
        resign(origin, leg, token_of[b2])
    first, second = semis[1]["games"]
    resign(origin, first, token_of[a2])  # B1 wins the first leg, A2 the second: 1-1, a decider
    resign(origin, second, token_of[b1])
    semis = bracket_when(origin, tournament_id, token["Asha"], lambda b: len(b[1]["games"]) == 3)
    resign(origin, semis[1]["games"][2], token_of[b1])  # A2 wins the deciding live game

    final = bracket_when(origin, tournament_id, token["Asha"], lambda b: len(b[2]["games"]) == 2)[2]
    assert tuple(final["seats"]) == (a1, a2)
    draw_after_two_moves(origin, final["games"][0], token_of[a1], token_of[a2])  # A1 White in the first leg
    resign(origin, final["games"][1], token_of[a2])

    rows = {
        "semi 1": [name_of[a1], name_of[b2], "2-0"],
        "semi 2": [name_of[b1], name_of[a2], "1-1"],
        "final": [name_of[a1], name_of[a2], "1½-½"],
    }
    for page, lang in ((maker, "sw"), (other, "tl")):
        said = sw if lang == "sw" else tl
        winner = page.locator("#tournaments .t-winner")
        winner.wait_for(state="visible", timeout=30_000)
        assert winner.inner_text().startswith(said["winner"]) and name_of[a1] in winner.inner_text()
        groups = page.locator("#tournaments .cup-group")
        assert groups.count() == 2 and groups.first.locator("h3").inner_text() == said["group"]
        assert groups.first.locator("tbody tr").count() == 4
        assert groups.first.locator("tbody tr").first.locator("th").inner_text() == name_of[a1]
        assert page.locator("#tournaments .bracket h4").all_inner_texts() == said["rounds"]
        deadlines = page.locator("#tournaments .round-deadline").all_inner_texts()  # each round's, in its words
        assert len(deadlines) == 2 and all(all(part in text for part in said["deadline"]) for text in deadlines)
        matches = page.locator("#tournaments .bracket li.match")
        assert matches.count() == 3
        for index, (one, two, score) in enumerate(rows.values()):
            match = matches.nth(index)
            assert match.locator(".seat").nth(0).inner_text().startswith(one)
            assert match.locator(".seat").nth(1).inner_text().startswith(two)
            assert match.locator(".score").inner_text() == score
        assert matches.nth(0).locator(".seat.won").inner_text().startswith(name_of[a1])
        assert matches.nth(1).locator(".seat.won").inner_text().startswith(name_of[a2])
        assert matches.nth(1).locator(".decider").inner_text() == said["decider"]
        assert matches.nth(2).locator(".seat.won").inner_text().startswith(name_of[a1])
        assert matches.nth(2).locator(".decider").count() == 0
        assert page.locator("#tournaments .league-table").is_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # stacked rounds, no sideways scroll
    assert not contexts.problems, contexts.problems


def test_the_form_makes_an_arena_with_its_own_fields(contexts, needs_dynamodb, server):
    """The same form, arena chosen (tl): only an arena's fields shown; made with the start, length and seconds a
    move asked for, its page counting down to the start."""
    from datetime import UTC, datetime

    maker = api(server.origin, "POST", "/v1/players", {"name": "Jomar"})
    page = phone(contexts, maker, "tl", "")
    page.select_option("#league-format", "arena")
    assert page.locator(".new-league .hint[data-for=arena]").is_visible()
    assert not page.locator("#league-days").is_visible() and not page.locator("#cup-groups").is_visible()
    page.select_option("#arena-starts", "5")
    page.select_option("#arena-minutes", "20")
    page.select_option("#arena-seconds", "30")
    asked = datetime.now(UTC)
    page.locator(".new-league button[type=submit]").click()
    page.wait_for_url("**/tl/mashindano/?id=*")
    tournament_id = parse_qs(urlsplit(page.url).query)["id"][0]
    page.wait_for_function("document.querySelector('#tournaments .t-when').textContent.includes(':')")
    made = api(server.origin, "GET", f"/v1/tournaments/{tournament_id}")["tournament"]
    assert (made["format"], made["minutes"], made["options"]) == ("arena", 20, {"turn_seconds": 30})
    starts = datetime.fromisoformat(made["starts"].replace("Z", "+00:00"))
    assert 4 * 60 <= (starts - asked).total_seconds() <= 6 * 60
    _ = gettext("tl")
    assert _("Arena") in page.locator("#tournaments .t-terms").inner_text()
    assert _("{n} seconds per move").format(n=30) in page.locator("#tournaments .t-terms").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not contexts.problems, contexts.problems
