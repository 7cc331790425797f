"""The live socket's service and handlers on the in-memory repositories and the real games service: tickets,
limits, who may follow what, what a reconnect gets, the fan-out and the cleaning up of gone connections."""

from __future__ import annotations

import json

import pytest
from common.persistence.attributes import to_item
from common.players.service import Player, hash_token
from games.service import Unchanged
from live.domain import (
    ADDRESS_CONNECTIONS,
    MAX_FOLLOWS,
    PLAYER_CONNECTIONS,
    NotAllowedToFollow,
    TicketRefused,
    TooManyConnections,
    TooManyFollows,
)
from live.handler import handle_socket, handle_stream
from live.service import NO_MOVES, changed_games

from local.streams import insert_record
from tests.unit.live_world import LiveWorld

TOKENS = {color: f"ubao_{color[0] * 43}" for color in ("white", "black", "stranger")}


def player(name: str) -> Player:
    return Player(player_id=f"p-{name}", token_hash=hash_token(TOKENS[name]), name=name)


class World(LiveWorld):
    def __init__(self) -> None:
        super().__init__()
        self.fed = 0  # events of the store already fed to the fan-out

    def started(self, **options: object) -> str:
        outcome = self.games.create(player("white"), "chess", "white", dict(options), None)
        assert outcome.invite is not None
        self.games.join(player("black"), outcome.head.id, outcome.invite["code"])
        return outcome.head.id

    def move(self, game_id: str, color: str, move: str) -> None:
        read = self.games.get(game_id)
        assert not isinstance(read, Unchanged)
        head = read[0]
        self.games.move(hash_token(TOKENS[color]), game_id, move, head.ply)

    def stream(self) -> dict:
        """The stream's records of the events stored since the last call, through the fan-out's handler."""
        records = []
        for game_id in sorted(self.store.events):
            for sort_key, record in sorted(self.store.events[game_id].items()):
                records.append((game_id, sort_key, record))
        new = records[self.fed :]
        self.fed = len(records)
        items = [to_item({**record, "pk": game_id, "sk": f"E{int(seq):06d}"}) for game_id, seq, record in new]
        event = {"Records": [insert_record(item, "GamesTable", ("pk", "sk"), n) for n, item in enumerate(items, 1)]}
        return handle_stream(event, self.service)


@pytest.fixture
def world() -> World:
    return World()


def test_a_ticket_opens_one_connection_and_only_before_it_expires(world):
    first = world.service.issue_ticket("p-white", "10.0.0.1")
    world.service.connect("c1", first.ticket)
    with pytest.raises(TicketRefused):
        world.service.connect("c2", first.ticket)  # used already
    late = world.service.issue_ticket("p-white", "10.0.0.1")
    world.clock.now += late.expires_in
    with pytest.raises(TicketRefused):
        world.service.connect("c3", late.ticket)
    for ticket in (None, "", "not-a-ticket"):
        with pytest.raises(TicketRefused):
            world.service.connect("c4", ticket)
    assert set(world.live.connections) == {"c1"}


def test_a_player_and_an_address_hold_a_few_connections_and_a_closed_one_frees_its_place(world):
    for n in range(PLAYER_CONNECTIONS):
        world.connect(f"mine-{n}", "white")
    with pytest.raises(TooManyConnections):
        world.connect("one-more", "white")
    world.service.disconnect("mine-0")
    world.connect("one-more", "white")
    for n in range(ADDRESS_CONNECTIONS - PLAYER_CONNECTIONS):
        world.connect(f"watcher-{n}", None)
    with pytest.raises(TooManyConnections):
        world.connect("from-elsewhere", "black")  # the player has room; the address has none
    world.connect("from-elsewhere", "black", address="10.0.0.2")
    assert "one-more" in world.live.connections and "from-elsewhere" in world.live.connections


def test_a_refused_connection_keeps_no_slot(world):
    for n in range(ADDRESS_CONNECTIONS):
        world.connect(f"watcher-{n}", None)
    with pytest.raises(TooManyConnections):
        world.connect("refused", "white")
    assert not [key for key, held in world.live.slots.items() if held[0] == "refused"]


def test_a_private_game_is_followed_by_its_two_players_only(world):
    private, public = world.started(private=True), world.started()
    for name in ("white", "black", "stranger", None):
        world.connect(f"c-{name}", name, address=f"10.0.1.{len(str(name))}")
    for name in ("white", "black"):
        assert world.service.subscribe(f"c-{name}", private, None)["type"] == "subscribed"
    for name in ("stranger", None):
        with pytest.raises(NotAllowedToFollow):
            world.service.subscribe(f"c-{name}", private, None)
        assert world.service.subscribe(f"c-{name}", public, None)["game"] == public
    assert set(world.live.follows[private]) == {"c-white", "c-black"}


def test_a_connection_follows_a_few_games(world):
    world.connect("c", "white")
    games = [world.started() for _ in range(MAX_FOLLOWS + 1)]
    for game_id in games[:-1]:
        world.service.subscribe("c", game_id, None)
    world.service.subscribe("c", games[0], None)  # again: nothing new
    with pytest.raises(TooManyFollows):
        world.service.subscribe("c", games[-1], None)


