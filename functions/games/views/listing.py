"""A player's games, as one list over the two seats' indexes (newest activity first, "your move" first)."""

from __future__ import annotations

from typing import Any

from games.domain import COLORS, Color
from games.repository import GameRepository, Listed
from games.views import order_range, read_cursor, summary_view, write_cursor


def list_games(store: GameRepository, player_id: str, status: str, cursor: str | None, limit: int) -> dict[str, Any]:
    """One page of the player's games and the cursor of the next (None on the last)."""
    low, high = order_range(status)
    positions = read_cursor(cursor, status)
    fetched: dict[Color, list[Listed]] = {}
    more: dict[Color, bool] = {}
    for color in COLORS:
        if positions[color] == "end":
            fetched[color], more[color] = [], False
        else:
            fetched[color], more[color] = store.games_of_player(player_id, color, low, high, positions[color], limit)
    page: list[tuple[Color, Listed]] = []
    taken = {color: 0 for color in COLORS}
    while len(page) < limit:  # merge two lists, each already in descending order, keeping each list's order
        candidates = [color for color in COLORS if taken[color] < len(fetched[color])]
        if not candidates:
            break
        color = max(candidates, key=lambda c: fetched[c][taken[c]].order)
        page.append((color, fetched[color][taken[color]]))
        taken[color] += 1
    following: dict[str, Any] = {}
    for color in COLORS:
        if taken[color] == len(fetched[color]) and not more[color]:
            following[color] = "end"
        elif taken[color]:
            last = fetched[color][taken[color] - 1]
            following[color] = [last.order, last.head.id]
        else:
            following[color] = positions[color]
    done = all(value == "end" for value in following.values())
    return {
        "games": [summary_view(listed.head, color) for color, listed in page],
        "cursor": None if done else write_cursor(status, following),
    }
