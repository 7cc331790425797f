"""Multi-captures entered hop by hop, and refused moves explained in the page's language.

In a game (against the computer, from a position where a capture is compulsory) and in a daily puzzle whose
first move is a multi-capture: tap the piece, and only its first landing square is marked; tap it, and the
next one is marked, and nothing is sent yet; tap the last, and the move is played. A tap on another piece
shakes it and the note under the board gives the catalog's capture_required text with the capture; the same
move typed is refused by the server with ``error.reason`` capture_required, shown in the same words.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from tests.browser.boards import BoardView, after, expected_pieces, page_config

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}

# A position, the side the player takes, the only (and compulsory) capture, and another piece of theirs
# that could move if no capture were there, with that move.
CASES = {
    "english": ("B:W14,23,32:B9,1", "black", "9x18x27", "1", "1-6"),
    "tanzanian": ("W:Wc3,h2:Bd4,d6,a7", "white", "c3xe5xc7", "h2", "h2-g3"),
}

CREATE = """
async ([game, fen, color]) => {
  const { call, player } = await import("/static/api.js");
  const me = await player();
  const body = { game, color, fen, options: {}, opponent: { type: "cpu", level: 1 } };
  const created = await call("POST", "/v1/games", { body, token: me.token });
  const seats = JSON.parse(localStorage.getItem("ubao.seats") || "{}");
  seats[created.game.id] = created.seat;
  localStorage.setItem("ubao.seats", JSON.stringify(seats));
  return created.game.id;
}
"""


def squares_of(move: str) -> list[str]:
    return move.replace("-", "x").split("x")


def marked(board: BoardView) -> set[str]:
    return set(board.host.evaluate("host => [...host.querySelectorAll('button.dest')].map((b) => b.dataset.square)"))


def refusal(messages: dict, moves: list[str]) -> str:
    return messages["refusal_capture_required"].replace("%(moves)s", ", ".join(moves))


@pytest.mark.parametrize(
    ("game", "lang", "viewport"),
    [("english", "sw", PHONE), ("tanzanian", "tl", PHONE), ("english", "en", DESKTOP), ("tanzanian", "en", PHONE)],
    ids=["english-sw-phone", "tanzanian-tl-phone", "english-en-desktop", "tanzanian-en-phone"],
)
def test_a_multi_capture_is_entered_hop_by_hop_in_a_game(contexts, server, needs_dynamodb, game, lang, viewport):
    fen, colour, capture, other, other_move = CASES[game]
    page = contexts.new_page(viewport=viewport)
    page.goto(f"/{lang}/mchezo/")
    messages = page_config(page)["messages"]
    game_id = page.evaluate(server.with_assets(CREATE), [game, fen, colour])
    page.goto(f"/{lang}/mchezo/#game={game_id}")
    board = BoardView(page.locator("#game .board-host"))
    board.wait_for_pieces(expected_pieces(game, fen))
    note = page.locator("#game .board-note")

    # Another piece: refused on the board, in the page's language, naming the compulsory capture.
    board.click(other)
    page.wait_for_function(
        "([node, text]) => node.textContent === text && node.classList.contains('bad')",
        arg=[note.element_handle(), refusal(messages, [capture])],
    )
    assert "shake" in (board.square(other).get_attribute("class") or "")
    # The same move typed: the server refuses it with error.reason, and the page shows the catalog's words.
    with page.expect_response(lambda r: r.url.endswith("/moves") and r.request.method == "POST") as answer:
        page.locator("#game .move-form input").fill(other_move)
        page.locator("#game .move-form button[type=submit]").click()
    assert answer.value.status == 422 and answer.value.json()["error"]["reason"] == "capture_required"
    page.wait_for_function(
        "([node, text]) => node.textContent === text",
        arg=[page.locator("#game .game-head > .status").element_handle(), refusal(messages, [capture])],
    )

    # The capture, hop by hop: each tap shows only the next landing square, and sends nothing.
    hops = squares_of(capture)
    sent = []
    page.on("request", lambda request: sent.append(request) if request.url.endswith("/moves") else None)
    board.click(hops[0])
    assert marked(board) == {hops[1]}
    for i, hop in enumerate(hops[1:-1], start=2):
        board.click(hop)
        assert marked(board) == {hops[i]}
        assert "sel" in board.square(hop).get_attribute("class")
    assert sent == []
    with page.expect_response(lambda r: r.url.endswith("/moves") and r.request.method == "POST") as answer:
        board.click(hops[-1])
    assert answer.value.ok and answer.value.request.post_data_json["move"] == capture
    page.wait_for_function(
        "([node, move]) => node.textContent.split(/\\s+/)[0] === move",
        arg=[page.locator("#game .moves li").first.element_handle(), capture],
    )
    # The one refusal the test asked for (a 422 on /moves) is expected; nothing else may have gone wrong.
    assert [problem for problem in contexts.problems if not ("422" in problem and "/moves" in problem)] == []


def multi_capture_day(game: str) -> date:
    """The latest day up to today whose daily puzzle opens with a capture of two or more pieces."""
    from puzzles_api.domain.daily import EPOCH, daily_puzzle

    today = datetime.now(UTC).date()
    for offset in range((today - EPOCH).days + 1):
        day = today - timedelta(days=offset)
        if daily_puzzle(game, day).solution[0].count("x") >= 2:
            return day
    raise AssertionError(f"no {game} daily puzzle opening with a multi-capture since {EPOCH}")


@pytest.mark.parametrize(("game", "lang"), [("english", "tl"), ("tanzanian", "sw")])
def test_a_multi_capture_is_entered_hop_by_hop_in_a_puzzle(contexts, needs_dynamodb, game, lang):
    from puzzles_api.domain.daily import daily_puzzle

    day = multi_capture_day(game)
    puzzle = daily_puzzle(game, day)
    page = contexts.new_page(viewport=PHONE)
    page.route(
        f"**/v1/puzzles/daily?game={game}",
        lambda route: route.continue_(url=f"{route.request.url}&date={day.isoformat()}"),
    )
    page.goto(f"/{lang}/fumbo/")
    section = page.locator(f"#puzzle-{game}")
    section.scroll_into_view_if_needed()
    board = BoardView(section.locator(".board-host"))
    board.wait_for_pieces(expected_pieces(game, puzzle.fen))
    move = puzzle.solution[0]
    hops = squares_of(move)
    board.click(hops[0])
    page.wait_for_function(
        "host => host.querySelector('button.dest')", arg=section.locator(".board-host").element_handle()
    )
    sent = []
    page.on("request", lambda request: sent.append(request) if "/attempt" in request.url else None)
    for i, hop in enumerate(hops[1:-1], start=1):
        assert hops[i] in marked(board) and hops[-1] not in marked(board)
        board.click(hop)
    assert sent == [] and hops[-1] in marked(board)
    with page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
        board.click(hops[-1])
    assert attempt.value.request.post_data_json["moves"] == [move]
    assert attempt.value.json()["result"] in ("continue", "solved")
    board.wait_for_pieces(expected_pieces(game, after(game, puzzle.fen, *puzzle.solution[:2])))
    assert contexts.problems == []
