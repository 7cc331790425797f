"""A page of a player's history: one Query of the per-player index, filtered within a bounded page."""

from __future__ import annotations

from typing import Any

from games.history.domain import EVALUATED, HistoryFilter, Listing, read_history_cursor, write_history_cursor
from games.repository import GameRepository
from games.views import iso


def history_page(
    store: GameRepository, player_id: str, wanted: HistoryFilter, cursor: str | None, limit: int
) -> dict[str, Any]:
    """The player's games below ``cursor`` that ``wanted`` admits, newest first: at most ``limit`` of the next
    ``EVALUATED`` listings (one Query whatever the player's number of games), and the cursor of what follows."""
    below = read_history_cursor(cursor)
    records, last_read = store.listings_of_player(player_id, below, wanted.conditions(), max(EVALUATED, limit))
    listings = [Listing.from_record(record) for record in records]
    page = listings[:limit]
    following = page[-1].key if len(listings) > limit else last_read
    return {
        "games": [row(listing) for listing in page],
        "cursor": write_history_cursor(following) if following else None,
    }


def row(listing: Listing) -> dict[str, Any]:
    return {
        "id": listing.game_id,
        "game": listing.game,
        "color": listing.color,
        "opponent": {"id": listing.opponent, "name": listing.opponent_name, "cpu_level": listing.opponent_cpu},
        "result": listing.outcome,
        "reason": listing.reason,
        "rating_change": listing.rating_change,
        "rated": listing.rated,
        "computer": listing.computer,
        "live": listing.live,
        "private": listing.private,
        "created_at": iso(listing.created),
    }
