"""`make bench` section "live": 20 live tables (Tanzanian draughts, 30 s a move) playing at once on `make run`
(the local runner on dynalite, as the browser tests start it), each phone polling as the game page does.

* **The opponent's move**: from the mover's answer to the moment the other phone's poll (every second, with
  its ETag) shows it; the target is 2 s at the 95th percentile.
* **The computer's move after a timeout**: the tables stop moving one after another, a second apart; the
  server's clock is moved on (``POST /v1/_local/clock``, local/clock.py) so their turns run out in real time
  a second apart, and the seconds from each deadline to the moment the other phone sees the computer's move
  are measured; the target is 3 s.
* **A poll that finds nothing new**: the DynamoDB calls it makes (the runner's counters, local/probe.py) and
  the size of its 304 (status line, headers, body) beside the 200 it saves.

The local runner serves one request at a time per function, as one Lambda instance does: 40 phones polling
every second plus the moves share one instance here, where AWS would run several.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import threading
import time
import urllib.request
from urllib.parse import urlsplit

TABLES = 20
MOVES = 6  # moves played on each table before the tables stop one by one
POLL_SECONDS = 1.0  # LIVE_POLL_MS in site/modules/turn_clock.js
GAME = "tanzanian"


def call(origin: str, method: str, path: str, body: dict | None = None, token: str | None = None, etag=None):
    """(status, headers, JSON body or None) of one request; a 4xx or 5xx is an answer here, not an error."""
    parts = urlsplit(origin)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if etag:
        headers["If-None-Match"] = etag
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    answer = connection.getresponse()
    raw = answer.read()
    connection.close()
    return answer.status, answer.getheaders(), (json.loads(raw) if raw else None), raw


class Phone(threading.Thread):
    """One player's game page: reads the game every second with its ETag and notes when each ply first shows."""

    def __init__(self, origin: str, game_id: str, token: str):
        super().__init__(daemon=True)
        self.origin, self.game_id, self.token = origin, game_id, token
        self.etag: str | None = None
        self.seen: dict[int, float] = {}
        self.state: dict = {}
        self.changed = threading.Condition()
        self.running = True

    def run(self) -> None:
        while self.running:
            status, headers, body, _ = call(self.origin, "GET", f"/v1/games/{self.game_id}", etag=self.etag)
            if status == 200:
                with self.changed:
                    self.etag = dict(headers).get("ETag")
                    self.state = body
                    self.seen.setdefault(body["ply"], time.monotonic())
                    self.changed.notify_all()
            time.sleep(POLL_SECONDS)

    def wait_for_ply(self, ply: int, timeout: float = 60) -> dict:
        with self.changed:
            self.changed.wait_for(lambda: self.state.get("ply", -1) >= ply, timeout=timeout)
            return self.state


def new_table(origin: str) -> tuple[str, dict[str, str]]:
    tokens = [call(origin, "POST", "/v1/players", {"name": name})[2]["token"] for name in ("Asha", "Baraka")]
    request = {"game": GAME, "color": "white", "options": {"turn_seconds": 30}}
    created = call(origin, "POST", "/v1/games", request, token=tokens[0])[2]
    game_id = created["game"]["id"]
    call(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=tokens[1])
    return game_id, {"white": tokens[0], "black": tokens[1]}


def play_table(origin: str, game_id: str, tokens: dict, phones: dict, index: int, out: dict) -> None:
    """The two players take turns (thinking half a second to a second and a half), then stop one by one."""
    rng = random.Random(index)
    ply = 0
    for number in range(MOVES + 1):
        turn = "white" if ply % 2 == 0 else "black"
        state = phones[turn].wait_for_ply(ply)
        pause = rng.uniform(0.5, 1.5) if number < MOVES else 1.0 * index  # the last move: a second apart
        time.sleep(pause)
        status, _, body, _ = call(
            origin, "POST", f"/v1/games/{game_id}/moves", {"move": state["legal_moves"][0], "ply": ply}, tokens[turn]
        )
        moved = time.monotonic()
        if status != 200:
            out.setdefault("refused", []).append(status)
            return
        ply = body["ply"]
        opponent = phones["black" if turn == "white" else "white"]
        seen = opponent.wait_for_ply(ply)
        out.setdefault("latency", []).append(opponent.seen.get(seen["ply"], time.monotonic()) - moved)
    out.setdefault("last", {})[game_id] = (ply, time.monotonic(), body["turn_ms_left"] / 1000)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench_live() -> None:
    from tests.bench.common import heading
    from tests.browser.harness import LocalSite, missing_dynamodb

    heading("live: 20 live tables at once on make run; the computer after a timeout; a poll's cost")
    if missing_dynamodb():
        print(f"  skipped: {missing_dynamodb()}")
        return
    with LocalSite() as site:
        tables = [new_table(site.origin) for _ in range(TABLES)]
        out, late = play_tables(site.origin, tables)
        report(out.get("latency", []), late, out.get("refused", []))
        poll_cost(site.origin, tables[0][0])


