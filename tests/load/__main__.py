"""`make load USERS=50 DURATION=60`: the simulated players of tests/load/locustfile.py against a running
`make run`, bounded in users and seconds, then one table (tests/load/report.py).

    python -m tests.load [--users 50] [--duration 60] [--host http://127.0.0.1:3000]

It refuses any host but 127.0.0.1 before starting anything, and needs the runner up (it reads the runner's
counters at GET /v1/_local/stats before and after the run: local/probe.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.load.report import print_report
from tests.load.target import RemoteHost, loopback_origin

ROOT = Path(__file__).resolve().parents[2]
LOCUSTFILE = Path(__file__).with_name("locustfile.py")
#: Hard bounds, so a typo cannot start an hour-long run or thousands of users on a shared machine.
MAX_USERS = 500
MAX_SECONDS = 1800


def runner_stats(origin: str) -> dict | None:
    """The runner's counters (local/probe.py), or None when the runner has none (PACKAGED=1)."""
    try:
        with urllib.request.urlopen(f"{origin}/v1/_local/stats", timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError:
        return None


def run_locust(origin: str, users: int, seconds: int, out: Path, spectators: int = 0) -> int:
    spawn_rate = max(1, (users + spectators) // 10)  # every user started within the first ten seconds
    command = [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--only-summary",
        "--host", origin, "--users", str(users + spectators), "--spawn-rate", str(spawn_rate),
        "--run-time", f"{seconds}s", "--stop-timeout", "10", "--csv", str(out / "load"),
        "--loglevel", "WARNING",
    ]  # fmt: skip
    command += ["Player", "Spectator"] if spectators else ["Player"]
    environment = {**os.environ, "UBAO_LOAD_OUT": str(out), "PYTHONPATH": str(ROOT)}
    environment["UBAO_LOAD_SPECTATORS"] = str(spectators)
    with open(out / "locust.log", "w", encoding="utf-8") as log:  # Locust's own summary: ours replaces it
        code = subprocess.run(command, cwd=ROOT, env=environment, stdout=log, stderr=log, check=False).returncode
    if code not in (0, 1):  # 1: some request failed (the report shows which); anything else: Locust did not run
        print((out / "locust.log").read_text(encoding="utf-8")[-3000:], file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=int, default=60, help="seconds")
    parser.add_argument("--spectators", type=int, default=0, help="watchers over the live socket, beside the users")
    parser.add_argument("--host", default=f"http://127.0.0.1:{os.environ.get('PORT', '3000')}")
    options = parser.parse_args(argv)
    try:
        origin = loopback_origin(options.host)
    except RemoteHost as refusal:
        parser.error(str(refusal))
    if not (1 <= options.users <= MAX_USERS and 1 <= options.duration <= MAX_SECONDS):
        parser.error(f"USERS from 1 to {MAX_USERS}, DURATION from 1 to {MAX_SECONDS} seconds")
    if not 0 <= options.spectators <= MAX_USERS:
        parser.error(f"SPECTATORS from 0 to {MAX_USERS}")
    try:
        before = runner_stats(origin)
    except OSError as error:
        print(f"no runner at {origin} ({error}): start `make run` first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="ubao-load-") as scratch:
        out = Path(scratch)
        started = time.monotonic()
        code = run_locust(origin, options.users, options.duration, out, options.spectators)
        wall = time.monotonic() - started
        after = runner_stats(origin)
        failures = print_report(out, before, after, wall, options.users)
    return code if code not in (0, 1) else int(failures > 0)


if __name__ == "__main__":
    sys.exit(main())
