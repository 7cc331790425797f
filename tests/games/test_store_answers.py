"""What reaches the store's client over the network when the machine or the store is in trouble: every kind of
broken or refused answer is a JSON 503 with ``Retry-After``, never a 500 and never a silent empty answer.

The faults are real bytes on a real socket (no botocore stub): an endpoint that answers each request with what
the test gives it, and a proxy in front of a real dynalite that cuts the answer to a chosen request short after
dynalite has done it (a connection reset mid-answer on a loaded machine). botocore reads a body cut short, an
empty body or one that is not JSON as an answer with no fields: a missing game, or a write that seemed to be
stored (``common.persistence.store._check_answer``).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable, Iterator

import pytest
from common.persistence import store

from local.events import LambdaContext, http_api_event
from tests.games.client import Api, snapshot

RESET = None  # close the connection with a reset, no answer at all


def http_answer(status: str, body: bytes, *headers: str, length: int | None = None) -> bytes:
    """An HTTP/1.1 answer; ``length`` announces another Content-Length than the body's."""
    lines = [f"HTTP/1.1 {status}", *headers, f"Content-Length: {len(body) if length is None else length}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


JSON = "Content-Type: application/x-amz-json-1.0"
THROTTLED = b'{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow down"}'
ANSWERS = {
    "reset before any answer": RESET,
    "cut short": http_answer("200 OK", b'{"Item":{"pk":', JSON, length=100),
    "not json": http_answer("200 OK", b"<html>...", JSON),
    "empty": http_answer("200 OK", b"", JSON),
    "wrong checksum": http_answer("200 OK", b"{}", JSON, "x-amz-crc32: 1"),
    "html 500": http_answer("500 Internal Server Error", b"<html>", "Content-Type: text/html"),
    "bare 400": http_answer("400 Bad Request", b"busy", "Content-Type: text/plain"),
    "throttled": http_answer("400 Bad Request", THROTTLED, JSON),
}


def read_request(connection: socket.socket) -> bytes:
    """One whole HTTP request (headers and its Content-Length of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0
    )
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def reset(connection: socket.socket) -> None:
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


@contextlib.contextmanager
def serving(answer: Callable[[socket.socket, bytes], None]) -> Iterator[str]:
    """An endpoint on a free port that reads each request and lets ``answer`` reply; yields its URL."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            with contextlib.suppress(OSError):
                connection.settimeout(10)
                answer(connection, read_request(connection))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


def assert_503(result: dict) -> None:
    headers = {name.lower(): value for name, value in result["headers"].items()}
    assert result["statusCode"] == 503, result
    assert '"code":"store_unavailable"' in result["body"].replace(" ", "")
    assert headers["retry-after"] == "1"


@pytest.mark.parametrize("name", list(ANSWERS))
def test_every_broken_answer_of_the_store_is_a_json_503(aws_env, monkeypatch, handler, name):
    def answer(connection: socket.socket, request: bytes) -> None:
        canned = ANSWERS[name]
        if canned is RESET:
            reset(connection)
        else:
            connection.sendall(canned)
            connection.close()

    with serving(answer) as endpoint:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", endpoint)
        store.reset_clients()
        event = http_api_event("POST", "/v1/players", headers={"content-type": "application/json"}, body="{}")
        result = handler.create_app().lambda_handler(event, LambdaContext(function_name="GamesFunction"))
    store.reset_clients()
    assert_503(result)


class CuttingProxy:
    """Forwards each request to dynalite on a connection of its own; the answer to a request that ``cut`` picks
    is cut short after dynalite has done it (half its body, then a reset), as a connection lost mid-answer."""

    def __init__(self, target: str):
        host, port = target.removeprefix("http://").split(":")
        self.target = (host, int(port))
        self.cut: Callable[[bytes], bool] = lambda request: False
        self.cuts = 0

    def __call__(self, connection: socket.socket, request: bytes) -> None:
        with socket.create_connection(self.target, timeout=10) as upstream:
            upstream.sendall(request)
            answer = read_request(upstream)  # an answer has the same shape: headers, Content-Length, body
        if self.cut(request):
            self.cuts += 1
            connection.sendall(answer[: len(answer) - max(1, len(answer.partition(b"\r\n\r\n")[2]) // 2)])
            reset(connection)
            return
        connection.sendall(answer)
        connection.close()


def events_of(game_id: str) -> list[dict]:
    """The game's event items, read straight from dynalite."""
    return [
        item
        for items in snapshot().values()
        for item in items
        if item.get("pk") == game_id and str(item.get("sk", "")).startswith("E")
    ]


def test_a_move_whose_stored_answer_is_cut_short_is_a_503_then_its_retry_is_played_once(
    dynalite_tables, dynalite_server, monkeypatch, handler
):
    direct = dynalite_server.endpoint
    api = Api(handler)
    game_id, seats = api.start_game()
    before = events_of(game_id)
    proxy = CuttingProxy(direct)
    proxy.cut = lambda request: b"PutItem" in request and b'"sk":{"S":"E' in request.replace(b" ", b"")
    with serving(proxy) as endpoint:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", endpoint)
        first = api.move(seats["white"], game_id, "e4", 0)
        proxy.cut = lambda request: False
        retry = api.move(seats["white"], game_id, "e4", 0)
    monkeypatch.setenv("DYNAMODB_ENDPOINT", direct)
    assert proxy.cuts >= 1  # botocore sends it again after the first cut: the retry is cut too
    assert first.status == 503 and first.code == "store_unavailable", first
    assert retry.status == 200, retry
    assert api.all_moves(game_id) == ["e4"]
    assert len(events_of(game_id)) == len(before) + 1


def test_a_read_cut_short_writes_nothing(dynalite_tables, dynalite_server, monkeypatch, handler):
    direct = dynalite_server.endpoint
    api = Api(handler)
    game_id, _ = api.start_game()
    before = snapshot()
    proxy = CuttingProxy(direct)
    proxy.cut = lambda request: b"GetItem" in request or b"Query" in request
    with serving(proxy) as endpoint:
        monkeypatch.setenv("DYNAMODB_ENDPOINT", endpoint)
        answer = api.get(game_id)
    monkeypatch.setenv("DYNAMODB_ENDPOINT", direct)
    assert proxy.cuts >= 1
    assert answer.status == 503 and answer.code == "store_unavailable", answer
    assert snapshot() == before
