"""`make run` and its local store: the smoke check passes against it, a dynalite left behind by an earlier
run is stopped with one line (never a traceback), and every way the runner ends stops its dynalite."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from local.dynamodb import CLI, Dynalite, dynalites_on, node_executable
from local.smoke import Client
from local.template import ROOT
from tests.checks import known

pytestmark = [
    pytest.mark.xdist_group("packaged"),
    pytest.mark.skipif(node_executable() is None or not CLI.is_file(), reason="needs Node.js and dynalite"),
]


def start_runner(data_dir: Path, *arguments: str) -> tuple[subprocess.Popen, str]:
    """`make run` on a free port with its dynalite on ``data_dir``; (process, origin)."""
    environment = {
        **{name: value for name, value in os.environ.items() if name not in ("DYNAMODB_ENDPOINT", "SITE_URL")},
        "LOCAL_DYNAMODB_DIR": str(data_dir), "PYTHONUNBUFFERED": "1", "POWERTOOLS_LOG_LEVEL": "WARNING",
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
    }  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "local.runner", "--quiet", *(arguments or ("--port", "0"))],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
    )  # fmt: skip
    first = known(process.stdout).readline()
    origin = first.split(" on ", 1)[1].strip().rstrip("/") if " on " in first else ""
    return process, origin


def wait_until(condition, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def stop(process: subprocess.Popen, how: int = signal.SIGINT) -> str:
    if process.poll() is None:
        process.send_signal(how)
    _, errors = process.communicate(timeout=60)
    return errors


def test_smoke_passes_against_make_run(tmp_path):
    process, origin = start_runner(tmp_path / "dynalite")
    try:
        assert origin, known(process.stderr).read() if process.poll() is not None else "no origin"
        result = subprocess.run(
            [sys.executable, "-m", "local.smoke", origin, "--timeout", "120"],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=ROOT,
        )
    finally:
        errors = stop(process, signal.SIGTERM)
    lines = result.stdout.splitlines()
    names = [line[5:].split("  ")[0].strip() for line in lines]
    assert names == ["validate", "rules page sw", "rules page tl", "rules page en", "daily puzzle", "whole game",
                     "export"], result.stdout + result.stderr  # fmt: skip
    assert result.returncode == 0 and all(line.startswith("ok ") for line in lines), result.stdout + errors
    assert "Traceback" not in errors
    assert wait_until(lambda: not dynalites_on(tmp_path / "dynalite")), "SIGTERM left dynalite running"


def test_a_dynalite_left_running_on_the_data_directory_is_stopped_with_one_line(tmp_path):
    data = tmp_path / "dynalite"
    stale = Dynalite(path=data).start()  # an earlier run's child, still holding the directory's lock
    try:
        assert dynalites_on(data) == [known(stale.process).pid]
        process, origin = start_runner(data)
        try:
            assert origin, known(process.stderr).read()
            reply = subprocess.run(
                [sys.executable, "-c", "import local.smoke as s, sys; "
                 "print(s.Client(sys.argv[1], 120).call('POST', '/v1/players', {}).status)", origin],
                capture_output=True, text=True, cwd=ROOT, timeout=300,
            )  # fmt: skip
            assert reply.stdout.strip() == "201", reply.stderr  # the fresh dynalite answers on the same data
        finally:
            errors = stop(process)
        notices = [line for line in errors.splitlines() if "earlier run" in line]
        assert len(notices) == 1 and f"pid {known(stale.process).pid}" in notices[0], errors
        assert "Traceback" not in errors, errors
        assert known(stale.process).poll() is not None  # stopped by the runner
        assert wait_until(lambda: not dynalites_on(data)), "Ctrl-C left the runner's dynalite running"
    finally:
        stale.stop()


def test_a_runner_killed_outright_takes_its_dynalite_with_it(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's; elsewhere the next run stops the leftover")
    process, origin = start_runner(tmp_path / "dynalite")
    assert origin and dynalites_on(tmp_path / "dynalite")
    process.kill()
    process.communicate(timeout=10)
    assert wait_until(lambda: not dynalites_on(tmp_path / "dynalite")), "kill -9 left dynalite running"


def test_a_runner_that_cannot_start_stops_its_dynalite(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        process, _ = start_runner(tmp_path / "dynalite", "--port", str(taken.getsockname()[1]))
        errors = stop(process)
    assert process.returncode == 1 and "cannot listen on" in errors and "Traceback" not in errors, errors
    assert wait_until(lambda: not dynalites_on(tmp_path / "dynalite"))


def test_a_second_runner_on_a_directory_in_use_leaves_the_first_alone(tmp_path):
    first, origin = start_runner(tmp_path / "dynalite")
    try:
        assert origin
        owned = dynalites_on(tmp_path / "dynalite")
        second, _ = start_runner(tmp_path / "dynalite")
        errors = stop(second)
        assert second.returncode == 1 and "Traceback" not in errors, errors
        assert [line for line in errors.splitlines() if line.strip()] == [
            f"error: another local runner (pid {first.pid}) is using {tmp_path / 'dynalite'}; stop it first, "
            "or give this one its own LOCAL_DYNAMODB_DIR"
        ]
        assert dynalites_on(tmp_path / "dynalite") == owned  # the first one's dynalite still runs
        assert Client(origin, timeout=120).call("POST", "/v1/players", {}).status == 201
    finally:
        stop(first)
