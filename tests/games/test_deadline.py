"""A store that stalls: every request answers the JSON 503 with ``Retry-After`` while the Lambda context still
has time left, however long the store would make it wait (a frozen DynamoDB once outlasted the
function's timeout, and API Gateway answered its own 5xx)."""

from __future__ import annotations

import socket
import threading

import pytest
from common.persistence import deadline, store

from local.events import LambdaContext, http_api_event
from tests.checks import known


@pytest.fixture
def stalled_store(aws_env, monkeypatch):
    """An endpoint that accepts connections and never answers, like a frozen dynalite."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    monkeypatch.setenv("DYNAMODB_ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
    store.reset_clients()
    yield
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()
    store.reset_clients()


@pytest.mark.parametrize("timeout_seconds", [3, 10])
def test_a_stalled_store_gets_a_json_503_before_the_lambda_timeout(stalled_store, handler, timeout_seconds):
    app = handler.create_app()
    context = LambdaContext(function_name="GamesFunction", timeout_seconds=timeout_seconds)
    event = http_api_event("POST", "/v1/players", headers={"content-type": "application/json"}, body='{"name": "Asha"}')
    result = app.lambda_handler(event, context)
    assert context.get_remaining_time_in_millis() > 0, "the answer came after the platform timeout"
    assert result["statusCode"] == 503 and '"code":"store_unavailable"' in result["body"].replace(" ", "")
    assert {name.lower(): value for name, value in result["headers"].items()}["retry-after"] == "1"


def test_every_call_budget_fits_the_time_the_request_has_left():
    for budget in deadline.BUDGETS:
        context = LambdaContext(function_name="f", timeout_seconds=1)
        context.timeout_seconds = deadline.MARGIN_SECONDS + budget.worst_seconds + 0.2
        with deadline.request_clock(context):
            chosen = deadline.call_budget()
            assert chosen.worst_seconds <= known(deadline.seconds_left())
    under_the_margin = LambdaContext(function_name="f", timeout_seconds=1)
    with deadline.request_clock(under_the_margin), pytest.raises(deadline.StoreUnavailable):
        deadline.call_budget()
