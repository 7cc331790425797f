"""Simulated players against `make run` (run by `make load`, tests/load/__main__.py; never by `make test`).

Each simulated user is one phone: its own player (token) and its own address, the source address of its
connections (127.1.x.y: the whole of 127/8 is this machine's loopback), which the runner hands the functions as
CloudFront hands them a viewer's, so the per-address limits see many phones, not one. The
mix, by task weight (docs/capacity.md says why): pages of the site, the rules page API, move checks, the
daily puzzle and the next puzzle solved or failed move by move, the player's puzzle progress, correspondence
games between two simulated players (one creates and shares an invite, another joins; both poll with ETags
and move in turn, and one resigns in four once a game is past its opening), games against the computer at
levels 1-2, and (tests/load/tables.py) the lobby's rated and casual challenges, live tables, the leaderboard
and reviews of finished games; the live tables are played and watched over the live socket
(tests/load/live_player.py). ``Spectator`` users (``make load SPECTATORS=500``, on top of ``USERS``) only
watch live tables over the socket, arriving within the first minute, one socket each held to the end of the
run: the figure is how many sockets the runner holds at once with no failure. Every request is named by its template route, so
the percentiles are per route. Only http://127.0.0.1 is ever requested: any other host stops the run before the first request, and
redirects are never followed.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

from locust import HttpUser, TaskSet, between, events, task
from locust.exception import StopUser
from requests.adapters import HTTPAdapter

from tests.load import live_watch, tables
from tests.load.tables import Phone
from tests.load.target import RemoteHost, loopback_origin

ROOT = Path(__file__).resolve().parents[2]
GAMES = tables.GAMES
LANGS = ("sw", "tl", "en")
#: Answers that are part of the game, not failures: a refusal a real client meets and handles.
EXPECTED = {200, 201, 202, 304, 404, 409, 422, 429}
#: Every answer's status, by route: written to UBAO_LOAD_OUT/statuses.json when the run ends.
STATUSES: Counter[tuple[str, int]] = Counter()
#: Invites waiting for a second player: (game id, invite code, creator's token).
OPEN_INVITES: deque[tuple[str, str, str]] = deque(maxlen=200)
_addresses = itertools.count(1)


def _puzzles() -> dict[str, dict]:
    found = {}
    for game in GAMES:
        with open(ROOT / "puzzles" / f"{game}.jsonl", encoding="utf-8") as lines:
            for line in lines:
                puzzle = json.loads(line)
                found[puzzle["id"]] = puzzle
    return found


def _pages() -> list[str]:
    """The built site's HTML pages as paths (``/sw/sheria/chess/``); the home page when it is not built."""
    build = ROOT / "site" / "build"
    pages = [f"/{path.parent.relative_to(build).as_posix()}/" for path in build.glob("*/**/index.html")]
    return sorted(pages) or ["/"]


PUZZLES = _puzzles()
PAGES = _pages()


@events.init.add_listener
def refuse_remote_hosts(environment, **_) -> None:
    """Stop before any request when the host is not 127.0.0.1 (the users check again on start)."""
    try:
        loopback_origin(environment.host)
    except RemoteHost as refusal:
        environment.process_exit_code = 2
        if environment.runner is not None:
            environment.runner.quit()
        raise SystemExit(str(refusal)) from refusal


@events.request.add_listener
def count_status(request_type, name, exception, response=None, **_) -> None:
    if request_type == "WS":  # the live socket's events (tests/load/live_*.py) carry no HTTP answer
        return
    status = getattr(response, "status_code", None) or 0  # 0: no answer (connection refused, timeout)
    STATUSES[(name, int(status))] += 1


@events.quitting.add_listener
def write_statuses(**_) -> None:
    out = os.environ.get("UBAO_LOAD_OUT")
    if out:
        rows = [{"route": route, "status": status, "count": count} for (route, status), count in STATUSES.items()]
        Path(out, "statuses.json").write_text(json.dumps(rows), encoding="utf-8")


def weighted(weights: dict[Callable[[Phone], None], int]) -> list[TaskSet | Callable]:
    """Each task as many times as its weight: the list locust itself makes of a dict of weights."""
    return [task for task, weight in weights.items() for _ in range(weight)]


