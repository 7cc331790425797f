"""The local runner over real HTTP: `python -m local.runner` as `make run` starts it, on a free port.

One runner runs as a subprocess (the real command, stopped with SIGINT as Ctrl-C would); another runs
in a thread on a throw-away template to check route selection, path parameters and the environment.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from local.runner import LocalApi, create_server
from local.template import ROOT, Template
from tests.checks import known

# ------------------------------------------------------------------------------------------ fixtures
#: The runner's environment here: no local DynamoDB (validate needs none; the games tests start their own).
RUNNER_ENV = {
    **{name: value for name, value in os.environ.items() if name not in ("LOCAL_DYNAMODB_DIR", "DYNAMODB_ENDPOINT")},
    "PYTHONUNBUFFERED": "1",
}


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    (site / "index.html").write_text("<!doctype html><title>home</title>")
    (site / "sw" / "sheria").mkdir(parents=True)
    (site / "sw" / "sheria" / "index.html").write_text("<!doctype html><title>Sheria</title>")
    (site / "style.css").write_text("body{}")
    (site / "app.js").write_text("console.log(1)")
    (site / "404.html").write_text("<!doctype html><title>not here</title>")
    return site


def start_runner(site_dir: Path, environment: dict[str, str] = RUNNER_ENV, stderr=subprocess.PIPE):
    """`python -m local.runner --quiet` on a free port: (the process, its origin) once it says it runs."""
    process = subprocess.Popen(
        [sys.executable, "-m", "local.runner", "--port", "0", "--site-dir", str(site_dir), "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=environment,
    )
    first_line = known(process.stdout).readline()
    if not first_line.startswith("ubao is running on http://127.0.0.1:"):  # it stopped: say why
        raise AssertionError(first_line + (process.stderr.read() if process.stderr else ""))
    return process, first_line.split(" on ", 1)[1].strip().rstrip("/")


@pytest.fixture(scope="module")
def runner(site_dir):
    """The real command on a free port; yields its origin; stops it with SIGINT and checks it stopped cleanly."""
    process, origin = start_runner(site_dir)
    runner_state = {"origin": origin, "process": process}
    yield runner_state
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)


def request(origin: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """(status, headers, body bytes) of one real HTTP request, without following redirects."""
    # A function's first request starts its first instance (a cold start): long enough for a loaded machine.
    connection = http.client.HTTPConnection(origin.removeprefix("http://"), timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()


def post_json(origin: str, path: str, payload) -> tuple[int, dict, dict]:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    status, headers, body = request(origin, "POST", path, data, {"Content-Type": "application/json"})
    return status, headers, json.loads(body)


# ------------------------------------------------------------------------------------------ the API
def test_a_legal_move_over_http(runner):
    status, headers, body = post_json(runner["origin"], "/v1/validate", {"game": "chess", "move": "e4"})
    assert status == 200 and body["legal"] is True and body["move"] == "e4"
    assert headers["content-type"] == "application/json"
    assert headers["apigw-requestid"]


def test_an_illegal_move_over_http(runner):
    status, _, body = post_json(runner["origin"], "/v1/validate", {"game": "english", "move": "21-17"})
    assert status == 200 and body["legal"] is False and body["error"]["code"] == "illegal_move"


def test_a_malformed_request_over_http(runner):
    status, _, body = post_json(runner["origin"], "/v1/validate", b'{"game": "chess", "move": ')
    assert status == 400 and body["error"]["code"] == "invalid_json"


def test_a_large_body_over_http(runner):
    payload = json.dumps({"game": "chess", "move": "e4", "pad": "x" * 70_000}).encode()
    status, _, body = post_json(runner["origin"], "/v1/validate", payload)
    assert status == 413 and body["error"]["code"] == "payload_too_large"


def test_a_chunked_body_over_http(runner):
    chunks = iter([b'{"game": "chess",', b' "move": "d4"}'])
    req = urllib.request.Request(
        runner["origin"] + "/v1/validate", data=chunks, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as response:
        assert json.loads(response.read())["move"] == "d4"


def test_a_form_encoded_body_is_refused_with_415(runner):
    # curl -d sends form-encoded, as a cross-site form does: the API takes only what says it is JSON.
    status, headers, body = request(
        runner["origin"], "POST", "/v1/validate", b'{"game":"tanzanian","move":"c3-d4"}',
        {"Content-Type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    assert status == 415 and headers["content-type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "unsupported_media_type"


@pytest.mark.parametrize(
    ("method", "path", "allow"), [("TRACE", "/v1/validate", "POST"), ("PROPFIND", "/", "GET, HEAD")]
)
def test_a_method_no_route_knows_is_a_json_405(runner, method, path, allow):
    status, headers, body = request(runner["origin"], method, path, b"x", {"Content-Type": "text/plain"})
    assert status == 405 and headers["content-type"] == "application/json" and headers["allow"] == allow
    assert json.loads(body)["error"]["code"] == "method_not_allowed"
    assert request(runner["origin"], "GET", "/")[0] == 200  # the server still answers


def test_the_wrong_method_and_an_unknown_path_get_json_errors(runner):
    status, headers, body = request(runner["origin"], "GET", "/v1/validate")
    assert status == 405 and headers["allow"] == "POST"
    assert json.loads(body)["error"]["code"] == "method_not_allowed"
    status, _, body = request(runner["origin"], "DELETE", "/v1/no/such/thing")
    assert status == 404 and json.loads(body)["error"]["code"] == "not_found"


# ------------------------------------------------------------------------------------------ the site
def test_the_site_is_served_on_the_same_origin(runner):
    status, headers, body = request(runner["origin"], "GET", "/")
    assert (status, body) == (200, b"<!doctype html><title>home</title>")
    assert headers["content-type"] == "text/html; charset=utf-8"


def test_a_directory_serves_its_index_and_a_missing_slash_redirects(runner):
    status, _, body = request(runner["origin"], "GET", "/sw/sheria/")
    assert status == 200 and b"Sheria" in body
    status, headers, _ = request(runner["origin"], "GET", "/sw/sheria")
    assert status == 301 and headers["location"] == "/sw/sheria/"


@pytest.mark.parametrize(("path", "content_type"), [("/style.css", "text/css"), ("/app.js", "text/javascript")])
def test_files_get_their_content_type(runner, path, content_type):
    status, headers, _ = request(runner["origin"], "GET", path)
    assert status == 200 and headers["content-type"].startswith(content_type)


def test_head_answers_headers_only(runner):
    status, headers, body = request(runner["origin"], "HEAD", "/style.css")
    assert status == 200 and body == b"" and headers["content-length"] == "6"


@pytest.mark.parametrize("path", ["/missing.html", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/sw/none/"])
def test_anything_else_is_404_and_nothing_leaves_the_site(runner, path):
    status, _, body = request(runner["origin"], "GET", path)
    assert status == 404 and b"not here" in body


def test_the_site_answers_only_get_and_head(runner):
    status, headers, _ = request(runner["origin"], "POST", "/index.html", b"x")
    assert status == 405 and headers["allow"] == "GET, HEAD"


def test_ctrl_c_stops_the_runner_cleanly(site_dir):
    process = subprocess.Popen(
        [sys.executable, "-m", "local.runner", "--port", "0", "--site-dir", str(site_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=RUNNER_ENV,
    )  # fmt: skip
    assert known(process.stdout).readline().startswith("ubao is running on ")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert process.returncode == 0
    assert "Traceback" not in err + out and "stopped" in out


def test_a_client_that_resets_its_idle_connection_leaves_no_trace(site_dir):
    """A browser drops a kept-alive connection between two requests: nothing to answer, nothing to log (the
    contract and the browser sessions fail on a traceback in the runner's log)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "local.runner", "--port", "0", "--site-dir", str(site_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=RUNNER_ENV,
    )  # fmt: skip
    origin = known(process.stdout).readline().split(" on ", 1)[1].strip().rstrip("/")
    host, port = origin.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: ubao\r\n\r\n")
        assert client.recv(65536).startswith(b"HTTP/1.1 ")
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
    for _ in range(3):  # more requests on new connections, so the reset is read before the runner stops
        with urllib.request.urlopen(origin + "/", timeout=30) as answer:
            assert answer.status == 200
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert "Traceback" not in err + out and "stopped" in out


