"""The live socket over real WebSockets against `python -m local.runner` (as `make run` starts it) on dynalite:
players and watchers get every move once and in order, a reconnect gets what it missed, refusals are clear, and
a closed connection frees its place."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests import runner

pytestmark = pytest.mark.slow  # a runner of its own (about 20 s to start on a busy machine)

#: How long a test waits for a message before failing: long enough for a loaded CI machine (not a speed
#: measure; `make bench live_socket` measures).
WAIT = 30.0


class Http(runner.Http):
    def socket(self, token: str | None = None) -> ClientConnection:
        status, ticket = self("POST", "/v1/live/tickets", token=token)
        assert status == 201, ticket
        return self.connect(ticket["url"])

    def connect(self, url: str) -> ClientConnection:
        return connect(self.origin.replace("http://", "ws://") + url, open_timeout=WAIT)


@contextmanager
def local_runner(dynalite_endpoint: str, workdir: Path, **extra: str) -> Iterator[Http]:
    """`python -m local.runner` on a free port and dynalite, with ``extra`` in its environment."""
    with runner.local_runner(
        dynalite_endpoint,
        workdir,
        lambda http: http("POST", "/v1/live/tickets")[0] == 201,
        Http,
        UBAO_LOCAL_CLOCK="1",  # the games' clock a test moves
        RATE_LIMIT_SCALE="100",
        **extra,
    ) as served:
        yield served


@pytest.fixture(scope="module")
def http(dynalite_endpoint, tmp_path_factory) -> Iterator[Http]:
    with local_runner(dynalite_endpoint, tmp_path_factory.mktemp("live-runner")) as served:
        yield served


@pytest.fixture(scope="module")
def dynalite_endpoint():
    with runner.own_dynalite() as endpoint:
        yield endpoint


def players(http: Http, *names: str) -> list[str]:
    tokens = []
    for name in names:
        status, body = http("POST", "/v1/players", {"name": name})
        assert status == 201
        tokens.append(body["token"])
    return tokens


def live_game(http: Http, white: str, black: str, **options: Any) -> str:
    status, created = http("POST", "/v1/games", {"game": "chess", "color": "white", "options": options}, white)
    assert status == 201, created
    game_id = created["game"]["id"]
    assert http("POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, black)[0] == 200
    return game_id


def subscribe(socket: ClientConnection, game_id: str, ply: int | None = None) -> dict:
    socket.send(json.dumps({"action": "subscribe", "game": game_id, "ply": ply}))
    return json.loads(socket.recv(timeout=WAIT))


def next_move(socket: ClientConnection) -> dict:
    """The next message that carries moves. The fan-out of an event written before the socket subscribed (the
    join) runs in the background and may reach it just after the subscription, read once the move is in: the
    state alone (no moves, ``moves_from`` at its ply), which a page takes as it takes any state."""
    while True:
        message = json.loads(socket.recv(timeout=WAIT))
        state = message["state"]
        if state["moves"] or state["moves_from"] != state["ply"]:
            return message


def test_two_players_and_three_watchers_get_every_move_once_and_in_order(http):
    white, black = players(http, "Asha", "Juma")
    game_id = live_game(http, white, black, turn_seconds=60)
    sockets = [http.socket(white), http.socket(black), *(http.socket() for _ in range(3))]
    for socket in sockets:
        assert subscribe(socket, game_id, 0)["state"]["moves"] == []
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    for ply, move in enumerate(moves):
        token = white if ply % 2 == 0 else black
        assert http("POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token)[0] == 200
        for socket in sockets:  # each move reaches everyone before the next is played
            message = next_move(socket)
            assert (message["type"], message["game"], message["state"]["ply"]) == ("game", game_id, ply + 1)
            assert (message["state"]["moves_from"], message["state"]["moves"]) == (ply, [move])
    time.sleep(1.0)  # a message sent twice would be here by now
    for socket in sockets:
        with pytest.raises(TimeoutError):
            socket.recv(timeout=0)  # nothing twice
        socket.close()


def test_a_reconnect_with_its_last_ply_gets_what_it_missed(http):
    white, black = players(http, "Asha", "Juma")
    game_id = live_game(http, white, black, turn_seconds=60)
    first = http.socket(black)
    subscribe(first, game_id, 0)
    first.close()
    for ply, move in enumerate(["d4", "d5", "c4"]):
        token = white if ply % 2 == 0 else black
        assert http("POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token)[0] == 200
    again = http.socket(black)
    answer = subscribe(again, game_id, 1)
    assert (answer["type"], answer["state"]["moves_from"], answer["state"]["moves"]) == ("subscribed", 1, ["d5", "c4"])
    assert http("POST", f"/v1/games/{game_id}/moves", {"move": "e6", "ply": 3}, black)[0] == 200
    assert json.loads(again.recv(timeout=WAIT))["state"]["moves"] == ["e6"]
    again.close()


def test_a_ticket_opens_one_connection_before_it_expires(http):
    status, ticket = http("POST", "/v1/live/tickets")
    assert status == 201
    http.connect(ticket["url"]).close()
    with pytest.raises(InvalidStatus) as used:
        http.connect(ticket["url"])
    assert used.value.response.status_code == 403
    for url in ("/live", "/live?ticket=", "/live?ticket=made-up"):
        with pytest.raises(InvalidStatus) as none:
            http.connect(url)
        assert none.value.response.status_code == 403
    status, late = http("POST", "/v1/live/tickets")
    assert http("POST", "/v1/_local/clock", {"pace": late["expires_in"]})[0] == 200  # the tickets' clock
    try:
        with pytest.raises(InvalidStatus) as expired:
            http.connect(late["url"])
    finally:
        http("POST", "/v1/_local/clock", {"reset": True})
    assert expired.value.response.status_code == 403


def test_moving_the_games_clock_leaves_tickets_and_rate_limits_on_the_systems_time(http):
    """A browser test moves the games' clock past a turn or a tournament's start, then sets it back: a ticket
    asked just before the jump still opens, and the buckets charged during it are not left looking empty."""
    status, before = http("POST", "/v1/live/tickets")
    assert status == 201
    assert http("POST", "/v1/_local/clock", {"advance": 11 * 60})[0] == 200
    try:
        http.connect(before["url"]).close()  # not expired: the system's minute has not passed
        status, during = http("POST", "/v1/live/tickets")
        assert status == 201, during
    finally:
        http("POST", "/v1/_local/clock", {"reset": True})
    status, after = http("POST", "/v1/live/tickets")
    assert status == 201, after  # a bucket charged "11 minutes ahead" would refuse this for about 9 minutes
    http.connect(after["url"]).close()


def test_a_stranger_cannot_follow_a_private_game_and_garbage_is_refused(http):
    white, black, stranger = players(http, "Asha", "Juma", "Zawadi")
    private = live_game(http, white, black, turn_seconds=60, private=True)
    socket = http.socket(stranger)
    assert subscribe(socket, private, 0)["error"]["code"] == "not_allowed_to_follow"
    watcher = http.socket()
    assert subscribe(watcher, private)["error"]["code"] == "not_allowed_to_follow"
    for garbage in ("hello", "{}", json.dumps({"action": "subscribe", "game": "../../etc"}), json.dumps([1])):
        socket.send(garbage)
        assert json.loads(socket.recv(timeout=WAIT))["error"]["code"] == "invalid_message"
    socket.send(b"\x00binary")
    assert json.loads(socket.recv(timeout=WAIT))["error"]["code"] == "invalid_message"
    mine = http.socket(black)
    assert subscribe(mine, private, 0)["type"] == "subscribed"  # the socket is still open after a refusal
    assert http("POST", f"/v1/games/{private}/moves", {"move": "e4", "ply": 0}, white)[0] == 200
    assert next_move(mine)["state"]["moves"] == ["e4"]
    with pytest.raises(TimeoutError):
        socket.recv(timeout=1.5)  # the stranger hears nothing of it
    for each in (socket, watcher, mine):
        each.close()


def test_a_closed_connection_frees_its_place(http):
    (token,) = players(http, "Neema")
    sockets = [http.socket(token) for _ in range(5)]
    status, ticket = http("POST", "/v1/live/tickets", token=token)
    with pytest.raises(InvalidStatus) as full:
        http.connect(ticket["url"])
    assert full.value.response.status_code == 429
    sockets.pop().close()
    deadline = time.monotonic() + WAIT
    while True:  # $disconnect runs after the close handshake: the place frees a moment later
        try:
            sockets.append(http.socket(token))
            break
        except InvalidStatus:
            assert time.monotonic() < deadline, "the closed connection never freed its place"
            time.sleep(0.2)
    for socket in sockets:
        socket.close()


def test_an_idle_connection_is_closed_as_api_gateway_closes_it_and_frees_its_place(dynalite_endpoint, tmp_path):
    """API Gateway closes a connection idle 10 minutes (here 2 s: ``LIVE_IDLE_SECONDS``) with 1001; its
    ``$disconnect`` runs, so its place is free again; a page then reconnects and resumes from its last ply."""
    with local_runner(dynalite_endpoint, tmp_path, LIVE_IDLE_SECONDS="2") as served:
        (token,) = players(served, "Rehema")
        idle = [served.socket(token) for _ in range(5)]
        with pytest.raises(ConnectionClosed) as closed:
            idle[0].recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        deadline = time.monotonic() + WAIT
        while True:  # every place freed by the closes' $disconnect
            try:
                again = served.socket(token)
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "the idle connections never freed their places"
                time.sleep(0.2)
        again.close()


def test_a_followed_league_sends_its_entries_then_its_pairings_then_its_standings(http):
    maker, *entrants = players(http, "Mwalimu", "Asha", "Juma", "Neema")
    request = {"format": "league", "game": "chess", "players": 3, "public": True, "options": {"days_per_move": 3}}
    status, made = http("POST", "/v1/tournaments", request, maker)
    assert status == 201, made
    league = made["tournament"]["id"]
    watcher, player = http.socket(), http.socket(entrants[0])
    for socket in (watcher, player):
        socket.send(json.dumps({"action": "subscribe", "tournament": league}))
        assert json.loads(socket.recv(timeout=WAIT))["type"] == "subscribed"
    for count, token in enumerate(entrants, 1):
        assert http("POST", f"/v1/tournaments/{league}/join", {}, token)[0] == 200
        seen = json.loads(watcher.recv(timeout=WAIT))
        assert (seen["type"], seen["tournament"], len(seen["state"]["players"])) == ("tournament", league, count)
    games = seen["state"]["games"]
    while not games:  # the league started as it filled: its pairings come once its games are made
        games = json.loads(watcher.recv(timeout=WAIT))["state"]["games"]
    assert len(games) == 6
    mine = json.loads(player.recv(timeout=WAIT))["state"]
    while not mine["your_games"]:
        mine = json.loads(player.recv(timeout=WAIT))["state"]
    assert set(mine["your_games"]) <= {game["id"] for game in games} and len(mine["your_games"]) == 4
    first = mine["your_games"][0]
    assert http("POST", f"/v1/games/{first}/resign", {}, entrants[0])[0] == 200
    standings = json.loads(watcher.recv(timeout=WAIT))["state"]["standings"]
    while sum(row["played"] for row in standings) < 2:
        standings = json.loads(watcher.recv(timeout=WAIT))["state"]["standings"]
    for socket in (watcher, player):
        socket.close()
