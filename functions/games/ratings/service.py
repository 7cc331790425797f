"""Game ratings over a ``RatingRepository`` and a clock: the change a rated game's end makes, applying it to
each player exactly once, and reading ratings, histories and leaderboards.

Exactly once, with single-item conditional writes only:

1. the change is computed before the event that ends the game is appended, and travels in that event
   (``GameLog`` asks ``change_for``); the log's conditional append lets exactly one ending event in, so
   the change is fixed once, whoever raced to end the game;
2. ``settle`` adds the change to each player's rating item with a write conditional on the version it read;
   the item keeps the ids of the last games applied, so a retry, or a racing settle that lost the write and
   read again, finds the game applied and writes nothing.

A settle cut short (the store failed) answers 503; the client's retry of the same action finds the game
over and settles again (``GameLog.act`` settles whenever it returns a rated game's end).

The all-time wins, draws and losses a profile shows are kept the same way, for rated and casual games alike
(``count_results``, whenever ``GameLog.act`` returns a finished game): one tally item per player and game,
written conditionally on the version read, holding the ids of its last counted games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from common.persistence.deadline import StoreUnavailable
from common.players.domain import country_code
from common.players.lookalikes import lookalike_numbers

from games.domain import COLORS, GameHead, other
from games.domain.rating_change import RatingChange, SideChange
from games.ratings.domain import (
    PAIRING_LIMIT,
    PAIRING_WINDOW_MS,
    START,
    GameRating,
    ResultTally,
    counted_results,
    pair_key,
    rating_change,
    seat_ids,
)
from games.ratings.repository import RatingRepository
from games.repository import GameRepository, head_pages
from shared_rules.names import GAME_NAMES

#: Attempts at one player's conditional write before giving up (503) under extreme contention.
MAX_ROUNDS = 5
BOARD_SIZE = 50
#: Index items one leaderboard Query reads: the top 50 and room for those whose eligibility has lapsed.
BOARD_READ = 4 * BOARD_SIZE
#: Points of the rating history a player's page draws.
GRAPH_POINTS = 50
#: A recount reports its progress after each page of the games table and after this many tallies.
RECOUNT_REPORT_EVERY = 100


class GameRatings:
    def __init__(self, store: RatingRepository, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------------------- a rated game's end
    def change_for(self, ended: GameHead) -> RatingChange | None:
        """The change the end of ``ended`` (a rated game, as it will be once its last event is in) makes:
        both ratings in one read, each player updated against the other's rating before the game."""
        ids = seat_ids(*(seat.player_id if seat else None for seat in (ended.white, ended.black)))
        if ids is None or ended.result in ("ongoing", "aborted"):
            return None
        found = self.store.get_many(list(ids.values()), ended.game)
        # Each deviation grown for the player's time away up to this end (``GameRating.after`` starts there too).
        white, black = (
            found.get(ids[color], GameRating(ids[color], ended.game)).at(ended.updated).rating for color in COLORS
        )
        return rating_change(white, black, ended.result, stood_in=ended.cpu_played)

    def pairing_counts(self, started: GameHead) -> bool:
        """Whether the rated game ``started`` (both seats just taken) may change ratings: it is among the first
        ``PAIRING_LIMIT`` rated games of its game between its two players in ``PAIRING_WINDOW_MS``. The claim is
        kept by game id, so asking again for the same game gives the same answer (one read and one write)."""
        ids = seat_ids(*(seat.player_id if seat else None for seat in (started.white, started.black)))
        if ids is None:
            return False
        key = pair_key(ids["white"], ids["black"])
        return self.store.claim_pairing(
            key, started.game, started.id, started.updated, PAIRING_WINDOW_MS, PAIRING_LIMIT
        )

    def seat_ratings(self, started: GameHead) -> tuple[int, int] | None:
        """Both players' ratings in the game of ``started`` (a live table just begun between two people), a player
        without one at the starting rating: one read of both."""
        ids = seat_ids(*(seat.player_id if seat else None for seat in (started.white, started.black)))
        if ids is None:
            return None
        found = self.store.get_many([ids["white"], ids["black"]], started.game)
        now = self.now_ms()
        return (
            _shown(found.get(ids["white"]), now),
            _shown(found.get(ids["black"]), now),
        )

    def settle(self, head: GameHead) -> None:
        """Apply the rating change of the ended game ``head`` to both players, each exactly once."""
        change = head.rating_change
        if change is None or head.state != "finished":
            return
        for color in COLORS:
            seat, facing = head.seat(color), head.seat(other(color))
            if seat is not None and seat.player_id:
                opponent = facing.player_id if facing is not None else None
                self._apply(seat.player_id, head, change.side(color), seat.name, opponent)

    def _apply(
        self, player_id: str, head: GameHead, change: SideChange, name: str | None, opponent: str | None
    ) -> None:
        for _ in range(MAX_ROUNDS):
            current = self.store.get_with_card(player_id, head.game) or GameRating(player_id, head.game)
            if current.has_applied(head.id):
                return self._recopy_country(current)
            if self.store.save(current.after(head.id, change, head.updated, name, opponent), self.now_ms()):
                return
        raise StoreUnavailable("a rating is too busy right now; try again")

    def _recopy_country(self, rating: GameRating) -> None:
        """A settle found its game applied (a retry, perhaps after a 503 that cut short the check of the card
        after the write): a listed rating's country copies are made to agree with the card (one Query; a write
        only where they disagree), so a country hidden meanwhile never stays on a list."""
        until = rating.board_until()
        if until is not None and until > self.now_ms():
            self.store.copy_card(rating.player_id)

    # ----------------------------------------------------------------- a game's end in the tallies
    def count_results(self, head: GameHead) -> None:
        """Add the finished game ``head`` to both players' wins, draws and losses, each exactly once (a game
        that does not count, ``counted_results``, reads nothing)."""
        for player_id, outcome in counted_results(head):
            self._count(player_id, head, outcome)

    def _count(self, player_id: str, head: GameHead, outcome: str) -> None:
        for _ in range(MAX_ROUNDS):
            current = self.store.tally(player_id, head.game) or ResultTally(player_id, head.game)
            if current.has_counted(head.id) or self.store.save_tally(current.after(head.id, outcome)):
                return
        raise StoreUnavailable("a player's results are too busy right now; try again")

    # --------------------------------------------------------------------------------------- reading
    def of_player(self, player_id: str) -> dict[str, dict[str, Any]]:
        """The player's ratings by game (the games played rated only), as of now: one Query."""
        now = self.now_ms()
        return {rating.game: rating_view(rating.at(now)) for rating in self.store.of_player(player_id)}

    def history(self, player_id: str, game: str) -> tuple[list[list[int]], dict[str, Any]]:
        """The last points of the player's rating history in ``game`` ([ended at (epoch ms), rating]) and the
        rating as of now (the start rating before the first rated game): one read."""
        rating = self.store.get(player_id, game) or GameRating(player_id, game)
        return [list(point) for point in rating.history[-GRAPH_POINTS:]], rating_view(rating.at(self.now_ms()))

    def board(self, game: str, country: str | None = None) -> list[dict[str, Any]]:
        """The leaderboard of ``game``, or of its players who show ``country`` (a code of ``COUNTRIES``;
        ``InvalidCountry`` otherwise): one Query on the maintained index."""
        scope = country_code(country) if country is not None else None
        listed = self.store.board(game, self.now_ms(), BOARD_READ, scope)[:BOARD_SIZE]
        numbers = lookalike_numbers([rating.name for rating in listed])
        return [
            {
                "id": rating.player_id,
                "name": rating.name,
                "rating": round(rating.rating.rating),
                "games": rating.games,
                "lookalike": number,
            }
            for rating, number in zip(listed, numbers, strict=True)
        ]


