"""Fumbo's training loop, in each game and language at 360x740: the goal above the board, a miss,
"Try again", "Show the solution" stepped back and forward, the themes after the puzzle, "Next puzzle", the
theme filter, the provisional rating and the history; a reload keeps the day's state. Offline: the
next puzzles are kept in the page, and a first move made offline reaches the server once back online.

The puzzles are whatever the sets hold today (they are regenerated): the test reads each one's solution
from puzzles/{game}.jsonl by the id the page was given; the page never sees a solution it has not earned.
"""

from __future__ import annotations

import math
import re

import pytest

from tests.browser.boards import BoardView, after, expected_pieces, move_squares, page_config
from tests.browser.harness import page_token
from tests.browser.test_fumbo import clicks_for, wait_text, wrong_first_move
from tests.puzzles_api.sets import find

PHONE = {"width": 360, "height": 740}
LANGS = {"chess": "en", "english": "sw", "tanzanian": "tl"}


def expected_goal(puzzle, fumbo: dict) -> str:
    mate = next((re.fullmatch(r"mateIn(\d+)", t) for t in puzzle.themes if re.fullmatch(r"mateIn(\d+)", t)), None)
    if mate:
        return fumbo["goal_mate"].replace("%(n)s", mate.group(1))
    for theme, key in (("countdown", "goal_countdown"), ("game_win", "goal_game_win")):
        if theme in puzzle.themes:
            return fumbo[key]
    if "promotion" in puzzle.themes:
        return fumbo["goal_promote_chess" if puzzle.game == "chess" else "goal_promotion"]
    return fumbo["goal_material" if "material" in puzzle.themes else "goal_best"]


class InFlight:
    """The page's requests not answered yet: a reload waits for them (it would abort them)."""

    def __init__(self, page):
        self.page = page
        self.pending: set[str] = set()
        page.on("request", lambda request: self.pending.add(request))
        page.on("requestfinished", lambda request: self.pending.discard(request))
        page.on("requestfailed", lambda request: self.pending.discard(request))

    def reload(self) -> None:
        for _ in range(3):  # quiet, and still quiet a moment later (an answer may start the next request)
            self.page.wait_for_function("() => true")  # let the page's handlers run
            while self.pending:
                self.page.wait_for_timeout(100)
            self.page.wait_for_timeout(200)
        self.page.reload()


class Fumbo:
    """One game's section of the puzzle page, driven as a person would."""

    def __init__(self, page, game: str):
        self.page, self.game = page, game
        self.section = page.locator(f"#puzzle-{game}")
        self.board = BoardView(self.section.locator(".board-host"))
        self.status = self.section.locator(".status")
        config = page_config(page)
        self.messages, self.fumbo, self.names = config["messages"], config["fumbo"], config["theme_names"][game]

    def button(self, name: str):
        return self.section.locator(f".puzzle-actions .{name}")

    def shown_id(self) -> str:
        return self.section.get_attribute("data-puzzle")

    def wait_for_puzzle(self, puzzle) -> None:
        self.page.wait_for_function(
            "([node, id]) => node.dataset.puzzle === id", arg=[self.section.element_handle(), puzzle.id]
        )
        self.board.wait_for_pieces(expected_pieces(self.game, puzzle.fen))

    def play(self, fen: str, move: str) -> dict:
        """One solver move, clicked (typed where clicks cannot say which route); the server's answer."""
        clicks = clicks_for(self.game, fen, move)
        with self.page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
            if clicks is None:
                self.section.locator(".move-form input").fill(move)
                self.section.locator(".move-form button[type=submit]").click()
            else:
                self.board.play(self.game, fen, move, clicks)
        return attempt.value.json()

    def solve(self, puzzle) -> dict:
        """Play the whole solution; after each reply, the board shows it with its squares marked as the last move."""
        for step in range(0, len(puzzle.solution), 2):
            fen = after(self.game, puzzle.fen, *puzzle.solution[:step])
            answer = self.play(fen, puzzle.solution[step])
            if step + 1 < len(puzzle.solution):
                assert answer["result"] == "continue", answer
                reply_from = after(self.game, puzzle.fen, *puzzle.solution[: step + 1])
                self.board.wait_for_pieces(expected_pieces(self.game, after(self.game, reply_from, answer["reply"])))
                squares = move_squares(self.game, reply_from, answer["reply"])
                marked = self.section.locator(".board-host .cell.last, .board-host button.last")
                shown = {name for name in marked.evaluate_all("els => els.map(e => e.dataset.square)") if name}
                assert {squares[0], squares[-1]} <= shown, (squares, shown)
        assert answer["result"] == "solved", answer
        return answer

    def themes_text(self, puzzle) -> str:
        return self.fumbo["themes_label"].replace("%(themes)s", ", ".join(self.names.get(t, t) for t in puzzle.themes))


