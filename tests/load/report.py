"""The table `make load` prints: latency percentiles per route (Locust's own statistics), answers that are
not 2xx/304 by route and status, and from the runner's counters (local/probe.py) the CPU time each route
took in the runner, its DynamoDB calls and the capacity units DynamoDB (dynalite) reported for them."""

from __future__ import annotations

import csv
import json
import os
import statistics
from pathlib import Path


def _route_deltas(before: dict | None, after: dict | None) -> dict[str, dict]:
    """Per route, what happened between the two readings of the runner's counters."""
    if not before or not after:
        return {}
    deltas = {}
    for route, now in after["routes"].items():
        then = before["routes"].get(route, {"requests": 0, "cpu_seconds": [], "calls": {}})
        then.setdefault("read_units", 0.0)
        calls = {op: count - then["calls"].get(op, 0) for op, count in now["calls"].items()}
        deltas[route] = {
            "requests": now["requests"] - then["requests"],
            "cpu": now["cpu_seconds"][len(then["cpu_seconds"]) :],
            "calls": sum(calls.values()),
            "read_units": now["read_units"] - then.get("read_units", 0.0),
            "write_units": now["write_units"] - then.get("write_units", 0.0),
            "failed_conditions": now["failed_conditions"] - then.get("failed_conditions", 0),
        }
    return deltas


def _print_latencies(out: Path) -> tuple[int, float]:
    """Locust's per-route table; (requests, requests per second of wall time)."""
    print(
        f"{'route (as the simulated players name it)':46} {'reqs':>6} {'req/s':>6} {'p50':>6} {'p95':>6} {'p99':>6} ms"
    )
    total = (0, 0.0)
    with open(out / "load_stats.csv", encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            name = row["Name"] if row["Name"] != "Aggregated" else "all requests"
            count, rate = int(row["Request Count"]), float(row["Requests/s"])
            print(f"{name:46} {count:6d} {rate:6.1f} {row['50%']:>6} {row['95%']:>6} {row['99%']:>6}")
            if row["Name"] == "Aggregated":
                total = (count, rate)
    return total


def _print_statuses(out: Path) -> int:
    """Answers other than 2xx and 304, by route and status; the number of 5xx and unanswered requests."""
    path = out / "statuses.json"
    rows = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    odd = sorted((row for row in rows if row["status"] >= 300 and row["status"] != 304), key=lambda r: -r["count"])
    print("\nanswers other than 2xx/304 (status 0: no answer):" + ("" if odd else " none"))
    for row in odd:
        print(f"  {row['status']:3d}  {row['count']:6d}  {row['route']}")
    return sum(row["count"] for row in rows if row["status"] >= 500 or row["status"] == 0) + _print_socket_failures(out)


def _print_socket_failures(out: Path) -> int:
    """The live socket's failures as Locust counted them (a refused or timed-out handshake, a closed socket)."""
    path = out / "load_failures.csv"
    with open(path, encoding="utf-8") if path.exists() else open(os.devnull, encoding="utf-8") as rows:
        found = [row for row in csv.DictReader(rows) if row.get("Method") == "WS"]
    print("live socket failures:" + ("" if found else " none"))
    for row in found:
        print(f"  {int(row['Occurrences']):6d}  {row['Name']}: {row['Error'][:100]}")
    return sum(int(row["Occurrences"]) for row in found)


def _print_runner(deltas: dict[str, dict], users: int) -> None:
    print(f"\n{'route in the runner (template route key)':46} {'reqs':>6} {'cpu p50':>8} {'cpu mean':>8} ms "
          f"{'ddb/req':>7} {'RRU/req':>7} {'WRU/req':>7} {'failed cond.':>12}")  # fmt: skip
    for route, delta in sorted(deltas.items(), key=lambda item: -item[1]["requests"]):
        count = delta["requests"]
        if not count and not delta["calls"]:
            continue
        per = max(count, 1)
        cpu = delta["cpu"] or [0.0]
        print(
            f"{route:46} {count:6d} {statistics.median(cpu) * 1000:8.2f} {statistics.fmean(cpu) * 1000:8.2f}    "
            f"{delta['calls'] / per:7.2f} {delta['read_units'] / per:7.2f} {delta['write_units'] / per:7.2f} "
            f"{delta['failed_conditions']:12d}"
        )


def print_report(out: Path, before: dict | None, after: dict | None, wall: float, users: int) -> int:
    """Print the tables; the number of 5xx and unanswered requests."""
    requests, rate = _print_latencies(out)
    failures = _print_statuses(out)
    deltas = _route_deltas(before, after)
    if not deltas:
        print("\nthe runner has no counters (PACKAGED=1 runs each function in a process of its own)")
        return failures
    _print_runner(deltas, users)
    api = {route: delta for route, delta in deltas.items() if route.split(" ")[-1].startswith("/v1/")}
    api_requests = sum(delta["requests"] for delta in api.values())
    api_cpu = sum(sum(delta["cpu"]) for delta in api.values())
    calls = sum(delta["calls"] for delta in api.values())
    runner_cpu = after["process_cpu_seconds"] - before["process_cpu_seconds"] if after and before else 0.0
    print(
        f"\n{users} users, {wall:.0f} s: {requests} requests, {rate:.1f} req/s on {os.cpu_count()} cores shared with "
        f"Locust and dynalite.\nThe runner and its functions' instances used {runner_cpu:.1f} CPU s: "
        f"{requests / max(runner_cpu, 1e-9):.0f} requests per CPU-second, i.e. req/s per core.\n"
        f"API requests alone: {api_requests}, {api_cpu / max(api_requests, 1) * 1000:.1f} ms CPU each in the "
        f"functions, {api_requests / max(api_cpu, 1e-9):.0f} per CPU-second; DynamoDB calls per API request: "
        f"{calls / max(api_requests, 1):.2f} ((background): the local stream's polling and the notify function)."
    )
    _print_live(before, after)
    return failures


def _print_live(before: dict | None, after: dict | None) -> None:
    """The live socket's counters in the runner (local/live_socket.py): connections opened, held at once, pushed."""
    now, then = (after or {}).get("live_sockets") or {}, (before or {}).get("live_sockets") or {}
    if not now:
        return
    print(
        f"Live sockets: {now['opened'] - then.get('opened', 0)} opened in the run, at most {now['peak']} open at "
        f"once (since the runner started), {now['open']} still open; {now['posted'] - then.get('posted', 0)} "
        "messages pushed by the fan-out."
    )
