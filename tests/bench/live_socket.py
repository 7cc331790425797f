"""`make bench` section "live_socket": from a move's POST to the opponent's screen, over the live socket and by
polling, on the same `make run` (the local runner on dynalite, loopback) in the same run.

Each table has, for the player waiting: a WebSocket following the game (``websockets``' client, as the page's
socket) and a phone polling every second with its ETag, as the page does without the socket (tests/bench/live.py's
``Phone``). Each move's delay is measured from just before its POST to the moment each of the two sees the new
ply. Then the cost of a 10-minute live table and of one with 20 watchers, socket against polling
(tests/load/live_costs.py, docs/capacity.md).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import threading
import time

TABLES = 4
MOVES = 10  # moves played on each table
WAIT = 30.0


class SocketPhone(threading.Thread):
    """The waiting player's live socket: notes when each ply first arrives."""

    def __init__(self, origin: str, game_id: str, token: str, source: str):
        from tests.bench.live import call

        super().__init__(daemon=True)
        self.game_id = game_id
        ticket = call(origin, "POST", "/v1/live/tickets", token=token, source=source)[2]
        from websockets.sync.client import connect

        self.socket = connect(origin.replace("http://", "ws://") + ticket["url"], open_timeout=WAIT)
        self.socket.send(json.dumps({"action": "subscribe", "game": game_id, "ply": 0}))
        assert json.loads(self.socket.recv(timeout=WAIT))["type"] == "subscribed"
        self.seen: dict[int, float] = {}
        self.messages = 0
        self.changed = threading.Condition()

    def run(self) -> None:
        try:
            for text in self.socket:
                message = json.loads(text)
                with self.changed:
                    self.messages += 1
                    self.seen.setdefault(message["state"]["ply"], time.monotonic())
                    self.changed.notify_all()
        except Exception:  # closed at the end
            return

    def wait_for_ply(self, ply: int) -> None:
        with self.changed:
            self.changed.wait_for(lambda: ply in self.seen, timeout=WAIT)


def play(origin: str, index: int, out: dict) -> None:
    from tests.bench.live import Phone, call, new_table, source_of

    game_id, tokens = new_table(origin, index)
    source = source_of(index)
    sockets = {color: SocketPhone(origin, game_id, token, source) for color, token in tokens.items()}
    polls = {color: Phone(origin, game_id, token, source) for color, token in tokens.items()}
    for phone in (*sockets.values(), *polls.values()):
        phone.start()
    rng = random.Random(index)
    state = polls["white"].wait_for_ply(0)
    for ply in range(MOVES):
        mover, waiting = ("white", "black") if ply % 2 == 0 else ("black", "white")
        time.sleep(rng.uniform(0.3, 1.3))  # thinking; the poll's phase against the move is as random
        started = time.monotonic()
        status, _, body, _ = call(
            origin, "POST", f"/v1/games/{game_id}/moves", {"move": state["legal_moves"][0], "ply": ply},
            tokens[mover], source=source,
        )  # fmt: skip
        answered = time.monotonic()
        if status != 200:
            out.setdefault("refused", []).append(status)
            return
        sockets[waiting].wait_for_ply(ply + 1)
        state = polls[waiting].wait_for_ply(ply + 1)
        out.setdefault("post", []).append(answered - started)
        for kind, phone in (("socket", sockets[waiting]), ("poll", polls[waiting])):
            if ply + 1 in phone.seen:
                out.setdefault(kind, []).append(phone.seen[ply + 1] - started)
                out.setdefault(f"{kind} after the answer", []).append(phone.seen[ply + 1] - answered)
    for phone in polls.values():
        phone.running = False
    out.setdefault("messages", []).append(sum(phone.messages for phone in sockets.values()))
    out.setdefault("polls", []).append(sum(phone.requests for phone in polls.values()))
    for phone in sockets.values():
        phone.socket.close()


