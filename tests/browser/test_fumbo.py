"""The daily puzzle of each game solved through the page: the page fetches it from the API, the player
clicks the solution's moves, the server checks each one and answers, and the page ends with the puzzle
solved and the player's progress. The test knows the answer from puzzles/{game}.jsonl; the page never
sees it."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from tests.browser.boards import BoardView, after, expected_pieces, move_squares, page_config, promotion_sprite
from tests.browser.harness import ROOT, page_token
from tests.checks import draughts_game
from tests.puzzles_api.sets import find

GAMES = ("chess", "english", "tanzanian")
LANGS = {"chess": "en", "english": "sw", "tanzanian": "tl"}


def solution_of(game: str, puzzle_id: str) -> list[str]:
    with open(ROOT / "puzzles" / f"{game}.jsonl", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["id"] == puzzle_id:
                return record["solution"]
    raise AssertionError(f"the daily puzzle {puzzle_id} is not in puzzles/{game}.jsonl")


def clicks_for(game: str, fen: str, move: str) -> list[str] | None:
    """What a person clicks for ``move`` on the puzzle board: the piece and the square where it ends.

    The puzzle board takes from-to and lets the server read it; None when two capture routes share both
    squares, where only the typed move can say which (the page's text box)."""
    squares = move_squares(game, fen, move)
    clicks = [squares[0], squares[-1]]
    if game != "chess":
        rules = draughts_game(game)
        position = rules.from_fen(fen)
        names = rules.squares.name_of
        same = [m for m in position.legal_moves() if (names[m.origin], names[m.destination]) == tuple(clicks)]
        if len(same) > 1:
            return None
    return clicks


def wrong_first_move(puzzle) -> str:
    """A legal first move that neither is the solution's nor wins at once nor is a recorded alternative,
    preferring one a person can click."""
    from shared_rules import get_game

    rules = get_game(puzzle.game)
    position = rules.from_fen(puzzle.fen)
    right = {position.parse_move(puzzle.solution[0])}
    if puzzle.alternatives:  # the alternatives the set records for the solver's first move (they solve too)
        right |= {position.parse_move(text) for text in puzzle.alternatives[0]}
    wrong = [
        position.notation(move)
        for move in position.legal_moves()
        if move not in right and position.play(move).status().result != position.turn
    ]
    assert wrong, f"{puzzle.id} has no wrong first move"
    clickable = [move for move in wrong if clicks_for(puzzle.game, puzzle.fen, move) is not None]
    return (clickable or wrong)[0]


def promotion_day(game: str) -> date:
    """The latest day up to today whose daily puzzle has the solver promote a pawn (the API serves past days)."""
    from puzzles_api.domain.daily import EPOCH, daily_puzzle

    today = datetime.now(UTC).date()
    for offset in range((today - EPOCH).days + 1):
        day = today - timedelta(days=offset)
        puzzle = daily_puzzle(game, day)
        fens = [after(game, puzzle.fen, *puzzle.solution[:i]) for i in range(0, len(puzzle.solution), 2)]
        if any(promotion_sprite(game, fen, move) for fen, move in zip(fens, puzzle.solution[::2])):
            return day
    raise AssertionError(f"no {game} daily puzzle with a promotion since {EPOCH}")


@pytest.mark.parametrize("game", GAMES)
def test_the_daily_puzzle_is_solved_through_the_page(contexts, needs_dynamodb, game):
    solve_daily_puzzle(contexts, game)


def test_a_daily_puzzle_with_a_promotion_is_solved_through_the_page(contexts, needs_dynamodb):
    """Today's puzzle may have no promotion: ask for a day whose puzzle has one (the `date` the API takes)."""
    solve_daily_puzzle(contexts, "chess", promotion_day("chess"))


def daily_puzzle_shown(page, lang: str, game: str) -> tuple[dict, BoardView, str]:
    """The puzzles page opened in ``lang``: today's puzzle of ``game`` as the API sent it, its board once it shows
    the puzzle, and a wrong first move for it."""
    with page.expect_response(lambda r: f"/v1/puzzles/daily?game={game}" in r.url) as daily:
        page.goto(f"/{lang}/fumbo/")
    puzzle = daily.value.json()
    board = BoardView(page.locator(f"#puzzle-{game} .board-host"))
    board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
    return puzzle, board, wrong_first_move(find(puzzle["id"]))


def test_a_wrong_move_fails_the_puzzle_and_the_page_shows_the_solution(contexts, needs_dynamodb):
    game = "english"
    page = contexts.new_page()
    puzzle, board, wrong = daily_puzzle_shown(page, "en", game)
    section = page.locator(f"#puzzle-{game}")
    with page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
        board.play(game, puzzle["fen"], wrong, clicks_for(game, puzzle["fen"], wrong))
    assert attempt.value.json()["result"] == "failed"
    wait_text(section.locator(".status"), page_config(page)["fumbo"]["puzzle_missed"], "bad")
    assert section.locator(".move-form").is_hidden()
    assert section.locator(".puzzle-actions .show-solution").is_visible()  # stepped through in test_fumbo_loop
    token = page_token(page)
    mine = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
    assert mine["solved"] == 0 and mine["failed"] == 1 and mine["streak"] == 0
    assert contexts.problems == []


def solve_daily_puzzle(contexts, game: str, day: date | None = None) -> None:
    lang = LANGS[game]
    page = contexts.new_page()
    if day is not None:
        page.route(
            f"**/v1/puzzles/daily?game={game}",
            lambda route: route.continue_(url=f"{route.request.url}&date={day.isoformat()}"),
        )
    with page.expect_response(lambda r: f"/v1/puzzles/daily?game={game}" in r.url) as daily:
        page.goto(f"/{lang}/fumbo/")
    puzzle = daily.value.json()
    assert set(puzzle) == {"id", "game", "fen", "turn", "rating", "themes", "date"}  # never the solution
    messages = page_config(page)["messages"]
    section = page.locator(f"#puzzle-{game}")
    section.scroll_into_view_if_needed()
    board = BoardView(section.locator(".board-host"))
    status = section.locator(".status")
    board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
    assert section.locator(".meta").inner_text().find(str(puzzle["rating"])) >= 0

    solution = solution_of(game, puzzle["id"])
    for step in range(0, len(solution), 2):
        fen = after(game, puzzle["fen"], *solution[:step])
        move = solution[step]
        clicks = clicks_for(game, fen, move)
        with page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
            if clicks is None:
                section.locator(".move-form input").fill(move)
                section.locator(".move-form button[type=submit]").click()
            else:
                board.play(game, fen, move, clicks)  # a promotion: then the piece, in the board's own dialog
        answer = attempt.value.json()
        if step + 1 < len(solution):
            assert answer["result"] == "continue", answer
            board.wait_for_pieces(expected_pieces(game, after(game, puzzle["fen"], *solution[: step + 2])))
            wait_text(status, messages["puzzle_continue"].split("%(move)s")[0].strip())
        else:
            assert answer["result"] == "solved", answer
    wait_text(status, page_config(page)["fumbo"]["puzzle_solved_next"], "ok")
    board.wait_for_pieces(expected_pieces(game, after(game, puzzle["fen"], *solution)))
    assert section.locator(".move-form").is_hidden()

    progress = page.locator("#progress")
    progress.wait_for(state="visible")
    assert messages["solved_count"]["one"].replace("{n}", "1") in progress.inner_text()
    token = page_token(page)
    mine = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
    assert mine["solved"] == 1
    if day is None:  # today's daily puzzle starts a streak (another day's puzzle is only practice for it)
        assert mine["streak"] == 1
    assert contexts.problems == []


def wait_text(status, text: str, kind: str | None = None) -> None:
    status.page.wait_for_function(
        "([node, text, kind]) => node.textContent.includes(text) && (!kind || node.classList.contains(kind))",
        arg=[status.element_handle(), text, kind],
    )


def test_a_repeat_visit_marks_the_legal_moves_without_asking_the_server_again(contexts, needs_dynamodb):
    """The starting position's legal moves are kept by position (a repeat visit is at most 1 KB over
    the network): the second visit marks the same squares and posts nothing to /v1/validate."""
    page = contexts.new_page()
    chess = lambda r: r.url.endswith("/v1/validate") and json.loads(r.request.post_data)["game"] == "chess"  # noqa: E731
    with page.expect_response(chess) as first:
        page.goto("/en/fumbo/")
    legal = first.value.json()["legal_moves_uci"]
    origin, targets = legal[0][:2], {move[2:4] for move in legal if move.startswith(legal[0][:2])}
    board = BoardView(page.locator("#puzzle-chess .board-host"))

    def marked_after_picking() -> set[str]:
        board.square(origin).click()
        page.locator("#puzzle-chess button.dest").first.wait_for()
        return set(page.locator("#puzzle-chess button.dest").evaluate_all("bs => bs.map(b => b.dataset.square)"))

    assert marked_after_picking() == targets
    validating: list[str] = []

    def note_validation(request) -> None:
        if "/v1/validate" in request.url:
            validating.append(request.url)

    page.on("request", note_validation)
    page.reload()
    page.locator("#puzzle-chess button.mine").first.wait_for()
    assert marked_after_picking() == targets
    page.wait_for_timeout(500)
    assert validating == []
    assert contexts.problems == []
