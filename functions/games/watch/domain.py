"""Which games are on the air and in what order: live tables first, the top-rated first (the mean of the two
ratings when the table started), then games by correspondence with a move in the last hour, the most recently
active first. Pure: the codec writes the keys, the service reads them."""

from __future__ import annotations

from typing import Any

from games.domain import COLORS, GameHead

#: The rank of a game on the air times RANK_SCALE, plus a live table's rating (the mean of its two, 0 to 9,999)
#: times ORDER_SCALE, plus its last activity (epoch ms): one descending Query gives the live tables first, the
#: top-rated first, then the correspondence games, the latest active first. (Heads written before the ratings
#: had the rank times ORDER_SCALE: below the list's lower bound, they come back with their next move.)
ORDER_SCALE = 10**13
RATING_TOP = 9_999
RANK_SCALE = (RATING_TOP + 1) * ORDER_SCALE
RANK_LIVE, RANK_CORRESPONDENCE = 2, 1
#: A game by correspondence is on the list while its last move is this recent.
RECENT_MS = 3_600_000
#: The most games a list shows (one Query reads at most this many index entries).
LIST_SIZE = 50


def on_air(head: GameHead) -> bool:
    """An active game between two people that nobody made private. A game against the computer is not listed
    (a person playing the computer alone is no match to watch); a challenge of the lobby is public."""
    if head.state != "active":
        return False
    if bool(head.options.get("private", False)) and head.seek is None:
        return False
    return all((seat := head.seat(color)) is not None and seat.player_id for color in COLORS)


def air_order(head: GameHead) -> int:
    if head.turn_seconds is None:
        return RANK_CORRESPONDENCE * RANK_SCALE + head.updated
    rating = min(max(round(sum(head.seat_ratings) / 2), 0), RATING_TOP) if head.seat_ratings else 0
    return RANK_LIVE * RANK_SCALE + rating * ORDER_SCALE + head.updated


def air_keys(head: GameHead) -> dict[str, Any]:
    """The index keys a head carries while it is on the air (none otherwise: the sparse index drops it)."""
    if not on_air(head):
        return {}
    return {"air_game": head.game, "air_order": air_order(head)}


def lowest_order(now_ms: int) -> int:
    """Below this a game is off the list: a correspondence game whose last move is older than an hour."""
    return RANK_CORRESPONDENCE * RANK_SCALE + now_ms - RECENT_MS
