"""The history's listings (``games.history``) on the in-memory store, moto and dynalite: every filter and the
cursor agree with a brute-force filter over 300 generated games of mixed kinds, a page is one Query of at
most ``EVALUATED`` listings, a listing only moves forward, and private games never reach another's list."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from games.history.domain import EVALUATED, KINDS, OUTCOMES, HistoryFilter, Listing, listing_key
from games.history.service import history_page
from games.repository import GameStore, InMemoryGameStore, StoredGames

from shared_rules.names import GAME_NAMES as GAMES
from tests.stores import STORES, on_each_store

ME = "p-me-0000000"
OTHERS = [f"p-other-{n:04d}" for n in range(5)]


@pytest.fixture(params=STORES)
def games_store(request):
    return on_each_store(request, InMemoryGameStore, GameStore)


def generated(count: int = 300, seed: int = 41) -> list[Listing]:
    """My listings of ``count`` games of every kind, created at distinct times (some at the same millisecond)."""
    rng = random.Random(seed)
    listings = []
    for number in range(count):
        computer = rng.random() < 0.2
        outcome = rng.choice(OUTCOMES)
        opponent = None if computer else rng.choice(OTHERS)
        listings.append(
            Listing(
                player_id=ME,
                game_id=f"g{number:011d}",
                color=rng.choice(("white", "black")),
                name="Me",
                game=rng.choice(GAMES),
                created=1_750_000_000_000 + rng.randrange(0, 90 * 86_400_000) // 1000 * 1000,
                opponent=opponent,
                opponent_name=None if computer else f"Name {opponent}",
                opponent_cpu=rng.randint(1, 5) if computer else None,
                outcome=outcome,
                reason=None if outcome == "ongoing" else "resignation",
                rating_change=rng.randint(-20, 20) if not computer and rng.random() < 0.5 else None,
                rated=not computer and rng.random() < 0.5,
                computer=computer,
                live=rng.random() < 0.3,
                tournament=False,
                private=not computer and rng.random() < 0.25,
            )
        )
    return listings


def brute_force(listings: list[Listing], wanted: HistoryFilter) -> list[str]:
    kind_flags = {
        "rated": lambda item: item.rated,
        "casual": lambda item: not item.rated,
        "computer": lambda item: item.computer,
        "live": lambda item: item.live,
        "correspondence": lambda item: not item.live,
        "tournament": lambda item: item.tournament,
    }
    kept = [
        item
        for item in listings
        if (wanted.game is None or item.game == wanted.game)
        and (wanted.result is None or item.outcome == wanted.result)
        and (wanted.kind is None or kind_flags[wanted.kind](item))
        and (wanted.opponent is None or item.opponent == wanted.opponent)
        and not (wanted.public_only and item.private)
    ]
    return [item.game_id for item in sorted(kept, key=lambda item: item.key, reverse=True)]


def every_page(repository: StoredGames, wanted: HistoryFilter, limit: int) -> tuple[list[str], int]:
    """The game ids of every page, in order, and how many pages it took."""
    found, cursor, pages = [], None, 0
    while True:
        page = history_page(repository, ME, wanted, cursor, limit)
        pages += 1
        assert len(page["games"]) <= limit
        found += [row["id"] for row in page["games"]]
        cursor = page["cursor"]
        if cursor is None:
            return found, pages
        assert pages < 100


FILTERS = [
    HistoryFilter(),
    HistoryFilter(public_only=True),
    *(HistoryFilter(game=game) for game in GAMES),
    *(HistoryFilter(result=result) for result in OUTCOMES),
    *(HistoryFilter(kind=kind) for kind in KINDS),
    HistoryFilter(opponent=OTHERS[0]),
    HistoryFilter(game=GAMES[0], result="loss", public_only=True),
    HistoryFilter(kind="rated", opponent=OTHERS[1], result="win"),
]


@pytest.mark.slow
def test_filters_and_cursors_agree_with_a_brute_force_filter_over_300_games(games_store, request):
    listings = generated()
    for listing in listings:
        assert games_store.listings.put_listing(listing.record(seq=3))
    # Someone else's games never show in mine.
    for number, other in enumerate(OTHERS):
        theirs = replace(listings[number], player_id=other, game_id=f"t{number:011d}")
        assert games_store.listings.put_listing(theirs.record(seq=3))
    repository = StoredGames(games_store)
    # (moto reads a whole table for each Query: it runs fewer pages)
    on_moto = request.node.callspec.params["games_store"] == "moto"
    for wanted in FILTERS[::3] if on_moto else FILTERS:
        for limit in (50,) if on_moto else (7, 50):
            found, pages = every_page(repository, wanted, limit)
            assert found == brute_force(listings, wanted), (wanted, limit)
            # Bounded: a page reads at most EVALUATED listings, so a sparse filter still ends.
            assert pages <= len(listings) // EVALUATED + len(found) // limit + 2


def test_rows_say_what_the_listing_holds(games_store):
    listing = generated(1)[0]
    games_store.listings.put_listing(replace(listing, private=False, computer=False).record(seq=2))
    (row,) = history_page(StoredGames(games_store), ME, HistoryFilter(public_only=True), None, 5)["games"]
    assert row["id"] == listing.game_id and row["game"] == listing.game and row["color"] == listing.color
    assert row["result"] == listing.outcome and row["rating_change"] == listing.rating_change
    assert row["opponent"] == {"id": listing.opponent, "name": listing.opponent_name, "cpu_level": listing.opponent_cpu}


def test_a_listing_only_moves_forward(games_store):
    listing = replace(generated(1)[0], outcome="ongoing", private=False)
    assert games_store.listings.put_listing(replace(listing, outcome="win").record(seq=9))
    assert not games_store.listings.put_listing(listing.record(seq=4))  # an older state written late
    assert not games_store.listings.put_listing(listing.record(seq=9))
    (row,) = history_page(StoredGames(games_store), ME, HistoryFilter(), None, 5)["games"]
    assert row["result"] == "win"


def test_a_private_game_never_reaches_a_stranger(games_store):
    listing = replace(generated(1)[0], private=True)
    games_store.listings.put_listing(listing.record(seq=2))
    repository = StoredGames(games_store)
    assert history_page(repository, ME, HistoryFilter(public_only=True), None, 20)["games"] == []
    assert [row["id"] for row in history_page(repository, ME, HistoryFilter(), None, 20)["games"]] == [listing.game_id]


def test_the_key_sorts_by_creation_then_game():
    assert listing_key(5, "b") < listing_key(40, "a") < listing_key(40, "b")