@pytest.mark.parametrize("game", ["chess", "english", "tanzanian"])
def test_the_training_loop(contexts, needs_dynamodb, game):
    page = contexts.new_page(viewport=PHONE)
    in_flight = InFlight(page)
    with page.expect_response(lambda r: f"/v1/puzzles/daily?game={game}" in r.url) as daily:
        page.goto(f"/{LANGS[game]}/fumbo/")
    puzzle = find(daily.value.json()["id"])
    fumbo = Fumbo(page, game)
    fumbo.section.scroll_into_view_if_needed()
    fumbo.wait_for_puzzle(puzzle)
    assert fumbo.section.locator(".goal").inner_text() == expected_goal(puzzle, fumbo.fumbo)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling

    # A miss: counted at once; the themes in the page's language; Try again, Show the solution, Next.
    answer = fumbo.play(puzzle.fen, wrong_first_move(puzzle))
    assert answer["result"] == "failed" and answer["rated"] is True and answer["solution"] == list(puzzle.solution)
    wait_text(fumbo.status, fumbo.fumbo["puzzle_missed"], "bad")
    assert fumbo.section.locator(".themes").inner_text() == fumbo.themes_text(puzzle)
    for name in ("retry", "show-solution", "next"):
        assert fumbo.button(name).is_visible(), name
    assert fumbo.section.locator(".move-form").is_hidden()

    # The solution, move by move, forward and back.
    fumbo.button("show-solution").click()
    total = len(puzzle.solution)
    for step in range(1, total + 1):
        wait_text(fumbo.status, fumbo.fumbo["solution_step"].split("%(step)s")[0] + str(step))
        fumbo.board.wait_for_pieces(expected_pieces(game, after(game, puzzle.fen, *puzzle.solution[:step])))
        if step < total:
            fumbo.button("forward").click()
    assert fumbo.button("forward").is_disabled()
    fumbo.button("back").click()
    fumbo.board.wait_for_pieces(expected_pieces(game, after(game, puzzle.fen, *puzzle.solution[: total - 1])))
    if total == 1:
        wait_text(fumbo.status, fumbo.fumbo["solution_start"])
        assert fumbo.button("back").is_disabled()

    # Try again: the board is back at the start; solving now changes nothing on the server.
    fumbo.button("retry").click()
    fumbo.board.wait_for_pieces(expected_pieces(game, puzzle.fen))
    assert fumbo.solve(puzzle)["rated"] is False
    wait_text(fumbo.status, fumbo.fumbo["replay_solved"], "ok")
    token = page_token(page)
    mine = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
    assert (mine["solved"], mine["failed"]) == (0, 1)

    # A reload keeps the day's state: the daily puzzle shows as missed, with its solution at hand.
    in_flight.reload()  # after the progress and the offline pack, asked for after the puzzle
    fumbo = Fumbo(page, game)
    fumbo.wait_for_puzzle(puzzle)
    wait_text(fumbo.status, fumbo.fumbo["puzzle_missed_before"], "bad")
    assert fumbo.button("retry").is_visible() and fumbo.button("show-solution").is_visible()
    history = page.locator("#history li")
    assert history.count() == 1 and history.first.get_attribute("data-id") == puzzle.id

    # Next puzzle: one near the rating, never one played; solved; the rating shown as provisional.
    with page.expect_response(lambda r: "/v1/puzzles/next?" in r.url) as nexted:
        fumbo.button("next").click()
    second = find(nexted.value.json()["id"])
    assert second.id != puzzle.id and second.game == game
    fumbo.wait_for_puzzle(second)
    assert fumbo.section.locator(".goal").inner_text() == expected_goal(second, fumbo.fumbo)
    assert fumbo.solve(second)["rated"] is True
    wait_text(fumbo.status, fumbo.fumbo["puzzle_solved_next"], "ok")
    mine = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
    assert mine["rating_deviation"] >= 110
    # As the page rounds (Math.round: half up), not as Python's round() does (half to even: 1294.5 -> 1294).
    wait_text(page.locator("#progress"), f"{math.floor(mine['rating'] + 0.5)}?")
    page.wait_for_function("document.querySelectorAll('#history li').length === 2")
    assert page.locator("#history li").first.get_attribute("data-id") == second.id

    # The theme filter: the next puzzle has the chosen theme.
    select = fumbo.section.locator(".theme-filter select")
    theme = select.locator("option").nth(1).get_attribute("value")
    with page.expect_response(lambda r: "/v1/puzzles/next?" in r.url and "theme=" in r.url) as themed:
        select.select_option(theme)
    third = find(themed.value.json()["id"])
    assert theme in third.themes and third.id not in (puzzle.id, second.id)
    fumbo.wait_for_puzzle(third)

    # And a reload keeps the puzzle in play, and the filter.
    in_flight.reload()
    fumbo = Fumbo(page, game)
    fumbo.wait_for_puzzle(third)
    assert fumbo.section.locator(".theme-filter select").input_value() == theme
    assert contexts.problems == []