class Player(HttpUser):
    """One phone: a player who reads, solves puzzles and plays, with a few seconds between actions."""

    wait_time = between(1, 4)
    #: The lobby, live tables (played and watched over the live socket), the leaderboard and reviews,
    #: with their weights beside the methods' below.
    tasks = weighted(
        {tables.lobby: 3, tables.live_table: 2, tables.leaderboard: 2, tables.review: 3, live_watch.watch: 2}
    )
    #: A correspondence game past this many plies is resigned by the player to move, one time in four.
    RESIGN_FROM_PLY = 16

    def on_start(self) -> None:
        loopback_origin(self.host)  # RemoteHost ends this user before its first request
        number = next(_addresses)
        self.address = f"127.1.{number // 250 % 250}.{number % 250 + 1}"
        self.client.mount("http://", FromAddress(self.address))
        self.token: str | None = None
        self.player_id: str | None = None
        self.games: dict[str, dict] = {}  # game id -> {"seat", "etag"}
        self.finished: list[str] = []  # games this player saw end, to ask a review of
        created = self.call("POST", "/v1/players", "POST /v1/players", {"name": f"Load {self.address}"})
        if created is None or created.status_code != 201:
            raise StopUser()
        self.token, self.player_id = created.json()["token"], created.json()["player_id"]

    # -- plumbing -----------------------------------------------------------------------------------------
    def call(self, method: str, path: str, name: str, body=None, headers: dict | None = None):
        sent = dict(headers or {})
        if self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        with self.client.request(
            method, path, name=name, json=body, headers=sent, allow_redirects=False, catch_response=True
        ) as response:
            if response.status_code in EXPECTED:
                response.success()
            else:
                response.failure(f"HTTP {response.status_code}")
            return response

    # -- reading ------------------------------------------------------------------------------------------
    @task(30)
    def read_page(self) -> None:
        self.call("GET", random.choice(PAGES), "GET page (site)")

    @task(4)
    def rules_page(self) -> None:
        game, lang = random.choice(GAMES), random.choice(LANGS)
        self.call("GET", f"/v1/rules/{game}?lang={lang}", "GET /v1/rules/{game}")

    @task(8)
    def validate(self) -> None:
        moves = random.choice((["e4"], ["d4", "d5", "c4"], ["e4", "e5", "Nf3", "Nc6", "Bb5"]))
        self.call(
            "POST", "/v1/validate", "POST /v1/validate", {"game": "chess", "moves": moves[:-1], "move": moves[-1]}
        )

    # -- puzzles ------------------------------------------------------------------------------------------
    @task(12)
    def daily_puzzle(self) -> None:
        answer = self.call("GET", f"/v1/puzzles/daily?game={random.choice(GAMES)}", "GET /v1/puzzles/daily")
        if answer.status_code == 200:
            self.solve(answer.json()["id"])

    @task(12)
    def next_puzzle(self) -> None:
        answer = self.call("GET", f"/v1/puzzles/next?game={random.choice(GAMES)}", "GET /v1/puzzles/next")
        if answer.status_code == 200:
            self.solve(answer.json()["id"])

    @task(3)
    def my_puzzles(self) -> None:
        self.call("GET", "/v1/players/me/puzzles?tz=Africa/Dar_es_Salaam", "GET /v1/players/me/puzzles")

    def solve(self, puzzle_id: str) -> None:
        """Play the puzzle move by move: the solution six times in ten, else a wrong first move."""
        puzzle = PUZZLES[puzzle_id]
        mine = list(puzzle["solution"][::2])
        if random.random() >= 0.6:
            mine = [_wrong_move(puzzle)]
        for count in range(1, len(mine) + 1):
            answer = self.call(
                "POST", f"/v1/puzzles/{puzzle_id}/attempt", "POST /v1/puzzles/{id}/attempt", {"moves": mine[:count]}
            )
            if answer.status_code != 200 or answer.json()["result"] != "continue":
                return

    # -- games --------------------------------------------------------------------------------------------
    @task(5)
    def correspondence(self) -> None:
        """Join another simulated player's invite, or share one; at most three games at once."""
        joined = tables.join_shared(self, OPEN_INVITES)
        if joined:
            self.games[joined[0]] = {"seat": joined[1], "etag": None}
            return
        if len(self.games) < 3:
            body = {"game": random.choice(GAMES), "color": random.choice(("white", "black"))}
            created = self.call("POST", "/v1/games", "POST /v1/games", body)
            if created.status_code == 201:
                found = created.json()
                OPEN_INVITES.append((found["game"]["id"], found["invite"]["code"], self.token or ""))
                self.games[found["game"]["id"]] = {"seat": body["color"], "etag": None}

    @task(10)
    def play_games(self) -> None:
        """Look at each game (an ETag poll, a 304 when nothing changed) and move where it is this player's turn."""
        for game_id, seat in list(self.games.items()):
            headers = {"If-None-Match": seat["etag"]} if seat["etag"] else {}
            answer = self.call("GET", f"/v1/games/{game_id}", "GET /v1/games/{id}", headers=headers)
            if answer.status_code != 200:
                continue
            seat["etag"] = answer.headers.get("ETag")
            view = answer.json()
            if view.get("state") == "finished":
                del self.games[game_id]
                self.finished.append(game_id)
            elif view.get("state") == "active" and view.get("turn") == seat["seat"] and view.get("legal_moves"):
                if view["ply"] >= self.RESIGN_FROM_PLY and random.random() < 0.25:
                    self.call("POST", f"/v1/games/{game_id}/resign", "POST /v1/games/{id}/resign")
                    continue  # the next look finds it finished
                move = {"move": random.choice(view["legal_moves"]), "ply": view["ply"]}
                self.call("POST", f"/v1/games/{game_id}/moves", "POST /v1/games/{id}/moves", move)

    @task(4)
    def against_the_computer(self) -> None:
        """A new game against the computer (level 1 or 2) and a few moves of it, one request each."""
        body = {
            "game": random.choice(GAMES),
            "color": "white",
            "opponent": {"type": "cpu", "level": random.choice((1, 2))},
        }
        created = self.call("POST", "/v1/games", "POST /v1/games (computer)", body)
        if created.status_code != 201:
            return
        view = created.json()["game"]
        for _ in range(random.randint(2, 5)):
            if view.get("state") != "active" or not view.get("legal_moves"):
                return
            move = {"move": random.choice(view["legal_moves"]), "ply": view["ply"]}
            answer = self.call("POST", f"/v1/games/{view['id']}/moves", "POST /v1/games/{id}/moves (computer)", move)
            if answer.status_code != 200:
                return
            view = answer.json()