# ------------------------------------------------------------------------------ a throw-away template
PROBE_TEMPLATE = """
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: python3.13
    CodeUri: code/
    Environment:
      Variables:
        SHARED: from-globals
Resources:
  GamesTable:
    Type: AWS::DynamoDB::Table
  ProbeFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: runner_probe.handler.lambda_handler
      Environment:
        Variables:
          TABLE: !Ref GamesTable
          TABLE_ARN: !GetAtt GamesTable.Arn
          GREETING: !Sub "table ${GamesTable} in ${AWS::Region}"
      Events:
        One: {Type: HttpApi, Properties: {Method: GET, Path: "/v1/games/{id}"}}
        Exact: {Type: HttpApi, Properties: {Method: GET, Path: /v1/games/new}}
        Deep: {Type: HttpApi, Properties: {Method: POST, Path: "/v1/games/{id}/moves"}}
        Any: {Type: HttpApi, Properties: {Method: ANY, Path: "/v1/{proxy+}"}}
"""

PROBE_HANDLER = """
import base64, os

def lambda_handler(event, context):
    names = ("SHARED", "TABLE", "TABLE_ARN", "GREETING", "DYNAMODB_ENDPOINT")
    return {
        "routeKey": event["routeKey"],
        "pathParameters": event.get("pathParameters"),
        "query": event.get("queryStringParameters"),
        "cookies": event.get("cookies"),
        "headers": {
            name: event["headers"].get(name)
            for name in ("x-multi", "cookie", "content-type", "cloudfront-viewer-address")
        },
        "body": event.get("body"),
        "isBase64Encoded": event["isBase64Encoded"],
        "method": event["requestContext"]["http"]["method"],
        "stage": event["requestContext"]["stage"],
        "environment": {name: os.environ.get(name) for name in names},
        "function": context.function_name,
        "remaining_ms": context.get_remaining_time_in_millis(),
    }
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory, monkeypatch_module):
    root = tmp_path_factory.mktemp("probe")
    (root / "template.yaml").write_text(PROBE_TEMPLATE)
    (root / "code" / "runner_probe").mkdir(parents=True)
    (root / "code" / "runner_probe" / "__init__.py").write_text("")
    (root / "code" / "runner_probe" / "handler.py").write_text(PROBE_HANDLER)
    monkeypatch_module.setenv("DYNAMODB_ENDPOINT", "http://127.0.0.1:4567")
    server = create_server(port=0, quiet=True, template=Template(root / "template.yaml"), site_dir=root / "none")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.origin
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    patcher = pytest.MonkeyPatch()
    yield patcher
    patcher.undo()


def probe_get(origin, path, **kwargs):
    status, headers, body = request(origin, kwargs.pop("method", "GET"), path, **kwargs)
    return status, json.loads(body)


@pytest.mark.parametrize(
    ("method", "path", "route_key", "parameters"),
    [
        ("GET", "/v1/games/new", "GET /v1/games/new", None),
        ("GET", "/v1/games/abc", "GET /v1/games/{id}", {"id": "abc"}),
        ("GET", "/v1/games/a%20b", "GET /v1/games/{id}", {"id": "a b"}),
        ("POST", "/v1/games/abc/moves", "POST /v1/games/{id}/moves", {"id": "abc"}),
        ("GET", "/v1/games/abc/moves", "ANY /v1/{proxy+}", {"proxy": "games/abc/moves"}),
        ("DELETE", "/v1/games/abc", "ANY /v1/{proxy+}", {"proxy": "games/abc"}),
    ],
)
def test_routes_are_chosen_as_api_gateway_does(probe, method, path, route_key, parameters):
    status, body = probe_get(probe, path, method=method)
    assert status == 200
    assert (body["routeKey"], body["pathParameters"], body["method"]) == (route_key, parameters, method)


def test_the_event_is_payload_2_0(probe):
    status, body = probe_get(
        probe, "/v1/games/x?a=1&a=2&b=%C3%A9", method="POST",
        body=b"\x00\x01binary", headers={"Cookie": "s=1; t=2", "X-Multi": "one", "Content-Type": "image/png"},
    )  # fmt: skip
    assert status == 200
    assert body["query"] == {"a": "1,2", "b": "\u00e9"}
    assert body["cookies"] == ["s=1", "t=2"]
    assert body["headers"] == {
        "x-multi": "one", "cookie": None, "content-type": "image/png", "cloudfront-viewer-address": "127.0.0.1:0"
    }  # fmt: skip
    assert body["isBase64Encoded"] is True and body["stage"] == "$default"


@pytest.mark.parametrize("sent", ["garbage", "203.0.113.9:443", None])
def test_the_viewer_address_is_the_connections_whatever_the_viewer_sends(probe, sent):
    """As CloudFront does: the limits' address is never the viewer's to choose (a fresh bucket each time)."""
    headers = {"CloudFront-Viewer-Address": sent} if sent else {}
    status, body = probe_get(probe, "/v1/games/new", headers=headers)
    assert status == 200 and body["headers"]["cloudfront-viewer-address"] == "127.0.0.1:0"


def test_functions_get_their_template_environment(probe):
    status, body = probe_get(probe, "/v1/games/new")
    assert status == 200
    assert body["environment"] == {
        "SHARED": "from-globals",
        "TABLE": "GamesTable",
        "TABLE_ARN": "arn:aws:dynamodb:us-east-1:000000000000:GamesTable",
        "GREETING": "table GamesTable in us-east-1",
        "DYNAMODB_ENDPOINT": "http://127.0.0.1:4567",
    }
    assert body["function"] == "ProbeFunction" and 0 < body["remaining_ms"] <= 3000
    assert os.environ.get("TABLE") is None, "the function's environment does not leak into the runner"


def test_outside_v1_is_the_site_here_a_placeholder(probe):
    status, headers, _ = request(probe, "GET", "/v1")
    assert status == 301 and headers["location"] == "/v1/"  # as CloudFront's index function answers
    status, _, raw = request(probe, "GET", "/missing.html")
    assert status == 404 and b"not part of the site" in raw
    status, _, raw = request(probe, "GET", "/")
    assert status == 200 and b"make site" in raw  # the placeholder page: this site is not built


def test_a_path_no_route_takes_gets_api_gateways_own_404():
    template = Template(ROOT / "template.yaml")
    api = LocalApi(template)
    api.routes = [route for route in api.routes if "+}" not in route.path]  # without the fallback
    status, _, body = api.handle("GET", "/v1/nowhere", [], b"", "127.0.0.1")
    assert (status, json.loads(body)) == (404, {"message": "Not Found"})


def test_the_runner_routes_as_the_template_says():
    api = LocalApi(Template(ROOT / "template.yaml"))
    route, parameters = known(api.match("GET", "/v1/games/abc"))
    assert (route.function, parameters) == ("GamesFunction", {"id": "abc"})
    assert known(api.match("GET", "/v1/players/me/puzzles"))[0].function == "PuzzlesFunction"
    assert known(api.match("POST", "/v1/players"))[0].function == "GamesFunction"
    route, parameters = known(api.match("PUT", "/v1/games/abc"))  # no PUT there: the fallback's {proxy+}
    assert (route.function, parameters) == ("ApiFallbackFunction", {"proxy": "games/abc"})
    assert api.match("GET", "/v1/") is None


def test_finding_a_route_never_changes_the_event_a_running_function_reads():
    """Two requests at once: one function is running while the server finds the route of the next. Powertools
    keeps the event being resolved in one place for the whole process, so finding a route (which resolves a
    lookup event) must wait for the running function, or that function reads the lookup's event: no headers,
    no query (a 401 for a request that sent its token)."""
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

    resolver = APIGatewayHttpResolver()
    started, go_on = threading.Event(), threading.Event()

    @resolver.get("/v1/games/<game_id>")
    def game(game_id: str) -> dict:
        started.set()
        go_on.wait(5)
        return {"authorization": resolver.current_event.headers.get("authorization")}

    class Running:
        def invoke(self, event):
            return resolver(event, None)  # as Lambda calls it

    template = Template()
    api = LocalApi(template, functions={name: Running() for name in template.functions})
    answers = {}

    def send(path: str, headers: list[tuple[str, str]]) -> None:
        answers[path] = api.handle("GET", path, headers, b"", "127.0.0.1")

    first = threading.Thread(target=send, args=("/v1/games/abcdefghijkl", [("Authorization", "Bearer t")]))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=send, args=("/v1/puzzles/daily?game=chess", []))
    second.start()
    second.join(0.3)  # it finds its route now, unless it waits for the first (as it must)
    go_on.set()
    first.join(5)
    second.join(5)
    status, _, body = answers["/v1/games/abcdefghijkl"]
    assert status == 200 and json.loads(body) == {"authorization": "Bearer t"}