def test_two_players_and_three_watchers_each_get_every_move_once_in_order(world):
    game_id = world.started()
    world.stream()  # the create and the join: nobody follows yet
    people = {"white": "white", "black": "black", "w1": None, "w2": None, "w3": None}
    for connection_id, who in people.items():
        world.connect(connection_id, who, address=f"10.0.2.{len(world.live.connections)}")
        assert world.service.subscribe(connection_id, game_id, 0)["state"]["moves"] == []
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    for n, move in enumerate(moves):
        world.move(game_id, "white" if n % 2 == 0 else "black", move)
        assert world.stream() == {"batchItemFailures": []}
    for connection_id in people:
        got = world.received(connection_id)
        assert [message["state"]["moves"] for message in got] == [[move] for move in moves]
        assert [message["state"]["ply"] for message in got] == [1, 2, 3, 4, 5]
        assert [message["seq"] for message in got] == sorted({message["seq"] for message in got})


def test_a_batch_of_moves_goes_as_one_message_with_each_move(world):
    game_id = world.started()
    world.stream()
    world.connect("c", None)
    world.service.subscribe("c", game_id, 0)
    for n, move in enumerate(["d4", "d5", "c4"]):
        world.move(game_id, "white" if n % 2 == 0 else "black", move)
    world.stream()
    (only,) = world.received("c")
    assert (only["state"]["moves_from"], only["state"]["moves"]) == (0, ["d4", "d5", "c4"])


def test_a_reconnect_with_its_last_ply_gets_what_it_missed(world):
    game_id = world.started()
    for n, move in enumerate(["e4", "c5", "Nf3", "d6"]):
        world.move(game_id, "white" if n % 2 == 0 else "black", move)
    world.connect("back", "black")
    answer = world.service.subscribe("back", game_id, 2)
    assert (answer["state"]["moves_from"], answer["state"]["moves"]) == (2, ["Nf3", "d6"])
    assert answer["seq"] == 6 and answer["etag"].endswith('.6"')


def test_an_offer_and_a_resignation_reach_the_followers_without_moves(world):
    game_id = world.started()
    world.move(game_id, "white", "e4")
    world.stream()
    world.connect("w", None)
    world.service.subscribe("w", game_id, 1)
    world.games.draw(hash_token(TOKENS["black"]), game_id, "offer")
    world.stream()
    world.games.resign(hash_token(TOKENS["white"]), game_id)
    world.stream()
    offer, end = world.received("w")
    assert offer["state"]["draw_offer"] == "black" and offer["state"]["moves"] == []
    assert offer["state"]["moves_from"] == 1
    assert end["state"]["status"]["result"] == "black"


def test_a_gone_connection_is_forgotten_with_its_slots_and_follows(world):
    game_id = world.started()
    world.stream()
    world.connect("gone", "white")
    world.connect("here", None)
    for connection_id in ("gone", "here"):
        world.service.subscribe(connection_id, game_id, 0)
    world.sockets.gone.add("gone")
    world.move(game_id, "white", "e4")
    world.stream()
    assert "gone" not in world.live.connections and set(world.live.follows[game_id]) == {"here"}
    assert not [key for key, held in world.live.slots.items() if held[0] == "gone"]
    assert len(world.received("here")) == 1


def test_nobody_following_costs_no_read_of_the_game(world, monkeypatch):
    game_id = world.started()
    read = []
    monkeypatch.setattr(world.service.games, "view", lambda *args: read.append(args))
    world.move(game_id, "white", "e4")
    world.stream()
    assert read == []


def test_changed_games_keep_the_ply_before_the_first_move():
    assert changed_games([("a", None), ("a", 5), ("b", None), ("a", 6), ("a", None)]) == {"a": 4, "b": NO_MOVES}


def _event(route: str, connection_id: str = "c", **extra: object) -> dict:
    kind = {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}.get(route, "MESSAGE")
    return {"requestContext": {"routeKey": route, "connectionId": connection_id, "eventType": kind}, **extra}


def test_the_socket_handler_answers_each_route(world):
    game_id = world.started()
    issued = world.service.issue_ticket(None, "10.0.0.9")
    connect = _event("$connect", queryStringParameters={"ticket": issued.ticket})
    assert handle_socket(connect, world.service) == {"statusCode": 200}
    assert handle_socket(connect, world.service) == {"statusCode": 403}  # the same ticket again
    assert handle_socket(_event("$connect", "d"), world.service) == {"statusCode": 403}  # none
    body = json.dumps({"action": "subscribe", "game": game_id, "ply": 0})
    answer = json.loads(handle_socket(_event("subscribe", body=body), world.service)["body"])
    assert (answer["type"], answer["game"]) == ("subscribed", game_id)
    for garbage in ("hello", "{}", '{"action": "subscribe", "game": "x"}', "[1]", "x" * 2000):
        reply = json.loads(handle_socket(_event("$default", body=garbage), world.service)["body"])
        assert reply["error"]["code"] == "invalid_message"
    other = json.dumps({"action": "subscribe", "game": "A" * 12})
    reply = json.loads(handle_socket(_event("subscribe", body=other), world.service)["body"])
    assert reply["error"]["code"] == "game_not_found"
    closed = json.loads(handle_socket(_event("subscribe", "never-opened", body=body), world.service)["body"])
    assert closed["error"]["code"] == "connection_gone"
    assert handle_socket(_event("$disconnect"), world.service) == {"statusCode": 200}
    assert "c" not in world.live.connections and "c" not in world.live.follows[game_id]
    assert handle_socket({"what": "not an event"}, world.service) == {"statusCode": 400}
