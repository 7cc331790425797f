"""`LOCAL_WARM_INSTANCES`: the local runner starts instances of every function before any request (as Lambda's
provisioned concurrency does), and a request then finds one ready; without it nothing starts until asked."""

from __future__ import annotations

import json
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from local.dynamodb import command_lines, parent_of
from local.template import load
from tests.api.test_local_runner import RUNNER_ENV, start_runner


def instances_of(pid: int) -> int:
    """How many function instances (``python -m local.instances``) the process ``pid`` has started and runs."""
    return sum(1 for child, arguments in command_lines() if "local.instances" in arguments and parent_of(child) == pid)


def started_runner(tmp_path: Path, warm: str | None) -> tuple[subprocess.Popen[str], str]:
    environment = {name: value for name, value in RUNNER_ENV.items() if name != "LOCAL_WARM_INSTANCES"}
    if warm is not None:
        environment["LOCAL_WARM_INSTANCES"] = warm
    return start_runner(tmp_path, environment, stderr=subprocess.DEVNULL)


def stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=60)
    assert process.returncode == 0


def test_warm_instances_start_before_any_request_and_serve_it(tmp_path):
    functions = len(load().functions)
    process, origin = started_runner(tmp_path, "1")
    try:
        deadline = time.monotonic() + 180  # one after another, each a fresh interpreter on a possibly busy machine
        while instances_of(process.pid) < functions and time.monotonic() < deadline:
            time.sleep(0.2)
        assert instances_of(process.pid) == functions  # one of each, and no more
        body = json.dumps({"game": "chess", "move": "e4"}).encode()
        post = urllib.request.Request(
            origin + "/v1/validate", body, {"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(post, timeout=60) as answer:
            assert json.loads(answer.read())["legal"] is True
        assert instances_of(process.pid) == functions  # the request found one ready: no cold start
    finally:
        stop(process)


def test_without_it_no_instance_starts_until_a_request_asks(tmp_path):
    process, _ = started_runner(tmp_path, None)
    try:
        time.sleep(2)  # what the warm runner would have started by now, and more
        assert instances_of(process.pid) == 0
    finally:
        stop(process)
