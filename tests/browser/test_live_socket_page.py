"""Two phones (360x740) play a live chess table to the end with the live socket, and again with the socket blocked:
with it the moves come over the socket and the pages hardly poll; without it the pages poll every second, as
before, and nothing else changes (no message, the same game)."""

from __future__ import annotations

import re

import pytest

from shared_rules import get_game
from tests.browser.boards import after
from tests.browser.harness import http
from tests.browser.test_mchezo import Player
from tests.checks import known

PHONE = {"width": 360, "height": 740}
GAME = "chess"
START = get_game(GAME).start().fen()
MOVES = ["e4", "e5", "Nf3", "Nc6"]


def live_game(asha: Player, baraka: Player) -> str:
    baraka.join(asha.create_live(GAME, 60))
    return known(re.search(r"game=([\w-]+)", asha.page.url)).group(1)


def watch_the_wire(player: Player) -> dict:
    """What the page sends and gets: its polls (GET .../games/{id}?moves_after=) and its sockets' messages."""
    seen: dict = {"polls": 0, "frames": 0, "sockets": 0}

    def on_request(request) -> None:
        if request.method == "GET" and "moves_after=" in request.url:
            seen["polls"] += 1

    def on_socket(socket) -> None:
        seen["sockets"] += 1
        socket.on("framereceived", lambda _: seen.__setitem__("frames", seen["frames"] + 1))

    player.page.on("request", on_request)
    player.page.on("websocket", on_socket)
    return seen


def play_to_the_end(server, asha: Player, baraka: Player, socket: bool) -> tuple[dict, dict]:
    wires = watch_the_wire(asha), watch_the_wire(baraka)
    game_id = live_game(asha, baraka)
    if socket:  # both pages follow the game on the socket (a busy machine's cold starts can take a while)
        for player, wire in zip((asha, baraka), wires, strict=True):
            for _ in range(600):
                if wire["frames"]:
                    break
                player.page.wait_for_timeout(100)
            assert wire["frames"], "the page never got its subscription's answer"
            wire.update(polls=0, frames=0)
    moves: list[str] = []
    for mover, other, move in zip((asha, baraka) * 2, (baraka, asha) * 2, MOVES, strict=True):
        mover.move(GAME, after(GAME, START, *moves), move)
        moves.append(move)
        mover.sees(GAME, START, moves, poll=False)
        other.sees(GAME, START, moves, poll=False)  # by the socket, or by the one-second poll without it
    baraka.click_action("resign")
    asha.page.locator('#game [data-action="resign"]').wait_for(state="hidden")  # the end reached her page too
    assert http(server.origin, "GET", f"/v1/games/{game_id}")["status"]["result"] == "white"
    return wires


@pytest.mark.slow
def test_a_live_table_plays_to_the_end_over_the_socket(contexts, server, needs_dynamodb):
    asha = Player(contexts, "sw", "Asha", viewport=PHONE)
    baraka = Player(contexts, "en", "Baraka", viewport=PHONE)
    wires = play_to_the_end(server, asha, baraka, socket=True)
    for wire in wires:
        assert wire["sockets"] >= 1 and wire["frames"] >= len(MOVES) // 2  # the other side's moves came this way
        assert wire["polls"] <= 2, wire  # the page read the game only when its own move needed it
    assert not contexts.problems, contexts.problems


@pytest.mark.slow
def test_with_the_socket_blocked_the_same_game_plays_by_polling(contexts, server, needs_dynamodb):
    asha = Player(contexts, "sw", "Asha", viewport=PHONE)
    baraka = Player(contexts, "en", "Baraka", viewport=PHONE)
    for player in (asha, baraka):  # a network that lets no WebSocket through: each is closed as it opens
        player.page.route_web_socket(re.compile(r"/live\b"), lambda socket: socket.close())
    wires = play_to_the_end(server, asha, baraka, socket=False)
    for wire in wires:
        assert wire["frames"] == 0 and wire["polls"] >= 2, wire  # polling carried the game
    for player in (asha, baraka):
        assert player.page.locator("#game .status").inner_text()  # a result, and no word about the socket
    assert not contexts.problems, contexts.problems
