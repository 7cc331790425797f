"""The history through the games service on the in-memory repository: each seated player's listing follows the
game (a seat taken, the end) and a move writes none; private games stay with their players."""

from __future__ import annotations

import pytest
from common.players.service import hash_token
from games.history.domain import HistoryFilter
from games.history.service import history_page
from games.service import GamesService

from tests.clocks import TickingClock
from tests.unit.seats import PLAYERS, TOKENS, started


@pytest.fixture
def clock():
    """Games made one after another are made in that order."""
    return TickingClock()


def rows(service: GamesService, color: str, **wanted) -> list[dict]:
    return history_page(service.store, PLAYERS[color].player_id, HistoryFilter(**wanted), None, 50)["games"]


def test_each_player_lists_the_game_as_it_goes_and_a_move_writes_no_listing(service, store):
    outcome = service.create(PLAYERS["white"], "chess", "white", {}, None)
    assert [row["opponent"]["id"] for row in rows(service, "white")] == [None]  # nobody has joined yet
    assert rows(service, "black") == []
    assert outcome.invite is not None
    game_id = service.join(PLAYERS["black"], outcome.head.id, outcome.invite["code"]).head.id
    before = store.listings.calls
    for ply, move in enumerate(["e4", "e5", "Nf3"]):
        service.move(hash_token(TOKENS["white" if ply % 2 == 0 else "black"]), game_id, move, ply)
    assert store.listings.calls == before  # moves change nothing a history shows
    (mine,) = rows(service, "white")
    assert mine["opponent"] == {"id": "p-black", "name": "Black", "cpu_level": None}
    assert mine["result"] == "ongoing" and mine["color"] == "white" and not mine["computer"]
    service.resign(hash_token(TOKENS["black"]), game_id)
    assert [row["result"] for row in rows(service, "white")] == ["win"]
    assert [(row["result"], row["reason"]) for row in rows(service, "black")] == [("loss", "resignation")]
    assert [row["id"] for row in rows(service, "black", result="loss")] == [game_id]
    assert rows(service, "black", result="win") == []


def test_newest_first_with_the_computer_and_live_kinds(service):
    friendly = started(service)
    live = started(service, "english", {"turn_seconds": 60})
    computer = service.create(PLAYERS["white"], "tanzanian", "white", {}, None, cpu_level=1).head.id
    assert [row["id"] for row in rows(service, "white")] == [computer, live, friendly]
    assert [row["id"] for row in rows(service, "white", kind="computer")] == [computer]
    assert [row["id"] for row in rows(service, "white", kind="live")] == [live]
    assert [row["id"] for row in rows(service, "white", kind="correspondence")] == [computer, friendly]
    assert [row["id"] for row in rows(service, "white", game="english")] == [live]
    assert [row["id"] for row in rows(service, "white", opponent="p-black")] == [live, friendly]
    (cpu_row,) = rows(service, "white", kind="computer")
    assert cpu_row["opponent"]["id"] is None and cpu_row["opponent"]["cpu_level"] == 1


def test_a_private_game_is_listed_for_its_players_only(service):
    public = started(service)
    private = started(service, options={"private": True})
    for color in TOKENS:
        assert [row["id"] for row in rows(service, color)] == [private, public]
        assert [row["id"] for row in rows(service, color, public_only=True)] == [public]
    assert rows(service, "white")[0]["private"] is True


def test_a_page_is_one_store_call_whatever_the_number_of_games(service, store):
    for _ in range(30):
        service.create(PLAYERS["white"], "chess", "white", {}, None)
    calls = store.listings.calls
    cursor, seen = None, []
    while True:
        page = history_page(service.store, "p-white", HistoryFilter(), cursor, 7)
        seen += page["games"]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert len(seen) == 30 and store.listings.calls - calls == 5  # ceil(30 / 7) pages, one call each


def test_an_aborted_game_is_neither_won_nor_lost(service):
    outcome = service.create(PLAYERS["white"], "chess", "white", {}, None, rated=True)
    assert outcome.invite is not None
    game_id = service.join(PLAYERS["black"], outcome.head.id, outcome.invite["code"]).head.id
    service.resign(hash_token(TOKENS["black"]), game_id)  # a rated game before two moves a side: aborted
    for color in TOKENS:
        assert [row["result"] for row in rows(service, color)] == ["aborted"]
        assert rows(service, color, result="loss") == [] and rows(service, color, result="win") == []
