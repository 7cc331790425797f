"""The API description is the contract: Schemathesis checks every operation of docs/openapi.json against
`make run`'s own server.

    python -m local.contract [--max-examples 15] [--seed 27]          (make contract)

It starts the local runner as `make run` does (``python -m local.runner``) on a free port, with dynalite on a
fresh temporary folder and every rate limit 10,000 times larger (``RATE_LIMIT_SCALE``: thousands of requests
from one address test the routes, not the limits), makes one player so the authenticated routes are reached
with a real token, and runs Schemathesis over whatever operations the description holds, with a bounded
number of examples and a fixed seed. The checks: no server error (``not_a_server_error``), every
status documented (``status_code_conformance``), every content type documented
(``content_type_conformance``), every body matching its schema (``response_schema_conformance``).

It fails when Schemathesis reports a failure or when the runner logged a traceback or a 500 (a crash the
checks could have missed); the runner's log is printed then. docs/contract.md says how to read a failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from local.dynamodb import free_port
from local.openapi import OUTPUT as OPENAPI_FILE
from local.template import ROOT

CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance")
#: How much larger every rate limit is for the run (common.web.ratelimit reads it).
RATE_LIMIT_SCALE = "10000"
#: The line the local runner logs for each request: "METHOD target STATUS 12.3 ms".
REQUEST_LINE = re.compile(r"^[A-Z]+ \S+ (\d{3}) [\d.]+ ms$")
TRACEBACK = "Traceback (most recent call last)"
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"


def start_local_runner(site_dir: Path, log: IO[bytes], environment: dict[str, str]) -> subprocess.Popen[bytes]:
    """``python -m local.runner`` as `make run` starts it, writing to ``log`` (a file, never a pipe: the runner
    logs every request and must never block on output no one reads)."""
    command = [sys.executable, "-m", "local.runner", "--site-dir", str(site_dir)]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)


def wait_until_serving(process: subprocess.Popen[bytes], log: Callable[[], str], url: str, timeout: float) -> bool:
    """Whether the runner said it runs and answers ``url`` within ``timeout`` seconds (its own word first:
    another server that took the port meanwhile would answer too); RuntimeError with its log if it stopped."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the local server stopped at start (exit {process.returncode}):\n{log()}")
        if "ubao is running on" in log() and _answers(url):
            return True
        time.sleep(0.1)
    return False


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()
            return True
    except urllib.error.HTTPError:
        return True  # any HTTP answer means the server is serving
    except OSError:
        return False


class LocalRun:
    """``python -m local.runner`` on a free port with its own dynalite and site folder, logging to a file."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "runner.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> None:
        site = self.workdir / "site"
        site.mkdir()
        environment = {**os.environ, "PORT": str(self.port), "PYTHONUNBUFFERED": "1"}
        environment.update(LOCAL_DYNAMODB_DIR=str(self.workdir / "dynalite"), RATE_LIMIT_SCALE=RATE_LIMIT_SCALE)
        for name in ("DYNAMODB_ENDPOINT", "SITE_URL"):  # our own store and origin, never someone else's
            environment.pop(name, None)
        with open(self.log_path, "wb") as log:  # a file: the runner must never block on a full pipe
            self.process = start_local_runner(site, log, environment)
        if not wait_until_serving(self.process, self.log, self.origin + "/v1/push/key", timeout):
            raise RuntimeError(f"the local server did not answer within {timeout:.0f} s:\n{self.log()}")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        """One JSON request to the runner; its JSON answer (an error status raises)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.origin + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """Ctrl-C, as a person stops `make run` (the runner stops its dynalite on the way out)."""
        if self.process is not None:
            interrupt(self.process)
        self.process = None