def test_offline_the_next_puzzles_are_kept_and_a_move_waits_for_the_connection(contexts, needs_dynamodb):
    game = "english"
    context = contexts.new(viewport=PHONE)
    page = context.new_page()
    with page.expect_response(lambda r: f"/v1/puzzles/daily?game={game}" in r.url) as daily:
        page.goto("/sw/fumbo/")
    puzzle = find(daily.value.json()["id"])
    fumbo = Fumbo(page, game)
    fumbo.wait_for_puzzle(puzzle)
    with page.expect_response(lambda r: "/v1/puzzles/pack?" in r.url) as packed:
        fumbo.solve(puzzle)
    assert packed.value.status == 200
    page.wait_for_function(f"(JSON.parse(localStorage.getItem('ubao.fumbo.pack.{game}')) || []).length === 20")
    pack = page.evaluate(f"JSON.parse(localStorage.getItem('ubao.fumbo.pack.{game}'))")
    assert all("solution" not in item for item in pack)

    context.set_offline(True)
    fumbo.button("next").click()
    kept = find(pack[0]["id"])
    fumbo.wait_for_puzzle(kept)
    first = kept.solution[0]
    squares = move_squares(game, kept.fen, first)
    fumbo.board.click(squares[0], squares[-1])
    offline_text = page.evaluate("document.getElementById('offline-messages').dataset.attemptQueued")
    wait_text(fumbo.status, offline_text.split("%(move)s")[0].strip() or offline_text, "bad")

    with page.expect_response(lambda r: f"/v1/puzzles/{kept.id}/attempt" in r.url, timeout=30_000) as sent:
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
    assert sent.value.json()["result"] in ("continue", "solved")
    token = page_token(page)
    if len(kept.solution) == 1:
        mine = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
        assert mine["history"][0] == {"id": kept.id, "game": game, "result": "solved"}
    # Offline the page made requests that failed: those, and only those, are the problems seen.
    # (the service worker's network-first answer to a request it could not send is ERR_FAILED).
    failed_offline = re.compile(r"/v1/(puzzles/next|validate)\b.*ERR_(INTERNET_DISCONNECTED|FAILED)|ERR_.*/v1/")
    assert all(failed_offline.search(p) for p in contexts.problems), contexts.problems
