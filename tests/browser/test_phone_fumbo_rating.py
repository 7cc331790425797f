"""Fumbo on a 360x740 phone, in Swahili and Tagalog: after a first try the line right under the board says
what it did to the puzzle rating (+N or −N) and the streak, the verdict under it, both in view; an attempt made offline
and sent by the service worker while a game page was open is told at the next open of Fumbo exactly as the
server answered it (the rating change it made), not as the replay that shows it on the board."""

from __future__ import annotations

import time

import pytest

from tests.browser.boards import BoardView, expected_pieces, page_config
from tests.browser.harness import controlled
from tests.browser.offline_pages import outbox
from tests.browser.test_fumbo import clicks_for, wait_text, wrong_first_move
from tests.checks import known
from tests.puzzles_api.sets import find

PHONE = {"width": 360, "height": 740}


def change_line(fumbo: dict, rating: float, change: float) -> str:
    rounded = round(change)
    signed = f"+{rounded}" if rounded > 0 else f"\u2212{-rounded}" if rounded < 0 else "\u00b10"
    return fumbo["rating_after_try"].replace("%(rating)s", str(round(rating))).replace("%(change)s", signed)


def miss(page, game: str, puzzle: dict) -> None:
    page.locator(f'.puzzle-tabs a[data-game="{game}"]').click()
    board = BoardView(page.locator(f"#puzzle-{game} .board-host"))
    board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
    board.click(*known(clicks_for(game, puzzle["fen"], wrong_first_move(find(puzzle["id"])))))


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_rating_change_and_streak_show_under_the_board(contexts, needs_dynamodb, lang):
    context = contexts.new(viewport=PHONE)
    page = context.new_page()
    with page.expect_response(lambda r: "/v1/puzzles/daily?game=chess" in r.url) as daily:
        page.goto(f"/{lang}/fumbo/")
    puzzle = daily.value.json()
    config = page_config(page)
    fumbo, messages = config["fumbo"], config["messages"]
    with page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
        miss(page, "chess", puzzle)
    answer = attempt.value.json()
    assert answer["result"] == "failed" and answer["rated"] is True and answer["rating_change"] < 0
    status, line = page.locator("#puzzle-chess .status"), page.locator("#puzzle-chess .meta")
    wait_text(line, change_line(fumbo, answer["rating"], answer["rating_change"]))
    wait_text(status, fumbo["puzzle_missed"], "bad")
    streak = page.evaluate(
        "([forms, locale]) => (forms[new Intl.PluralRules(locale).select(0)] || forms.other).replace('{n}', '0')",
        [messages["streak"], messages["plural_locale"]],
    )
    wait_text(line, streak)  # a miss: no streak yet, said on the same line
    for shown in (line, status):
        box = shown.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], f"a line at {box}"
    assert page.evaluate("scrollY") == 0
    assert contexts.problems == []


def test_an_attempt_sent_by_the_worker_from_a_game_page_is_told_as_the_server_answered(contexts, needs_dynamodb):
    context = contexts.new(viewport=PHONE)
    context.grant_permissions(["background-sync"])
    page = context.new_page()
    with page.expect_response(lambda r: "/v1/puzzles/daily?game=chess" in r.url) as daily:
        page.goto("/sw/fumbo/")
    chess = daily.value.json()
    tanzanian = page.request.get("/v1/puzzles/daily?game=tanzanian").json()
    fumbo = page_config(page)["fumbo"]
    miss(page, "chess", chess)  # online first: this browser gets a player, so the worker has a token
    wait_text(page.locator("#puzzle-chess .status"), fumbo["puzzle_missed"])
    controlled(page)

    context.set_offline(True)
    miss(page, "tanzanian", tanzanian)
    queued = page.locator("#offline-messages").get_attribute("data-attempt-queued")
    page.locator("#puzzle-tanzanian .status").filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    page.goto("about:blank")
    game_page = context.new_page()
    game_page.goto("/sw/mchezo/")  # from the service worker's cache: the game page is open when the link returns
    context.set_offline(False)  # the browser fires the worker's `sync`
    deadline = time.monotonic() + 30
    while not (records := outbox(game_page, "attempts")) or not records[0]["outcome"]:
        assert time.monotonic() < deadline, records
        time.sleep(0.2)
    outcome = records[0]["outcome"]
    assert outcome["result"] == "failed" and outcome["rated"] is True and outcome["rating_change"] < 0

    page.goto("/sw/fumbo/#puzzle-tanzanian")  # the replay of the kept moves shows the verdict on the board
    status = page.locator("#puzzle-tanzanian .status")
    wait_text(status, fumbo["puzzle_missed"], "bad")
    wait_text(page.locator("#puzzle-tanzanian .meta"), change_line(fumbo, outcome["rating"], outcome["rating_change"]))
    assert fumbo["replay_solved"] not in status.inner_text()
    assert [p for p in contexts.problems if "ERR_INTERNET_DISCONNECTED" not in p] == []  # only while offline
