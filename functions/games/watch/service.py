"""The list of games on the air for one game (chess, English or Tanzanian draughts): one Query of the index."""

from __future__ import annotations

from typing import Any

from games.domain import COLORS, GameHead
from games.repository import GameRepository
from games.views import iso
from games.watch.domain import LIST_SIZE, lowest_order


def live_games(store: GameRepository, game: str, now_ms: int) -> list[dict[str, Any]]:
    """At most ``LIST_SIZE`` games being played now, live tables first: what a spectator needs to choose one."""
    return [summary(head) for head in store.on_air(game, lowest_order(now_ms), LIST_SIZE)]


def summary(head: GameHead) -> dict[str, Any]:
    players = {}
    for n, color in enumerate(COLORS):
        seat = head.seat(color)
        players[color] = {
            "name": seat.name if seat else None,
            "rating": head.seat_ratings[n] if head.seat_ratings else None,
        }
    return {
        "id": head.id,
        "game": head.game,
        "players": players,
        "ply": head.ply,
        "turn": head.turn,
        "live": head.turn_seconds is not None,
        "turn_seconds": head.turn_seconds,
        "rated": head.rated,
        "updated_at": iso(head.updated),
    }
