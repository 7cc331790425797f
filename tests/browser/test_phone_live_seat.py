"""A live table on a 360x740 phone, in Swahili and Tagalog, when the computer has taken the player's seat: the
"take back my seat" button is in view with the board, a tap on the board says why it takes no move, and the
button gives the seat back. The server's clock is moved by the test (``POST /v1/_local/clock``)."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.browser.boards import page_config
from tests.browser.harness import http

PHONE = {"width": 360, "height": 740}


@pytest.fixture(autouse=True)
def clock_put_back(server):
    yield
    http(server.origin, "POST", "/v1/_local/clock", {"reset": True})


def live_game(origin: str) -> tuple[str, dict, dict]:
    """A casual live Tanzanian table at 30 s a move, both seats taken: (id, White's player, Black's). Casual, since a
    rated table whose first turn runs out is aborted (fair play), where a casual one plays on with the computer."""
    white, black = http(origin, "POST", "/v1/players", {}), http(origin, "POST", "/v1/players", {})
    body = {"game": "tanzanian", "color": "white", "rated": False, "options": {"turn_seconds": 30}}
    created = http(origin, "POST", "/v1/games", body, token=white["token"])
    game_id = created["game"]["id"]
    http(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=black["token"])
    # Black is at the table on another phone (a table one player never opens is aborted, fair play).
    http(origin, "POST", f"/v1/games/{game_id}/open", {}, token=black["token"])
    return game_id, white, black


def wait_text(page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector)?.textContent || '').includes(text)",
        arg=[selector, text],
    )


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_seat_back_button_is_in_view_and_the_board_says_why(contexts, server, needs_dynamodb, lang):
    game_id, white, black = live_game(server.origin)
    page = contexts.new_page(viewport=PHONE)
    kept = json.dumps({"player_id": white["player_id"], "token": white["token"]})
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(kept)})")
    # Polling, as without the live socket: its next poll (a second on) is what finds the turn run out.
    page.route_web_socket(re.compile(r"/live\b"), lambda socket: socket.close())
    page.goto(f"/{lang}/mchezo/?id={game_id}")
    messages = page_config(page)["messages"]
    wait_text(page, "#game .status", messages["your_turn"])
    deadline = time.monotonic() + 20  # her page says she is at the table (fair play: else the table is aborted)
    while http(server.origin, "GET", f"/v1/games/{game_id}")["unopened"]:
        assert time.monotonic() < deadline, "her page never said it opened the table"
        time.sleep(0.2)

    # Her phone loses its signal with the page open; her 30 seconds pass, and the first read after the deadline
    # (her opponent's phone) lets the computer play her seat. The signal back, her page hears of it.
    page.context.set_offline(True)
    http(server.origin, "POST", "/v1/_local/clock", {"advance": 31})
    deadline = time.monotonic() + 20
    while not http(server.origin, "GET", f"/v1/games/{game_id}", token=black["token"])["cpu_takeover"]:
        assert time.monotonic() < deadline, "the computer never took the absent seat"
        time.sleep(0.5)
    page.context.set_offline(False)
    wait_text(page, "#game .status", messages["computer_plays_for_you"])
    resume = page.locator('#game [data-action="resume"]')
    resume.wait_for(state="visible")
    box, board = resume.bounding_box(), page.locator("#game .board-host").bounding_box()
    assert box and board and page.evaluate("scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], f"the button is at y={box['y']}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    # A tap on one of her pieces: the note under the board says the computer has her seat.
    page.locator('#game .board-host button[data-square="c3"]').click()
    note = page.locator("#game .board-note")
    assert note.inner_text() == messages["computer_plays_for_you"]
    note_box = note.bounding_box()
    assert note_box and note_box["y"] + note_box["height"] <= PHONE["height"]

    resume.click()
    page.wait_for_function("() => document.querySelector('#game [data-action=resume]').hidden")
    assert http(server.origin, "GET", f"/v1/games/{game_id}")["cpu_takeover"] is None
    assert [p for p in contexts.problems if "ERR_INTERNET_DISCONNECTED" not in p] == []  # only while offline
