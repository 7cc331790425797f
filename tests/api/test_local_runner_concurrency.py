"""The local runner answering many requests at once over real HTTP, as `make run` serves them: each function in
instances of its own (local/instances.py), so requests run side by side and each stays as isolated as on
Lambda. Correctness only (every answer JSON, no 500, the right outcome); how fast is `make bench`'s.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from local.dynamodb import CLI, Dynalite, free_port, node_executable
from local.template import ROOT

OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
TABLES = 20
RACERS = 30


@pytest.fixture(scope="module")
def origin(tmp_path_factory):
    """`python -m local.runner` on a fresh in-memory dynalite, two instances a function at most (so that
    requests also queue for a free instance), stopped as Ctrl-C would stop it."""
    if node_executable() is None or not CLI.is_file():
        pytest.skip("dynalite needs Node.js and `make node`")
    workdir = tmp_path_factory.mktemp("runner")
    port = free_port()
    with Dynalite() as dynalite, open(workdir / "runner.log", "wb") as log:
        environment = {**os.environ, "PORT": str(port), "DYNAMODB_ENDPOINT": dynalite.endpoint}
        environment.update(LOCAL_INSTANCES="2", VAPID_KEY_FILE=str(workdir / "vapid.json"), PYTHONUNBUFFERED="1")
        for name in ("SITE_URL", "LOCAL_DYNAMODB_DIR", "UBAO_LOCAL_CLOCK"):
            environment.pop(name, None)
        command = [sys.executable, "-m", "local.runner", "--quiet", "--site-dir", str(workdir / "no-site")]
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
        origin = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and b"ubao is running" not in (workdir / "runner.log").read_bytes():
                assert process.poll() is None, (workdir / "runner.log").read_text()
                time.sleep(0.2)
            yield origin
        finally:
            process.terminate()
            process.wait(timeout=60)
        log_text = (workdir / "runner.log").read_text("utf-8", "replace")
    assert "Traceback" not in log_text, log_text


def call(origin: str, method: str, path: str, body: dict | None = None, token: str = "", source: str = "127.0.0.1"):
    """(status, JSON body) of one request from the address ``source`` (the per-address limits are each its own)."""
    connection = http.client.HTTPConnection(origin.removeprefix("http://"), timeout=120, source_address=(source, 0))
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = connection.getresponse()
        status, raw = answer.status, answer.read()
    finally:
        connection.close()
    assert status < 500, (method, path, status, raw)
    return status, json.loads(raw)  # every answer is JSON, a refusal too


def new_game(origin: str, source: str) -> tuple[str, dict[str, str]]:
    """A started game of chess between two new players: (its id, {color: token})."""
    tokens = {}
    for color, name in (("white", "Asha"), ("black", "Baraka")):
        status, player = call(origin, "POST", "/v1/players", {"name": name}, source=source)
        assert status == 201, player
        tokens[color] = player["token"]
    status, created = call(origin, "POST", "/v1/games", {"game": "chess", "color": "white"}, tokens["white"], source)
    assert status == 201, created
    game_id = created["game"]["id"]
    invite = {"invite": created["invite"]["code"]}
    status, joined = call(origin, "POST", f"/v1/games/{game_id}/join", invite, tokens["black"], source)
    assert status == 200, joined
    return game_id, tokens


def play_opening(origin: str, index: int) -> tuple[str, int, list[str]]:
    """One table from its own address: a new game and the opening's moves, each side in turn."""
    source = f"127.0.0.{10 + index}"
    game_id, tokens = new_game(origin, source)
    for ply, move in enumerate(OPENING):
        color = "white" if ply % 2 == 0 else "black"
        status, state = call(
            origin, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, tokens[color], source
        )
        assert status == 200, state
        assert state["ply"] == ply + 1
    status, game = call(origin, "GET", f"/v1/games/{game_id}?moves_after=0", source=source)
    assert status == 200, game
    return game_id, game["ply"], game["moves"]


def test_twenty_tables_play_at_once_each_its_own_game(origin):
    with ThreadPoolExecutor(TABLES) as pool:
        tables = list(pool.map(lambda index: play_opening(origin, index), range(TABLES)))
    assert len({game_id for game_id, _, _ in tables}) == TABLES
    for _, ply, moves in tables:
        assert (ply, moves) == (len(OPENING), OPENING)


def test_thirty_moves_racing_on_one_game_make_exactly_one(origin):
    """Thirty different first moves sent at once by the player to move: one is played, every other is
    refused (the game has moved on) with the game as it now is."""
    game_id, tokens = new_game(origin, "127.0.0.50")
    status, game = call(origin, "GET", f"/v1/games/{game_id}", source="127.0.0.50")
    moves = game["legal_moves"]
    assert len(moves) == 20  # chess: every first move, and ten sent twice
    racers = [moves[index % len(moves)] for index in range(RACERS)]
    start = threading.Barrier(RACERS)

    def race(move: str) -> tuple[int, dict]:
        start.wait()
        return call(
            origin, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": 0}, tokens["white"], "127.0.0.50"
        )

    with ThreadPoolExecutor(RACERS) as pool:
        answers = list(pool.map(race, racers))
    status, game = call(origin, "GET", f"/v1/games/{game_id}?moves_after=0", source="127.0.0.50")
    assert status == 200 and game["ply"] == 1 and len(game["moves"]) == 1
    played = game["moves"][0]
    for move, (status, body) in zip(racers, answers, strict=True):
        if status == 200:  # the move played, or the same move sent twice: answered as played
            assert move == played and body["ply"] == 1, body
        else:
            assert status == 409 and body["error"]["code"] and body["game"]["ply"] == 1, body
    assert sum(status == 200 for status, _ in answers) in (1, 2)  # the winner, and its twin if it was sent twice