def backfill_countries(store: RatingRepository) -> tuple[int, int]:
    """Once, after ``RatingsByCountry`` is deployed: every listed player's card copied onto their rating items (the
    rating list by country; docs/games.md, "The back-fill"). (players walked, items written); a second run
    writes nothing."""
    players = sorted({player for game in GAME_NAMES for player in store.listed_players(game)})
    return len(players), sum(store.copy_card(player) for player in players)


def public_ratings(store: RatingRepository, player_id: str, now: int) -> dict[str, Any]:
    """What the player's partition shows anyone, in one Query: the country on their public card (None when
    hidden), their ratings by game, each with its last points for the graph, and their all-time wins, draws
    and losses by game (``results``)."""
    found = store.public_partition(player_id)
    ratings = {
        rating.game: {
            **rating_view(rating.at(now)),
            "points": [list(point) for point in rating.history[-GRAPH_POINTS:]],
        }
        for rating in found.ratings
    }
    results = {tally.game: tally.counts() for tally in found.tallies if any(tally.counts().values())}
    return {"country": found.country, "ratings": ratings, "results": results}


def rating_view(rating: GameRating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating.rating),
        "rd": round(rating.rating.rd),
        "provisional": rating.provisional,
        "games": rating.games,
    }


def _shown(rating: GameRating | None, now: int) -> int:
    """A rating as the lists show it (rounded); a player who has none yet, at the starting rating."""
    return round(rating.at(now).rating.rating) if rating is not None else round(START.rating)


@dataclass
class Recount:
    """How far a recount of the tallies has gone: pages of the games table and games read, results that count
    found; tallies to check, checked and written."""

    pages: int = 0
    games: int = 0
    results: int = 0
    tallies: int = 0
    checked: int = 0
    written: int = 0


def recount_results(
    games: GameRepository,
    ratings: RatingRepository,
    page_size: int = 200,
    report: Callable[[Recount], None] = lambda _: None,
) -> Recount:
    """Set every player's tallies to what their finished games say: the back-fill of the games that ended before
    the tallies existed (``local/backfill_results.py``). A Scan of the games table a page at a time, the results
    gathered by player and game, then each tally read and written on the version read (``ResultTally.recounted``:
    the games counted since the Scan read them are kept), only where its counts change. Games that end meanwhile
    are counted once whichever comes first; a second run writes nothing; a run cut short is run again."""
    done = Recount()
    ended: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    for heads in head_pages(games, page_size):
        done.pages += 1
        for head in heads:
            done.games += 1
            for player_id, outcome in counted_results(head):
                done.results += 1
                ended.setdefault((player_id, head.game), []).append((head.updated, head.id, outcome))
        report(done)
    done.tallies = len(ended)
    for (player_id, game), found in sorted(ended.items()):
        done.written += _recount(
            ratings, player_id, game, [(game_id, outcome) for _, game_id, outcome in sorted(found)]
        )
        done.checked += 1
        if done.checked % RECOUNT_REPORT_EVERY == 0 or done.checked == done.tallies:
            report(done)
    return done


def _recount(store: RatingRepository, player_id: str, game: str, ended: list[tuple[str, str]]) -> int:
    """Write the player's recounted tally in ``game`` if its counts change: 1 if written, 0 if not."""
    for _ in range(MAX_ROUNDS):
        current = store.tally(player_id, game) or ResultTally(player_id, game)
        recounted = current.recounted(ended)
        if recounted.counts() == current.counts():
            return 0
        if store.save_tally(recounted):
            return 1
    raise StoreUnavailable("a player's results are too busy right now; try again")