class Spectator(HttpUser):
    """A watcher without a player (``make load SPECTATORS=n``: their number, fixed, beside the players): arrives
    within the first ``SPECTATORS_ARRIVE`` seconds (people come one by one, not in one instant), then follows one
    of the live tables being played over the live socket and holds it to the end of the run."""

    fixed_count = int(os.environ.get("UBAO_LOAD_SPECTATORS") or 0)
    wait_time = between(0.5, 2)
    SPECTATORS_ARRIVE = 60.0
    HOLD_SECONDS = 1800.0  # the longest run: Locust closes the socket at the end

    def on_start(self) -> None:
        loopback_origin(self.host)
        number = next(_addresses)
        self.address = f"127.1.{number // 250 % 250}.{number % 250 + 1}"
        self.client.mount("http://", FromAddress(self.address))
        self.token: str | None = None
        time.sleep(random.uniform(0, self.SPECTATORS_ARRIVE))  # gevent's sleep under Locust

    call = Player.call

    @task
    def watch(self) -> None:
        live_watch.watch(self, self.HOLD_SECONDS)


class FromAddress(HTTPAdapter):
    """Connections from one source address (the requests still go to 127.0.0.1 only)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **{**kwargs, "source_address": (self.address, 0)})


def _wrong_move(puzzle: dict) -> str:
    """A legal first move other than the solution's (its first move when there is no other)."""
    from shared_rules import get_game

    position = get_game(puzzle["game"]).from_fen(puzzle["fen"])
    others = [move for move in position.legal_notations() if move != puzzle["solution"][0]]
    return random.choice(others) if others else puzzle["solution"][0]