def interrupt(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C to a runner still running, then wait for it (killed if it has not stopped in 30 s)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def server_errors(log: str) -> list[str]:
    """Each request the runner answered with a 500-502, with the lines it logged since the request before it
    (the function's own log of the error among them). Requests run in threads, so a block may hold another
    request's lines too."""
    found: list[str] = []
    block: list[str] = []
    for line in log.splitlines():
        block.append(line)
        answered = REQUEST_LINE.match(line)
        if answered:
            if answered.group(1) in ("500", "501", "502"):
                found.append("\n".join(block[-40:]))
            block = []
    return found


def known_values(run: LocalRun) -> tuple[str, str]:
    """A player's token, and Schemathesis' settings that send real ids where a path names one: a game of
    that player waiting for its opponent, a puzzle of the daily set (else nearly every request to those
    routes would be a 404 and the contract would check little more than the 404)."""
    token = str(run.call("POST", "/v1/players", {})["token"])
    game = run.call("POST", "/v1/games", {"game": "chess", "color": "white"}, token)["game"]["id"]
    puzzle = run.call("GET", "/v1/puzzles/daily?game=chess")["id"]
    # A club of that player with a second member, so its routes are checked past their 404 (issue 42).
    club = run.call("POST", "/v1/clubs", {"name": "Contract", "game": "all"}, token)
    club_id, code = club["invite"].split("-")
    member = run.call("POST", "/v1/players", {})
    run.call("POST", f"/v1/clubs/{club_id}/join", {"code": code}, member["token"])
    member_id = member["player_id"]
    settings = f"""
[[operations]]
include-path-regex = '^/v1/games/\\{{id\\}}'
parameters = {{ "path.id" = "{game}" }}

[[operations]]
include-path-regex = '^/v1/puzzles/\\{{id\\}}'
parameters = {{ "path.id" = "{puzzle}" }}

[[operations]]
include-path-regex = '^/v1/clubs/\\{{id\\}}(/(join|leave|code))?$'
parameters = {{ "path.id" = "{club_id}" }}

[[operations]]
include-path-regex = '^/v1/clubs/\\{{id\\}}/members/'
parameters = {{ "path.id" = "{club_id}", "path.member" = "{member_id}" }}
"""
    return token, settings


def schemathesis_command(
    origin: str,
    token: str,
    max_examples: int,
    seed: int,
    report: Path,
    settings: Path | None = None,
    only: str | None = None,
) -> list[str]:
    return [
        str(SCHEMATHESIS),
        *(["--config-file", str(settings)] if settings else []),
        "run",
        str(OPENAPI_FILE),
        "--url",
        origin,
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--header",
        f"Authorization: Bearer {token}",
        "--request-timeout",
        "30",
        "--suppress-health-check",
        "too_slow,filter_too_much",
        "--generation-database",
        "none",  # no examples kept from an earlier run: the seed alone decides what runs
        "--report",
        "junit",
        "--report-dir",
        str(report),
        "--no-color",
        *(["--include-path-regex", only] if only else []),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.contract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=15, help="test cases per operation and phase")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (runner log, report)")
    parser.add_argument("--only", metavar="REGEX", help="only the operations whose path matches (a quick run of a few)")
    options = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="ubao-contract-"))
    run = LocalRun(workdir)
    started = time.monotonic()
    try:
        run.start()
        token, settings = known_values(run)
        (workdir / "schemathesis.toml").write_text(settings, encoding="utf-8")
        report = workdir / "report"
        command = schemathesis_command(
            run.origin, token, options.max_examples, options.seed, report, workdir / "schemathesis.toml", options.only
        )
        result = subprocess.run(command, cwd=ROOT, check=False)
    finally:
        run.stop()
    log = run.log()
    crashes = len(server_errors(log)) + log.count(TRACEBACK)
    if crashes:
        print(f"the runner logged {crashes} crash(es):\n{log[-20_000:]}", file=sys.stderr)
    print(f"contract run: {time.monotonic() - started:.0f} s, runner log {run.log_path}", file=sys.stderr)
    if not options.keep and result.returncode == 0 and not crashes:
        shutil.rmtree(workdir, ignore_errors=True)
    return result.returncode or (1 if crashes else 0)


if __name__ == "__main__":
    sys.exit(main())
