"""The load test's live-socket watcher (tests/load/locustfile.py): a spectator's page on a live table another
simulated player is playing, following it over the live socket (docs/games.md, "Live over a WebSocket") for the
table's time, from the user's own address (tests/load/live_player.py opens the socket and counts each message)."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.load import live_player, tables


def watch(player: Any, seconds: float = tables.LIVE_SECONDS) -> None:
    """Follow one of the live tables being played, over the socket, as a spectator's page does, ``seconds`` long."""
    if not tables.LIVE_GAMES:
        return
    opened = live_player.subscribe(player, {"game": random.choice(tables.LIVE_GAMES), "ply": 0}, "live subscribe")
    if opened is None:
        return
    live, _first = opened
    with live:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            try:
                text = live.recv(timeout=until - time.monotonic())
            except TimeoutError:
                break
            except Exception as error:  # closed under it
                live_player.fire(player, "live message", error=error)
                break
            live_player.fire(player, "live game message", length=len(text))
