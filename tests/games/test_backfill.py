"""The listings' back-fill (``games.history.service.backfill_listings``, run by ``local/backfill_listings.py``) on
the in-memory store, moto and dynalite: games whose listings are missing (they ended before listings existed)
come back in their players' history exactly as a game of today lists itself, page after page of the table's
Scan; a second run writes nothing; a listing already there is left alone."""

from __future__ import annotations

import pytest
from common.persistence.store import call
from common.players.service import Player, hash_token
from games.history.domain import HistoryFilter
from games.history.repository import LISTING_PREFIX
from games.history.service import Backfill, backfill_listings, history_page
from games.repository import GameStore, InMemoryGameStore, StoredGames
from games.service import GamesService

from tests.clocks import TickingClock
from tests.stores import STORES

TOKENS = {"white": "ubao_" + "w" * 43, "black": "ubao_" + "b" * 43}
PLAYERS = {color: Player(f"p-{color}00000", hash_token(TOKENS[color]), color.title()) for color in TOKENS}


@pytest.fixture(params=STORES)
def records(request):
    if request.param == "memory":
        return InMemoryGameStore()
    request.getfixturevalue(f"{request.param}_tables")
    return GameStore()


def histories(store: StoredGames) -> dict[str, list[dict]]:
    return {
        color: history_page(store, player.player_id, HistoryFilter(), None, 50)["games"]
        for color, player in PLAYERS.items()
    }


def forget_listings(records, game_ids: list[str]) -> None:
    """As if the games had ended before the history's listings existed."""
    for game_id in game_ids:
        for color in PLAYERS:
            if isinstance(records, InMemoryGameStore):
                records.listings.items.pop((game_id, color), None)  # type: ignore[attr-defined]
                continue
            key = {"pk": {"S": game_id}, "sk": {"S": LISTING_PREFIX + color}}
            call("delete_item", TableName=records.table, Key=key)


def test_missing_listings_come_back_as_a_game_lists_itself_and_a_second_run_writes_nothing(records):
    store = StoredGames(records)
    service = GamesService(store, clock=TickingClock())
    game_ids = []
    for number, game in enumerate(("chess", "english", "tanzanian", "chess", "english")):
        made = service.create(PLAYERS["white"], game, "white", {}, None)
        assert made.invite is not None
        service.join(PLAYERS["black"], made.head.id, made.invite["code"])
        if number % 2 == 0:
            service.resign(hash_token(TOKENS["black" if number else "white"]), made.head.id)
        game_ids.append(made.head.id)
    # A game of today: listed at its join, its moves since then write no listing (docs/games.md "History").
    today = service.create(PLAYERS["white"], "chess", "white", {}, None)
    assert today.invite is not None
    service.join(PLAYERS["black"], today.head.id, today.invite["code"])
    service.move(hash_token(TOKENS["white"]), today.head.id, "e4", 0)
    expected = histories(store)
    assert [len(rows) for rows in expected.values()] == [6, 6]
    forget_listings(records, game_ids)
    assert [[row["id"] for row in rows] for rows in histories(store).values()] == [[today.head.id]] * 2

    progress: list[tuple[int, int]] = []
    done = backfill_listings(store, 4, lambda now: progress.append((now.games, now.written)))
    assert histories(store) == expected  # the same rows, results and order as before they were lost
    # Today's game keeps its own listings (older than its head by a move: left alone, not written again).
    assert (done.games, done.written) == (6, 10) and done.pages == len(progress) >= 2
    assert progress == sorted(progress) and progress[-1] == (6, 10)  # told page by page, each further on
    again = backfill_listings(store, 4)
    assert (again.games, again.written) == (6, 0)  # everything there already: nothing written twice
    assert histories(store) == expected


def test_a_table_without_games_is_one_empty_page(records):
    assert backfill_listings(StoredGames(records), 10) == Backfill(pages=1, games=0, written=0)
