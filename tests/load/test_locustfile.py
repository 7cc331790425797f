"""The load test targets 127.0.0.1 only. Locust itself runs in a subprocess: importing it patches the whole
interpreter with gevent, which the other tests of a pytest worker must not inherit."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from tests.load import tables
from tests.load.__main__ import ROOT, main
from tests.load.target import RemoteHost, loopback_origin


@pytest.mark.parametrize(
    ("url", "origin"),
    [("http://127.0.0.1:3000", "http://127.0.0.1:3000"), ("http://127.0.0.1:8080/", "http://127.0.0.1:8080")],
)
def test_the_loopback_address_is_accepted(url, origin):
    assert loopback_origin(url) == origin


@pytest.mark.parametrize(
    "url",
    [
        None,
        "",
        "127.0.0.1:3000",
        "https://127.0.0.1:3000",
        "http://localhost:3000",
        "http://127.0.0.2:3000",
        "http://10.0.0.1:3000",
        "http://127.0.0.1.example.org:3000",
        "http://example.org#@127.0.0.1:3000",
        "http://user:secret@127.0.0.1:3000",
        "http://[::1]:3000",
        "http://127.0.0.1:99999",
    ],
)
def test_every_other_host_is_refused(url):
    with pytest.raises(RemoteHost):
        loopback_origin(url)


def test_make_load_refuses_another_host_before_starting_anything(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--host", "http://10.0.0.1:3000", "--users", "1", "--duration", "1"])
    assert exit_.value.code == 2
    assert "only targets http://127.0.0.1" in capsys.readouterr().err


class _Counting(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self):
        self.seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args):
        pass


def test_the_locustfile_imports_and_sends_nothing_to_another_host():
    """A server on 127.0.0.2 (loopback, but not the address `make run` uses) receives no request at all."""
    server = HTTPServer(("127.0.0.2", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        command = [
            sys.executable, "-m", "locust", "-f", "tests/load/locustfile.py", "--headless", "--users", "2",
            "--spawn-rate", "2", "--run-time", "3s", "--host", f"http://127.0.0.2:{server.server_port}",
        ]  # fmt: skip
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode != 0
    assert "only targets http://127.0.0.1" in done.stderr
    assert _Counting.seen == []


@pytest.mark.parametrize(
    ("module", "constant", "seconds"),
    [
        ("site/modules/turn_clock.js", "LIVE_POLL_MS", "LIVE_POLL_SECONDS"),
        ("site/modules/lobby_panel.js", "POLL_MS", "LOBBY_POLL_SECONDS"),
        ("site/modules/review_view.js", "POLL_MS", "REVIEW_POLL_SECONDS"),
    ],
)
def test_the_simulated_players_poll_as_often_as_the_pages_do(module, constant, seconds):
    found = re.search(rf"const {constant} = (\d+);", (ROOT / module).read_text(encoding="utf-8"))
    assert found, f"{constant} not found in {module}"
    assert getattr(tables, seconds) * 1000 == int(found.group(1))


def test_the_status_count_takes_the_sockets_events_as_locust_fires_them():
    """The live socket's users fire Locust's request event with no ``response`` (tests/load/live_player.py): the
    status count leaves them out instead of raising (an exception in a listener makes Locust exit 2)."""
    script = """
import json, types
from locust import events
from tests.load import locustfile
events.request.fire(request_type="WS", name="WS live subscribe", response_time=5, response_length=0,
                    exception=None, context={})
events.request.fire(request_type="GET", name="GET /v1/games/{id}", response_time=5, response_length=10,
                    response=types.SimpleNamespace(status_code=404), exception=None, context={})
print(json.dumps(sorted([name, status, count] for (name, status), count in locustfile.STATUSES.items())))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Uncaught exception" not in done.stderr, done.stderr
    assert done.stdout.strip().splitlines()[-1] == '[["GET /v1/games/{id}", 404, 1]]'
