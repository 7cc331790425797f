"""A page of a player's history: one Query of the per-player index, filtered within a bounded page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.history.domain import (
    EVALUATED,
    PROFILE_READ,
    RECENT_SHOWN,
    HistoryFilter,
    Listing,
    listings_of,
    read_history_cursor,
    write_history_cursor,
)
from games.ratings.repository import RatingRepository
from games.ratings.service import public_ratings
from games.repository import GameRepository, head_pages
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


def player_profile(store: GameRepository, ratings: RatingRepository, player_id: str, now: int) -> dict[str, Any]:
    """What anyone may see of a player, in two Queries: their newest ``PROFILE_READ`` public games (the name they
    last played under, the latest ``RECENT_SHOWN``) and their partition of the ratings table (the card's country,
    the ratings with the points of each graph, the all-time wins, draws and losses by game). Nothing private: no
    token, no private game, no player they blocked."""
    records, _ = store.listings_of_player(player_id, None, HistoryFilter(public_only=True).conditions(), PROFILE_READ)
    listings = [Listing.from_record(record) for record in records]
    names = [listing.name for listing in listings if listing.name]
    return {
        "id": player_id,
        "name": names[0] if names else None,
        **public_ratings(ratings, player_id, now),
        "games_read": len(listings),
        "recent": [row(listing) for listing in listings[:RECENT_SHOWN]],
    }


@dataclass
class Backfill:
    """How far a back-fill of the listings has gone: pages of the table read, games seen, listings written."""

    pages: int = 0
    games: int = 0
    written: int = 0


def backfill_listings(
    store: GameRepository, page_size: int = 200, report: Callable[[Backfill], None] = lambda _: None
) -> Backfill:
    """Write the listings each game's head implies where there are none: the games that ended before the
    history's listings existed (round four) appear in their players' history. A Scan of the whole table, a
    page at a time (``report`` after each); a listing that stands is the game's own and is left alone (a
    write conditional on its absence), so a second run writes nothing and a run cut short is run again."""
    done = Backfill()
    for heads in head_pages(store, page_size):
        done.pages += 1
        for head in heads:
            done.games += 1
            records = [listing.record(head.seq) for listing in listings_of(head)]
            done.written += store.save_listings(records, missing_only=True)
        report(done)
    return done
