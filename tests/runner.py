"""A local runner of a test's own (`python -m local.runner` on a free port, on dynalite) and JSON over HTTP to it:
for the tests that need a whole server (the live socket, the push loop)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from local.contract import server_errors
from local.dynamodb import free_port
from local.template import ROOT
from tests.browser.harness import keep_runner_log

#: How long a runner may take to start on a loaded CI machine (not a speed measure).
START_SECONDS = 60


class Http:
    """JSON requests to a runner at ``origin``; ``log()`` what it logged so far."""

    def __init__(self, origin: str, log_path: Path | None = None):
        self.origin = origin
        self.log_path = log_path

    def __call__(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.origin + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def log(self) -> str:
        assert self.log_path is not None
        return self.log_path.read_text("utf-8", "replace")


H = TypeVar("H", bound=Http)


@contextmanager
def own_dynalite() -> Iterator[str]:
    """The endpoint of a real dynalite server (in memory) of the caller's own while the block runs: a runner
    makes its tables under the template's names. The test is skipped without Node.js or the npm package."""
    import pytest

    from local.dynamodb import CLI, Dynalite, node_executable

    if node_executable() is None or not CLI.is_file():
        pytest.skip("dynalite needs Node.js and `make node`")
    with Dynalite() as server:
        yield server.endpoint


@contextmanager
def local_runner(
    dynalite_endpoint: str, workdir: Path, ready: Callable[[H], bool], http: Callable[[str, Path], H], **extra: str
) -> Iterator[H]:
    """The runner with ``extra`` in its environment, once ``ready(http)``; stopped after, and the test fails if it
    answered any request with a 5xx (with what it logged then)."""
    port = free_port()
    environment = {
        **os.environ,
        "PORT": str(port),
        "PYTHONUNBUFFERED": "1",
        "DYNAMODB_ENDPOINT": dynalite_endpoint,
        "VAPID_KEY_FILE": str(workdir / "vapid.json"),
        **extra,
    }
    for name in ("SITE_URL", "LOCAL_DYNAMODB_DIR", "PUSH_LOCAL_MODE"):
        environment.pop(name, None)
    log_path = workdir / "runner.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "local.runner", "--site-dir", str(workdir / "no-site")],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        served = http(f"http://127.0.0.1:{port}", log_path)
        try:
            deadline = time.monotonic() + START_SECONDS
            while time.monotonic() < deadline:
                try:
                    if ready(served):
                        break
                except OSError:
                    pass
                assert process.poll() is None, log_path.read_text()
                time.sleep(0.2)
            yield served
        finally:
            process.terminate()
            process.wait(timeout=60)
            keep_runner_log(log_path)
    # Every request is logged with its status: a 500-502 fails the test, with what the runner logged then.
    errors = server_errors(log_path.read_text("utf-8", "replace"))
    assert not errors, "the local server answered a 5xx:\n" + "\n---\n".join(errors)
