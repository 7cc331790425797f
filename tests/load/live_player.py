"""The load test's live-socket players (tests/load/tables.py, live_watch.py): a live table's page following its
game over the live socket (docs/games.md, "Live over a WebSocket") from the player's own address, as
site/static/game.js does: the other side's moves come as messages; the page reads the game itself only when
the turn's time is up (the read that lets the computer play on). Each message counts in Locust's table as a
request of type ``WS`` (its size; no latency: the mover's POST is another user's), a refused or failed
connection as a failure; a page whose socket cannot open polls instead (the caller's loop)."""

from __future__ import annotations

import json
import random
import re
import socket
import time
from typing import Any
from urllib.parse import urlsplit

WAIT = 30.0


def fire(player: Any, name: str, started: float | None = None, length: int = 0, error: Exception | None = None) -> None:
    elapsed = (time.perf_counter() - started) * 1000 if started is not None else 0
    player.environment.events.request.fire(
        request_type="WS", name=name, response_time=elapsed, response_length=length, exception=error, context={}
    )


def subscribe(player: Any, subscription: dict[str, Any], name: str) -> tuple[Any, dict[str, Any]] | None:
    """A socket following ``subscription`` (a ticket, the handshake, the subscription), with its first answer;
    None when it could not open or was refused (counted as a failure)."""
    ticket = player.call("POST", "/v1/live/tickets", "POST /v1/live/tickets")
    if ticket.status_code != 201:
        return None
    started = time.perf_counter()
    try:
        from websockets.sync.client import connect

        origin = urlsplit(player.host)
        raw = socket.create_connection((origin.hostname, origin.port), timeout=WAIT, source_address=(player.address, 0))
        url = f"ws://{origin.hostname}:{origin.port}{ticket.json()['url']}"
        live = connect(url, sock=raw, open_timeout=WAIT)
        live.send(json.dumps({"action": "subscribe", **subscription}))
        first = json.loads(live.recv(timeout=WAIT))
    except Exception as error:  # a refused handshake (InvalidStatus), a reset: counted as a failure
        fire(player, "live connect", started, error=error)
        return None
    if first.get("type") != "subscribed":
        live.close()
        fire(player, name, started, error=RuntimeError(str(first.get("error"))))
        return None
    fire(player, name, started)
    return live, first


def play(player: Any, game_id: str, seat: str, seconds: float, moves: int, wait_seconds: float) -> bool:
    """Play a live table over the socket: think one to four seconds on each turn, ``moves`` moves at most, then
    resign on the next turn; leave a table nobody joined within ``wait_seconds``. False when the socket could not
    open (the caller then polls, as the page does)."""
    opened = subscribe(player, {"game": game_id, "ply": 0}, "live subscribe (player)")
    if opened is None:
        return False
    live, first = opened
    view, seq = first["state"], first["seq"]
    started, moved, think_until = time.monotonic(), 0, None
    with live:
        while time.monotonic() - started < seconds:
            now = time.monotonic()
            state = view.get("state")
            if state == "finished":
                player.finished.append(game_id)
                return True
            if state == "waiting" and now - started > wait_seconds:
                return True  # nobody came: the table is left
            mine = state == "active" and view.get("turn") == seat and view.get("legal_moves")
            if mine:
                think_until = think_until or now + random.uniform(1, 4)
                if now >= think_until:
                    if moved >= moves:
                        player.call("POST", f"/v1/games/{game_id}/resign", "POST /v1/games/{id}/resign")
                        player.finished.append(game_id)
                        return True
                    move = {"move": random.choice(view["legal_moves"]), "ply": view["ply"]}
                    player.call("POST", f"/v1/games/{game_id}/moves", "POST /v1/games/{id}/moves (live)", move)
                    moved, think_until = moved + 1, None
                    view = {**view, "turn": None}  # the socket brings the game after the move
                    continue
            wait = think_until - now if mine and think_until else (view.get("turn_ms_left") or 30_000) / 1000 + 0.5
            try:
                found = listen(player, live, game_id, wait, bool(mine))
            except ConnectionError:
                return False  # closed under it: the page polls from here
            if found is not None and found[1] > seq:
                view, seq = found
    return True


def listen(player: Any, live: Any, game_id: str, wait: float, mine: bool) -> tuple[dict[str, Any], int] | None:
    """The game and its ``seq`` from the next message within ``wait`` seconds; when none comes on the other's
    turn, the game read over HTTP (the turn's time is up: the read that lets the computer play on) with the
    next ``seq``; None when nothing is new. ``ConnectionError`` when the socket closed."""
    try:
        text = live.recv(timeout=max(0.05, min(wait, 30.0)))
    except TimeoutError:
        if mine:
            return None
        answer = player.call("GET", f"/v1/games/{game_id}", "GET /v1/games/{id} (live, time up)")
        seq = re.search(r"\.(\d+)\"?$", answer.headers.get("ETag") or "")  # the ETag is "<layout>.<seq>"
        return (answer.json(), int(seq.group(1))) if answer.status_code == 200 and seq else None
    except Exception as error:
        fire(player, "live message", error=error)
        raise ConnectionError(str(error)) from error
    fire(player, "live game message (player)", length=len(text))
    message = json.loads(text)
    return (message["state"], message["seq"]) if message.get("type") == "game" else None