def hold(origin: str, count: int = 500) -> None:
    """``count`` watchers' sockets open at once on one game (20 an address, the limit), one move, each told once."""
    import socket as sockets
    from urllib.parse import urlsplit

    from websockets.sync.client import connect

    from tests.bench.live import GAME, call

    source = "127.0.0.10"
    white, black = (call(origin, "POST", "/v1/players", {}, source=source)[2]["token"] for _ in range(2))
    # By correspondence: opening 500 sockets takes longer than a live turn on a busy machine.
    created = call(origin, "POST", "/v1/games", {"game": GAME, "color": "white"}, white, source=source)[2]
    game_id = created["game"]["id"]
    call(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, black, source=source)
    host, port = urlsplit(origin).hostname, urlsplit(origin).port
    opened, started = [], time.monotonic()
    refused: list[int | str] = []  # the watchers not subscribed (their number), and the failures
    for number in range(count):
        address = f"127.0.{3 + number // 20}.{1 + number % 20}"
        try:
            ticket = call(origin, "POST", "/v1/live/tickets", source=address)[2]
            raw = sockets.create_connection((host, port), timeout=WAIT, source_address=(address, 0))
            watcher = connect(origin.replace("http://", "ws://") + ticket["url"], sock=raw, open_timeout=WAIT)
            watcher.send(json.dumps({"action": "subscribe", "game": game_id, "ply": 0}))
            if json.loads(watcher.recv(timeout=WAIT))["type"] != "subscribed":
                refused.append(number)
            opened.append(watcher)
        except Exception as error:  # counted: the figure is how many failed
            refused.append(f"{number}: {type(error).__name__}")
    took = time.monotonic() - started
    move = {"move": "c3-d4", "ply": 0}
    status = call(origin, "POST", f"/v1/games/{game_id}/moves", move, white, source=source)[0]
    told = 0
    deadline = time.monotonic() + WAIT
    for watcher in opened:
        try:
            told += json.loads(watcher.recv(timeout=max(0.1, deadline - time.monotonic())))["state"]["ply"] == 1
        except Exception as error:
            refused.append(type(error).__name__)
    for watcher in opened:
        watcher.close()
    print(
        f"  {len(opened)} of {count} sockets open at once in {took:.0f} s (a ticket, the handshake, a subscription "
        f"each); the move ({status}) reached {told} of them; failures: {refused[:5] or 'none'}"
    )


def bench_live_socket() -> None:
    from tests.bench.common import heading
    from tests.bench.live import percentile
    from tests.browser.harness import LocalSite, missing_dynamodb
    from tests.load.live_costs import report as cost_report

    heading("live_socket: a move's POST to the opponent's screen, live socket beside polling (loopback)")
    if missing_dynamodb():
        print(f"  skipped: {missing_dynamodb()}")
    else:
        print(f"  load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        with LocalSite() as site:
            play(site.origin, 99, {})  # the cold starts, left out of the figures
            out: dict = {}
            threads = [threading.Thread(target=play, args=(site.origin, index, out)) for index in range(TABLES)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            hold(site.origin)
        rows = (
            ("socket", "over the live socket"),
            ("poll", "by a poll every second (ETag)"),
            ("post", "the move's POST alone (its answer)"),
            ("socket after the answer", "socket, from the POST's answer"),
        )
        for kind, label in rows:
            values = [value * 1000 for value in out.get(kind, [])]
            if values:
                print(
                    f"  {label:32} {len(values)} moves: p50 {statistics.median(values):.0f} ms, "
                    f"p95 {percentile(values, 0.95):.0f} ms, max {max(values):.0f} ms"
                )
        if out.get("socket") and out.get("poll"):
            ratio = statistics.median(out["poll"]) / statistics.median(out["socket"])
            print(f"  the socket is {ratio:.1f}x sooner at the median (goal: p95 under 100 ms)")
        print(
            f"  per table of {MOVES} moves: {statistics.mean(out.get('messages', [0])):.0f} socket messages to the "
            f"two players, {statistics.mean(out.get('polls', [0])):.0f} polls by their two polling pages; "
            f"refused moves: {out.get('refused', [])}; load average after: {os.getloadavg()[0]:.1f}"
        )
    cost_report()
