"""A lesson's exercises on a 360x740 phone, their data a file of its own (issue 45): a first visit that reads the
lesson does not fetch it; the jump to the exercises does, and they play; a lesson seen once, its exercises never
opened, still plays them offline (the service worker precached the file with the shell)."""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urlparse

import pytest

from tests.browser.boards import BoardView, after, expected_pieces
from tests.browser.harness import controlled
from tests.browser.offline_pages import saved
from tests.browser.test_jifunze import expect_status

PHONE = {"width": 360, "height": 740}
CASES = [("sw", "chess"), ("tl", "english")]
IDS = [f"{lang}-{game}" for lang, game in CASES]
CONFIG = "JSON.parse(document.getElementById('ubao-config').textContent)"


def first_visit(contexts, lang: str, game: str):
    """A phone's first visit to the lesson, read to its load: (context, page, config, the page's own requests
    for exercise data so far and from now on); none was made."""
    context = contexts.new(viewport=PHONE)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlparse(request.url).path) if "/exercises-" in request.url else 0)
    page.goto(f"/{lang}/jifunze/{game}/", wait_until="load")
    page.wait_for_timeout(500)
    assert asked == [], "the exercises' data came with the lesson, before the exercises were near"
    config = page.evaluate(CONFIG)
    assert "exercises" not in config and config["exercises_url"].startswith("/static/exercises-")
    return context, page, config, asked


def solve_first(page, game: str, exercises: list[dict], messages: dict) -> None:
    """Jump to the exercises with the lesson's own link and play the first exercise's answer."""
    page.locator('a.button[href="#exercises"]').click()
    exercise = exercises[0]
    article = page.locator('.exercise[data-index="0"]')
    board = BoardView(article.locator(".board-host"))
    board.wait_for_pieces(expected_pieces(game, exercise["fen"]))  # the playable grid, not the drawing
    answer = exercise["answers"][0]
    board.play(game, exercise["fen"], answer)
    expect_status(article.locator(".status"), messages["correct"], "ok")
    board.wait_for_pieces(expected_pieces(game, after(game, exercise["fen"], answer)))
    box = article.locator(".board-host .grid").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def exercises_of(server, config: dict) -> list[dict]:
    with urllib.request.urlopen(server.origin + config["exercises_url"], timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize(("lang", "game"), CASES, ids=IDS)
def test_the_jump_to_the_exercises_fetches_their_data_once_and_they_play(server, contexts, lang, game):
    _, page, config, asked = first_visit(contexts, lang, game)
    solve_first(page, game, exercises_of(server, config), config["messages"])
    assert asked == [config["exercises_url"]]
    assert contexts.problems == []


@pytest.mark.parametrize(("lang", "game"), CASES, ids=IDS)
def test_a_lesson_seen_once_plays_its_exercises_offline(server, contexts, lang, game):
    context, page, config, asked = first_visit(contexts, lang, game)
    controlled(page)  # the first visit installed the worker, its shell (the exercises' file too) precached
    saved(page, f"/{lang}/jifunze/{game}/")  # and kept the lesson itself (the worker's activation saves it)
    context.set_offline(True)
    page.reload(wait_until="load")
    with page.expect_response(lambda response: "/exercises-" in response.url) as fetched:
        solve_first(page, game, exercises_of(server, config), config["messages"])
    assert fetched.value.from_service_worker and fetched.value.ok
    assert asked == [config["exercises_url"]]
    context.set_offline(False)
    # The worker's refresh of the page it served from its cache fails offline, as it should; nothing else does.
    assert [problem for problem in contexts.problems if "ERR_INTERNET_DISCONNECTED" not in problem] == []
