"""Two phones (360x740, one in Swahili, one in Tagalog) play a live Tanzanian game at 30 seconds a move: the
countdown sits on the board's top edge, moves show on the other phone within the one-second poll, one phone
goes away and the computer plays on for it, and it comes back on the same device and takes its seat.

The server's clock is moved by the test (``POST /v1/_local/clock``, local/clock.py) instead of waiting 30 s."""

from __future__ import annotations

import re

import pytest

from shared_rules import get_game
from tests.browser.boards import after
from tests.browser.harness import http
from tests.browser.test_mchezo import Player
from tests.checks import known

PHONE = {"width": 360, "height": 740}
GAME = "tanzanian"
START = get_game(GAME).start().fen()


def countdown(player: Player) -> str:
    clock = player.page.locator("#game .turn-clock")
    clock.wait_for(state="visible")
    return clock.inner_text()


def assert_on_the_board(player: Player) -> None:
    """The countdown is on screen on the board's top edge, within the phone's width."""
    clock = player.page.locator("#game .turn-clock").bounding_box()
    board = player.page.locator("#game .board-host").bounding_box()
    assert clock and board
    assert clock["x"] >= 0 and clock["x"] + clock["width"] <= PHONE["width"]
    bottom = clock["y"] + clock["height"]
    assert bottom <= board["y"] + 1 and board["y"] - bottom < 12 and clock["height"] < 40  # one line, on the edge
    assert clock["y"] + clock["height"] <= PHONE["height"]


@pytest.fixture(autouse=True)
def clock_put_back(server):
    """The server's clock back to the system's after the test: the next test on this server reads deadlines
    (days left) as a phone does."""
    yield
    http(server.origin, "POST", "/v1/_local/clock", {"reset": True})


@pytest.mark.slow
def test_two_phones_play_a_live_table_and_the_computer_keeps_an_absent_seat(contexts, server, needs_dynamodb):
    asha = Player(contexts, "sw", "Asha", viewport=PHONE)
    baraka = Player(contexts, "tl", "Baraka", viewport=PHONE)
    for player in (asha, baraka):  # the polling path (the live socket's: test_live_socket_page.py)
        player.page.route_web_socket(re.compile(r"/live\b"), lambda socket: socket.close())
    link = asha.create_live(GAME, 30)
    baraka.join(link)
    game_url = asha.page.url
    game_id = known(re.search(r"game=([\w-]+)", game_url)).group(1)

    # A fresh turn of 30 seconds, read a moment after it began: on a busy machine that moment is a few
    # seconds of real time, so any count above 20 says the turn is new (the one that ran out reads 0).
    seconds = re.compile(r"\b(30|2[1-9])\b")
    assert seconds.search(countdown(asha)) and seconds.search(countdown(baraka))
    assert "Zamu yako" in countdown(asha)  # Swahili: her move, and the seconds left
    assert "segundo" in countdown(baraka)  # Tagalog: the opponent's seconds
    assert_on_the_board(asha)
    assert_on_the_board(baraka)

    moves: list[str] = []
    for mover, watcher, move in ((asha, baraka, "c3-d4"), (baraka, asha, "f6-e5")):
        mover.move(GAME, after(GAME, START, *moves), move)
        moves.append(move)
        mover.sees(GAME, START, moves, poll=False)
        watcher.sees(GAME, START, moves, poll=False)  # the page reads a live game every second by itself

    # Asha's phone goes away on her move; her 30 seconds pass on the server's clock.
    asha.page.goto("about:blank")  # her page is gone: nothing of hers polls any more
    http(server.origin, "POST", "/v1/_local/clock", {"advance": 31})
    # Baraka's page, polling, is the first to read the game: the computer plays for Asha at once.
    baraka.wait_status(baraka.messages["computer_plays_for_opponent"])
    state = http(server.origin, "GET", f"/v1/games/{game_id}")
    assert state["cpu_takeover"]["seat"] == "white" and state["ply"] == 3
    moves = state["moves"]
    baraka.sees(GAME, START, moves, poll=False)
    assert seconds.search(countdown(baraka))  # a whole new turn for him

    # Baraka plays on against the computer, which answers for Asha at once.
    baraka.move(GAME, after(GAME, START, *moves), state["legal_moves"][0])
    baraka.wait_status(baraka.messages["computer_plays_for_opponent"])
    moves = http(server.origin, "GET", f"/v1/games/{game_id}")["moves"]
    assert len(moves) == 5
    baraka.sees(GAME, START, moves, poll=False)

    # Asha opens the game again on the same phone: her seat comes back to her, and Baraka's page shows it.
    back = asha  # the same browser, so the same player token in its storage
    back.open(game_url)
    back.wait_status(back.messages["waiting_move"])
    assert http(server.origin, "GET", f"/v1/games/{game_id}")["cpu_takeover"] is None
    baraka.wait_status(baraka.messages["your_turn"])

    state = http(server.origin, "GET", f"/v1/games/{game_id}")
    baraka.move(GAME, after(GAME, START, *moves), state["legal_moves"][0])
    moves = [*moves, state["legal_moves"][0]]
    back.sees(GAME, START, moves, poll=False)
    assert "Zamu yako" in countdown(back)
    state = http(server.origin, "GET", f"/v1/games/{game_id}")
    back.move(GAME, after(GAME, START, *moves), state["legal_moves"][0])
    moves = [*moves, state["legal_moves"][0]]
    baraka.sees(GAME, START, moves, poll=False)
    assert http(server.origin, "GET", f"/v1/games/{game_id}")["cpu_takeover"] is None
    assert not contexts.problems, contexts.problems
