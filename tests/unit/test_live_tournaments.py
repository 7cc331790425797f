"""A tournament on the live socket, on the in-memory repositories and the real tournaments and games services:
who may follow it, what each follower gets (the view its own player would read), which records of the
tournaments table's stream make a message, and the stream's records through the fan-out's handler."""

from __future__ import annotations

import json

import pytest
from common.persistence.attributes import to_item
from common.players.service import Player, hash_token
from games.domain import new_game_options
from live.domain import NoSuchTournament
from live.handler import handle_socket, handle_stream, tournament_changed
from live.tournaments import StoredTournamentViews
from tournaments.domain import Format
from tournaments.repository import InMemoryTournaments
from tournaments.repository.arenas import InMemoryArenaSeats
from tournaments.seated import TournamentGames
from tournaments.service import NewTournament, TournamentService

from local.streams import insert_record
from tests.unit.live_world import LiveWorld


def player(name: str) -> Player:
    return Player(player_id=f"p-{name}", token_hash=hash_token("ubao_" + (name * 43)[:43]), name=name)


class World(LiveWorld):
    def tournament_views(self) -> StoredTournamentViews:
        """A league's service on the world's games, and the tournaments as the live service reads them."""
        self.tournaments = InMemoryTournaments()
        seated = TournamentGames(self.games.log, self.games.store)
        self.league = TournamentService(self.tournaments, seated, new_game_options, clock=self.clock)
        return StoredTournamentViews(self.tournaments, InMemoryArenaSeats(), self.clock)

    def new_league(self, size: int = 3) -> str:
        terms = NewTournament(Format.LEAGUE, "chess", options={"days_per_move": 3}, players=size, public=True)
        return self.league.create(player("maker"), terms).tournament.id

    def connect(self, connection_id: str, who: str | None = None, address: str = "") -> None:
        """Each connection from an address of its own (the per-address limit is not what these tests are about)."""
        super().connect(connection_id, who, address or f"10.0.0.{len(self.live.connections)}")


@pytest.fixture
def world() -> World:
    return World()


def test_anybody_follows_a_tournament_and_sees_it_as_its_own_player_would(world):
    league = world.new_league()
    world.league.join(player("asha"), league, None)
    world.connect("asha", "asha")
    world.connect("watcher")
    mine = world.service.subscribe_tournament("asha", league)
    theirs = world.service.subscribe_tournament("watcher", league)
    assert (mine["type"], mine["tournament"]) == ("subscribed", league)
    assert [row["you"] for row in mine["state"]["players"]] == [True]
    assert [row["you"] for row in theirs["state"]["players"]] == [False]
    with pytest.raises(NoSuchTournament):
        world.service.subscribe_tournament("watcher", "A" * 12)


def test_joins_then_the_pairings_then_a_result_reach_each_follower_as_its_player_sees_them(world):
    league = world.new_league(3)
    for connection_id, who in (("asha", "asha"), ("watcher", None)):
        world.connect(connection_id, who)
        world.service.subscribe_tournament(connection_id, league)
    world.league.join(player("asha"), league, None)
    world.service.fan_out_tournaments([league])
    for name in ("baraka", "chausiku"):
        world.league.join(player(name), league, None)  # the third fills it: it starts, its games are made
    assert world.service.fan_out_tournaments([league]) == 2
    joined, started = world.received("asha")
    assert [row["name"] for row in joined["state"]["players"]] == ["asha"]
    assert started["state"]["tournament"]["state"] == "running" and len(started["state"]["games"]) == 6
    first = started["state"]["your_games"][0]
    assert first in {game["id"] for game in started["state"]["games"]}
    watched = world.received("watcher")[-1]["state"]
    assert watched["your_games"] == [] and watched["games"] == started["state"]["games"]
    head = world.games.head(first)
    loser = head.white.player_id.removeprefix("p-")
    world.games.resign(player(loser).token_hash, first)
    from tournaments.stream import count_result

    assert count_result(first, world.tournaments, TournamentGames(world.games.log, world.games.store), world.clock())
    world.service.fan_out_tournaments([league])
    scored = world.received("watcher")[-1]["state"]
    assert sum(row["played"] for row in scored["standings"]) == 2


def test_nobody_following_costs_no_read_of_the_tournament(world, monkeypatch):
    league = world.new_league()
    read = []
    monkeypatch.setattr(world.service.tournaments, "views", lambda *args: read.append(args))
    assert world.service.fan_out_tournaments([league]) == 0 and read == []


def _record(name: str, new: dict, old: dict | None = None) -> dict:
    record = insert_record(to_item(new), "TournamentsTable", ("pk", "sk"), 1)
    record["eventName"] = name
    if old is not None:
        record["dynamodb"]["OldImage"] = to_item(old)
    return record


def test_which_records_of_the_tournaments_table_change_a_tournaments_view():
    item = {"pk": "t#T1", "sk": "A", "state": "open", "wave_at": 1}
    assert tournament_changed(_record("INSERT", item)) == "T1"
    assert tournament_changed(_record("MODIFY", {**item, "state": "running"}, item)) == "T1"
    assert tournament_changed(_record("MODIFY", {**item, "wave_at": 2}, item)) is None  # a pairing wave's claim
    assert tournament_changed(_record("INSERT", {"pk": "t#T1", "sk": "R#G1", "winner": "white"})) == "T1"
    assert tournament_changed(_record("INSERT", {"pk": "g#G1", "sk": "L", "tournament_id": "T1"})) == "T1"
    assert tournament_changed(_record("MODIFY", {"pk": "t#T1", "sk": "P#p-1", "seen": 5})) is None
    assert tournament_changed(_record("REMOVE", item)) is None


def test_the_stream_handler_and_the_socket_handler_carry_a_tournament(world):
    league = world.new_league()
    world.connect("c", "asha")
    body = json.dumps({"action": "subscribe", "tournament": league})
    event = {"requestContext": {"routeKey": "subscribe", "connectionId": "c", "eventType": "MESSAGE"}, "body": body}
    assert json.loads(handle_socket(event, world.service)["body"])["type"] == "subscribed"
    for wrong in ({"tournament": league, "game": league}, {"tournament": league, "ply": 3}, {}):
        event["body"] = json.dumps({"action": "subscribe", **wrong})
        assert json.loads(handle_socket(event, world.service)["body"])["error"]["code"] == "invalid_message"
    world.league.join(player("asha"), league, None)
    records = [_record("MODIFY", {"pk": "t#" + league, "sk": "A", "n": 1}, {"pk": "t#" + league, "sk": "A"})]
    assert handle_stream({"Records": records * 2}, world.service) == {"batchItemFailures": []}
    (message,) = world.received("c")  # two records of one tournament in a batch: one message
    assert message["type"] == "tournament" and message["state"]["players"][0]["you"] is True