def play_tables(origin: str, tables: list[tuple[str, dict[str, str]]]) -> tuple[dict, list[float]]:
    """Every table played at once, then left to time out a second apart: (what the drivers noted, the delays
    from each deadline to the other phone seeing the computer's move)."""
    phones = {
        game_id: {color: Phone(origin, game_id, token) for color, token in seats.items()} for game_id, seats in tables
    }
    everyone = [phone for pair in phones.values() for phone in pair.values()]
    for phone in everyone:
        phone.start()
    out: dict = {}
    drivers = [
        threading.Thread(target=play_table, args=(origin, game_id, seats, phones[game_id], index, out))
        for index, (game_id, seats) in enumerate(tables)
    ]
    started = time.monotonic()
    for driver in drivers:
        driver.start()
    # Each table's last move starts a turn nobody plays: the clock is moved on so that the first runs out a
    # second from now and the others follow a second apart, in real time, while the other phones poll.
    while len(out.get("last", {})) < len(tables) and time.monotonic() - started < 300:
        time.sleep(0.2)
    last = out.get("last", {})
    skip = min(at + left for _, at, left in last.values()) - time.monotonic() - 1.0
    call(origin, "POST", "/v1/_local/clock", {"advance": skip})
    late = []
    for game_id, (ply, at, left) in last.items():
        watcher = phones[game_id]["white" if ply % 2 == 1 else "black"]  # the player who made the last move
        watcher.wait_for_ply(ply + 1, timeout=60)
        if ply + 1 in watcher.seen:
            late.append(watcher.seen[ply + 1] - (at + left - skip))
    for phone in everyone:
        phone.running = False
    for driver in drivers:
        driver.join(timeout=5)
    return out, late


def report(latency: list[float], late: list[float], refused: list[int]) -> None:
    print(f"  opponent's move visible: {len(latency)} moves on {TABLES} tables, polling every {POLL_SECONDS:g} s")
    if latency:
        print(
            f"    median {statistics.median(latency):.2f} s, p95 {percentile(latency, 0.95):.2f} s, "
            f"max {max(latency):.2f} s (target: p95 under 2 s)"
        )
    print(f"  the computer's move after a timeout, seen by the other phone: {len(late)} of {TABLES} tables")
    if late:
        print(
            f"    median {statistics.median(late):.2f} s, p95 {percentile(late, 0.95):.2f} s, "
            f"max {max(late):.2f} s after the deadline (target: under 3 s)"
        )
    if refused:
        print(f"    refused moves: {refused}")


def poll_cost(origin: str, game_id: str, polls: int = 20) -> None:
    """What a poll that finds nothing new costs: DynamoDB calls (the runner's counters) and bytes on the wire."""
    _, headers, _, full = call(origin, "GET", f"/v1/games/{game_id}?moves_after=0")
    etag = dict(headers)["ETag"]
    before = json.loads(urllib.request.urlopen(origin + "/v1/_local/stats", timeout=30).read())
    sizes = []
    for _ in range(polls):
        status, headers, _, raw = call(origin, "GET", f"/v1/games/{game_id}?moves_after=0", etag=etag)
        assert status == 304, status
        head = len("HTTP/1.1 304 Not Modified\r\n") + sum(len(f"{k}: {v}\r\n") for k, v in headers) + 2
        sizes.append(head + len(raw))
    after = json.loads(urllib.request.urlopen(origin + "/v1/_local/stats", timeout=30).read())
    route = "GET /v1/games/{id}"
    calls = {
        name: (count - before["routes"].get(route, {}).get("calls", {}).get(name, 0)) / polls
        for name, count in after["routes"].get(route, {}).get("calls", {}).items()
    }
    print(f"  a poll with nothing new: {calls} DynamoDB calls per poll (target: one Query)")
    print(
        f"    a 304 of {statistics.median(sizes):.0f} bytes (headers and all) beside the 200's body of {len(full)} bytes"
    )
