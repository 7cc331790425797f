"""A player's games, as one list over the two seats' indexes (newest activity first, "your move" first)."""

from __future__ import annotations

from typing import Any

from games.codec import head_from
from games.domain import COLORS, Color, DamagedHead, GameHead
from games.repository import GameRepository
from games.views import order_range, read_cursor, summary_view, write_cursor


def list_games(store: GameRepository, player_id: str, status: str, cursor: str | None, limit: int) -> dict[str, Any]:
    """One page of the player's games and the cursor of the next (None on the last)."""
    low, high = order_range(status)
    positions = read_cursor(cursor, status)
    fetched: dict[Color, list[dict[str, Any]]] = {}
    more: dict[Color, bool] = {}
    for color in COLORS:
        if positions[color] == "end":
            fetched[color], more[color] = [], False
        else:
            fetched[color], more[color] = store.games_of_player(player_id, color, low, high, positions[color], limit)
    page: list[tuple[Color, dict[str, Any]]] = []
    taken = {color: 0 for color in COLORS}
    while len(page) < limit:  # merge two lists, each already in descending order, keeping each list's order
        candidates = [color for color in COLORS if taken[color] < len(fetched[color])]
        if not candidates:
            break
        color = max(candidates, key=lambda c: fetched[c][taken[c]][f"{c}_order"])
        page.append((color, fetched[color][taken[color]]))
        taken[color] += 1
    following: dict[str, Any] = {}
    for color in COLORS:
        if taken[color] == len(fetched[color]) and not more[color]:
            following[color] = "end"
        elif taken[color]:
            last = fetched[color][taken[color] - 1]
            following[color] = [last[f"{color}_order"], last["id"]]
        else:
            following[color] = positions[color]
    done = all(value == "end" for value in following.values())
    return {
        "games": [summary_view(_listed(record), color) for color, record in page],
        "cursor": None if done else write_cursor(status, following),
    }


def _listed(record: dict[str, Any]) -> GameHead:
    try:
        return head_from(record)
    except DamagedHead:  # an older head format: the list needs no position, so read what it shows
        return head_from({**record, "fen": record.get("anchor_fen") or "", "memory": None})
