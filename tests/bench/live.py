"""`make bench` section "live": 20 live tables (Tanzanian draughts, 60 s a move) playing at once on `make run`
(the local runner on dynalite, as the browser tests start it), each phone polling as the game page does,
beside one table alone on the same server (the reference).

* **The opponent's move**: from the mover's answer to the moment the other phone's poll (every second, with
  its ETag) shows it; the target is 2 s at the 95th percentile.
* **The computer's move after a timeout**: the tables stop moving one after another, a second apart; the
  server's clock is moved on (``POST /v1/_local/clock``, local/clock.py) so their turns run out in real time
  a second apart, and the seconds from each deadline to the moment the other phone sees the computer's move
  are measured; the target is 3 s.
* **A poll that finds nothing new**: the DynamoDB calls it makes (the runner's counters, local/probe.py) and
  the size of its 304 (status line, headers, body) beside the 200 it saves.

The local runner serves requests side by side, each function in up to ``LOCAL_INSTANCES`` instances of its own
(local/instances.py), where AWS runs as many as requests come at once. 40 phones polling every second need
40 times a poll's time in instances each second: on a shared 2-core machine the 20 tables' figures grow with
the load (printed beside them), and the table alone, in the same run, is the reference.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import threading
import time
import urllib.request
from urllib.parse import urlsplit

from tests.checks import known

TABLES = 20
MOVES = 6  # moves played on each table before the tables stop one by one
POLL_SECONDS = 1.0  # LIVE_POLL_MS in site/modules/turn_clock.js
GAME = "tanzanian"
TURN_SECONDS = 60  # the longer limit, so that no turn runs out in real time while a loaded machine plays


def call(
    origin: str,
    method: str,
    path: str,
    body: dict | None = None,
    token: str | None = None,
    etag: str | None = None,
    source: str = "127.0.0.1",
):
    """(status, headers, JSON body or None, raw body) of one request from the address ``source`` (each table
    has its own, as two friends on their own network would: the per-address limits are per table)."""
    parts = urlsplit(origin)
    connection = http.client.HTTPConnection(known(parts.hostname), parts.port, timeout=30, source_address=(source, 0))
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

    def __init__(self, origin: str, game_id: str, token: str, source: str):
        super().__init__(daemon=True)
        self.origin, self.game_id, self.token, self.source = origin, game_id, token, source
        self.etag: str | None = None
        self.seen: dict[int, float] = {}
        self.state: dict = {}
        self.changed = threading.Condition()
        self.running = True
        self.requests = 0
        self.failures = 0  # polls with no answer in time (a phone on a bad link polls on)

    def run(self) -> None:
        while self.running:
            try:
                status, headers, body, _ = call(
                    self.origin, "GET", f"/v1/games/{self.game_id}", etag=self.etag, source=self.source
                )
            except OSError:
                self.failures += 1
                time.sleep(POLL_SECONDS)
                continue
            self.requests += 1
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


def source_of(index: int) -> str:
    return f"127.0.0.{10 + index}"


def new_table(origin: str, index: int) -> tuple[str, dict[str, str]]:
    source = source_of(index)
    players = [call(origin, "POST", "/v1/players", {"name": name}, source=source)[2] for name in ("Asha", "Baraka")]
    tokens = [player["token"] for player in players]
    request = {"game": GAME, "color": "white", "options": {"turn_seconds": TURN_SECONDS}}
    created = call(origin, "POST", "/v1/games", request, token=tokens[0], source=source)[2]
    game_id = created["game"]["id"]
    invite = {"invite": created["invite"]["code"]}
    call(origin, "POST", f"/v1/games/{game_id}/join", invite, token=tokens[1], source=source)
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
            origin,
            "POST",
            f"/v1/games/{game_id}/moves",
            {"move": state["legal_moves"][0], "ply": ply},
            tokens[turn],
            source=source_of(index),
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
    print(f"  load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with LocalSite() as site:
        for count in (1, TABLES):
            tables = [new_table(site.origin, index) for index in range(count)]
            started = time.monotonic()
            out, late = play_tables(site.origin, tables)
            served = out.get("requests", 0)
            report(count, out.get("latency", []), late, out.get("refused", []))
            print(
                f"    {served / max(1e-9, time.monotonic() - started):.0f} requests a second served, "
                f"{out.get('failures', 0)} polls unanswered in 30 s; load average {os.getloadavg()[0]:.1f}"
            )
        poll_cost(site.origin, tables[0][0])


def play_tables(origin: str, tables: list[tuple[str, dict[str, str]]]) -> tuple[dict, list[float]]:
    """Every table played at once, then left to time out a second apart: (what the drivers noted, the delays
    from each deadline to the other phone seeing the computer's move)."""
    phones = {
        game_id: {color: Phone(origin, game_id, token, source_of(index)) for color, token in seats.items()}
        for index, (game_id, seats) in enumerate(tables)
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
    out["requests"] = sum(phone.requests for phone in everyone) + len(out.get("latency", []))
    out["failures"] = sum(phone.failures for phone in everyone)
    return out, late


def report(count: int, latency: list[float], late: list[float], refused: list[int]) -> None:
    print(
        f"  {count} table(s): the opponent's move visible, {len(latency)} moves, each phone polling every {POLL_SECONDS:g} s"
    )
    if latency:
        print(
            f"    median {statistics.median(latency):.2f} s, p95 {percentile(latency, 0.95):.2f} s, "
            f"max {max(latency):.2f} s (target: p95 under 2 s)"
        )
    print(f"    the computer's move after a timeout, seen by the other phone: {len(late)} of {count} tables")
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
    calls = {name: count for name, count in calls.items() if count}
    cpu = after["routes"].get(route, {}).get("cpu_seconds", [])[-polls:]
    print(
        f"  a poll with nothing new: {calls} DynamoDB calls per poll (target: one Query), "
        f"{statistics.median(cpu) * 1000 if cpu else 0:.1f} ms of CPU in the function (median)"
    )
    print(
        f"    a 304 of {statistics.median(sizes):.0f} bytes (headers and all) beside the 200's body of {len(full)} bytes"
    )
