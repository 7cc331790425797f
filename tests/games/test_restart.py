"""Games live on disk: stop the local DynamoDB, start it again on the same data, and play on.

Once with dynalite alone (the data-access module against a restarted server), once through the local
runner as `make run` starts it (two players over real HTTP, the runner and its dynalite stopped with
Ctrl-C and started again)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from common.persistence import store

from local.dynamodb import Dynalite, create_tables, node_executable, table_definitions
from local.template import ROOT
from tests.checks import known
from tests.games.client import Api

pytestmark = pytest.mark.skipif(node_executable() is None, reason="Node.js is not installed: dynalite needs it")


def test_a_game_survives_a_restart_of_dynalite(tmp_path, aws_env, handler, monkeypatch, dynalite_server):
    data = tmp_path / "dynalite"
    monkeypatch.setenv("GAMES_TABLE", "GamesTable")
    monkeypatch.setenv("PLAYERS_TABLE", "PlayersTable")
    with Dynalite(path=data) as server:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", server.endpoint)
        store.reset_clients()
        create_tables(table_definitions())
        api = Api(handler)
        game_id, seats = api.start_game("chess")
        before = api.play(game_id, seats, ["e4", "e5", "Bc4", "Nc6", "Qh5"])
    with Dynalite(path=data) as server:  # a new process, a new port, the same files
        monkeypatch.setenv("DYNAMODB_ENDPOINT", server.endpoint)
        store.reset_clients()
        assert create_tables(table_definitions()) == []  # the tables are there already
        api = Api(handler)
        again = api.get(game_id).body
        assert {
            key: value for key, value in again.items() if key not in ("moves", "moves_from", "earlier", "start_fen")
        } == before
        assert again["moves"] == ["e4", "e5", "Bc4", "Nc6", "Qh5"]
        state = api.play(game_id, seats, ["Nf6", "Qxf7#"])
        assert state["status"] == {"result": "white", "reason": "checkmate"}
    store.reset_clients()


def test_a_dynalite_whose_port_was_taken_meanwhile_moves_to_another_not_onto_the_other_server():
    # A free port is free only until someone binds it: two test workers can draw the same one. The second
    # server must never take the first one's answers for its own (it would run on someone else's tables).
    with Dynalite() as first:
        second = Dynalite()
        second.port = first.port
        with second:
            assert second.port != first.port
            assert second.process is not None and second.process.poll() is None
            with urllib.request.urlopen(second.endpoint, timeout=5) as answer:
                assert answer.status in (200, 400)
        assert first.process is not None and first.process.poll() is None


# ------------------------------------------------------------------------------- through the runner
class Terminal:
    """One player's terminal: curl-like requests to the runner."""

    def __init__(self, origin: str, token: str | None = None):
        self.origin, self.token = origin, token

    def send(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.origin + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def _start_runner(data_dir) -> tuple[subprocess.Popen, str]:
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "LOCAL_DYNAMODB_DIR": str(data_dir)}
    environment.pop("DYNAMODB_ENDPOINT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "local.runner", "--port", "0", "--quiet"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
    )  # fmt: skip
    first = known(process.stdout).readline()
    assert first.startswith("ubao is running on "), first + known(process.stderr).read()
    return process, first.split(" on ", 1)[1].strip().rstrip("/")


def _stop_runner(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGINT)  # Ctrl-C
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "Traceback" not in err, err
    return err


def test_two_terminals_play_through_make_run_and_a_restart(tmp_path, dynalite_server):
    data = tmp_path / "local-dynalite"
    process, origin = _start_runner(data)
    try:
        status, asha = Terminal(origin).send("POST", "/v1/players", {"name": "Asha"})
        assert status == 201
        status, baraka = Terminal(origin).send("POST", "/v1/players", {"name": "Baraka"})
        one, two = Terminal(origin, asha["token"]), Terminal(origin, baraka["token"])
        status, created = one.send("POST", "/v1/games", {"game": "english", "color": "black"})
        assert status == 201, created
        game_id = created["game"]["id"]
        status, joined = two.send("POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]})
        assert status == 200 and joined["seat"] == "white"
        assert one.send("POST", f"/v1/games/{game_id}/moves", {"move": "11-15", "ply": 0})[0] == 200
        assert two.send("POST", f"/v1/games/{game_id}/moves", {"move": "23-19", "ply": 1})[0] == 200
    finally:
        err = _stop_runner(process)
    assert "DynamoDB: dynalite" in err

    process, origin = _start_runner(data)  # `make run` again: the same data
    try:
        one, two = Terminal(origin, asha["token"]), Terminal(origin, baraka["token"])
        status, game = one.send("GET", f"/v1/games/{game_id}")
        assert status == 200 and game["moves"] == ["11-15", "23-19"] and game["turn"] == "black"
        assert one.send("POST", f"/v1/games/{game_id}/moves", {"move": "8-11", "ply": 2})[0] == 200
        status, state = two.send("POST", f"/v1/games/{game_id}/resign")
        assert status == 200 and state["status"] == {"result": "black", "reason": "resignation"}
        status, mine = one.send("GET", "/v1/players/me/games?status=finished")
        assert [item["id"] for item in mine["games"]] == [game_id]
    finally:
        _stop_runner(process)
