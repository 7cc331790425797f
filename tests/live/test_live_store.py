"""The live repository's contract on the in-memory store, moto and dynalite alike, and the ticket route over the
resolver as API Gateway calls it."""

from __future__ import annotations

import pytest
from common.players.handles import player_id_of
from live.domain import Connection, Follower, Ticket, tournament_topic
from live.repository import DynamoLive, InMemoryLive

from tests.checks import known
from tests.games.client import Api, invoke
from tests.stores import STORES, on_each_store

NOW = 1_750_000_000_000


@pytest.fixture(params=STORES)
def repository(request):
    return on_each_store(request, InMemoryLive, DynamoLive)


def test_a_ticket_is_taken_once(repository):
    repository.put_ticket(Ticket("d" * 64, "p-1", "10.0.0.1", NOW + 60_000))
    assert repository.take_ticket("d" * 64) == Ticket("d" * 64, "p-1", "10.0.0.1", NOW + 60_000)
    assert repository.take_ticket("d" * 64) is None
    assert repository.take_ticket("e" * 64) is None


def test_slots_are_held_until_released_or_expired(repository):
    taken = [repository.claim_slot("player#p", f"c{n}", 2, NOW, NOW + 1000) for n in range(3)]
    assert taken[:2] == ["slot#0", "slot#1"] and taken[2] is None
    repository.release_slot("player#p", "slot#0", "someone-else")  # not theirs: kept
    assert repository.claim_slot("player#p", "c3", 2, NOW, NOW + 1000) is None
    repository.release_slot("player#p", "slot#0", "c0")
    assert repository.claim_slot("player#p", "c3", 2, NOW, NOW + 1000) == "slot#0"
    assert repository.claim_slot("player#p", "c4", 2, NOW + 1000, NOW + 2000) == "slot#0"  # expired: free


def test_connections_and_followers(repository):
    connection = Connection("c1", None, "10.0.0.1", NOW + 1000, ("g1",))
    repository.save_connection(connection, [("address#10.0.0.1", "slot#0")])
    assert repository.connection("c1") == (connection, [("address#10.0.0.1", "slot#0")])
    repository.add_follower("g1", "c1", NOW + 1000)
    repository.add_follower("g1", "c2", NOW + 10, "p-2")
    assert sorted(repository.followers("g1", NOW)) == [Follower("c1"), Follower("c2", "p-2")]
    assert repository.followers("g1", NOW + 10) == [Follower("c1")]  # c2's time is up
    repository.remove_follower("g1", "c1")
    repository.delete_connection("c1")
    assert repository.connection("c1") is None and repository.followers("g1", NOW + 10) == []


def test_a_tournaments_followers_are_apart_from_a_games_of_the_same_id(repository):
    repository.add_follower(tournament_topic("g1"), "c1", NOW + 1000, "p-1")
    repository.add_follower("g1", "c2", NOW + 1000)
    assert repository.followers(tournament_topic("g1"), NOW) == [Follower("c1", "p-1")]
    assert repository.followers("g1", NOW) == [Follower("c2")]
    repository.remove_follower(tournament_topic("g1"), "c1")
    assert repository.followers(tournament_topic("g1"), NOW) == []


@pytest.fixture
def live_api(moto_tables, clock, monkeypatch):
    from live import handler as module

    from tests.fixtures import Function, on_clock

    monkeypatch.setenv("LIVE_TABLE", "LiveTable")
    return Function(module, on_clock(clock))


def test_the_ticket_route_gives_a_ticket_for_a_player_or_a_watcher(live_api, handler, clock):
    games = Api(handler)
    asha = games.new_player("Asha")
    token = asha["token"]
    app = live_api.create_app()
    mine = invoke(app, "LiveTicketsFunction", "POST", "/v1/live/tickets", token=token)
    anonymous = invoke(app, "LiveTicketsFunction", "POST", "/v1/live/tickets")
    assert (mine.status, anonymous.status) == (201, 201)
    assert mine.body["url"] == f"/live?ticket={mine.body['ticket']}" and mine.body["expires_in"] == 60
    assert mine.headers["cache-control"] == "no-store"
    stored = DynamoLive()
    from live.domain import ticket_hash

    assert known(stored.take_ticket(ticket_hash(mine.body["ticket"]))).player_id == player_id_of(asha["player_id"])
    assert known(stored.take_ticket(ticket_hash(anonymous.body["ticket"]))).player_id is None
    wrong = invoke(app, "LiveTicketsFunction", "POST", "/v1/live/tickets", token="ubao_" + "x" * 43)
    assert (wrong.status, wrong.code) == (401, "unauthorized")
