"""The load test's live-socket user (tests/load/locustfile.py): a spectator's page on a live table another simulated
player is playing, following it over the live socket (docs/games.md, "Live over a WebSocket") for the table's
time, from the user's own address. Each message counts in Locust's table as a request of type ``WS`` (its size;
no latency: the mover's POST is another user's), a refused or failed connection as a failure."""

from __future__ import annotations

import json
import random
import socket
import time
from typing import Any
from urllib.parse import urlsplit

from tests.load import tables

WAIT = 30.0


def watch(player: Any) -> None:
    """Follow one of the live tables being played, over the socket, as a spectator's page does."""
    if not tables.LIVE_GAMES:
        return
    game_id = random.choice(tables.LIVE_GAMES)
    ticket = player.call("POST", "/v1/live/tickets", "POST /v1/live/tickets")
    if ticket.status_code != 201:
        return
    fire = player.environment.events.request.fire
    started = time.perf_counter()
    try:
        from websockets.sync.client import connect

        origin = urlsplit(player.host)
        raw = socket.create_connection((origin.hostname, origin.port), timeout=WAIT, source_address=(player.address, 0))
        url = f"ws://{origin.hostname}:{origin.port}{ticket.json()['url']}"
        with connect(url, sock=raw, open_timeout=WAIT) as live:
            live.send(json.dumps({"action": "subscribe", "game": game_id, "ply": 0}))
            first = json.loads(live.recv(timeout=WAIT))
            refused = None if first.get("type") == "subscribed" else RuntimeError(str(first.get("error")))
            fire(request_type="WS", name="live subscribe", response_time=(time.perf_counter() - started) * 1000,
                 response_length=0, exception=refused, context={})  # fmt: skip
            until = time.monotonic() + tables.LIVE_SECONDS
            while time.monotonic() < until:
                try:
                    text = live.recv(timeout=until - time.monotonic())
                except TimeoutError:
                    break
                fire(request_type="WS", name="live game message", response_time=0, response_length=len(text),
                     exception=None, context={})  # fmt: skip
    except Exception as error:  # a refused handshake (InvalidStatus), a reset: counted as a failure
        fire(request_type="WS", name="live connect", response_time=(time.perf_counter() - started) * 1000,
             response_length=0, exception=error, context={})  # fmt: skip
