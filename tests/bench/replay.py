"""DynamoDB's answers recorded from moto and replayed to a timed request, and the meter of a request's calls
and CPU: the games and length sections time the function's own work without moto's."""

from __future__ import annotations

import time
from typing import cast

from tests.bench.common import _VIEWER_HEADERS


class _StoreMeter:
    """Counts the DynamoDB calls made inside ``with meter:`` and the size of each item written."""

    READS = {"GetItem", "Query", "Scan", "BatchGetItem"}
    WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"}

    def __init__(self, store):
        self.store = store
        self.calls: list[tuple[str, dict]] = []
        events = store.client().meta.events
        events.register("before-parameter-build.dynamodb", self._seen)
        events.register("before-call.dynamodb", self._start)
        events.register("after-call.dynamodb", self._stop)
        self._active = False
        self.seconds = self.cpu_seconds = 0.0
        self._started = self._started_cpu = 0.0

    def _start(self, **_):
        self._started = time.perf_counter()
        self._started_cpu = time.process_time()

    def _stop(self, **_):
        if self._active:
            self.seconds += time.perf_counter() - self._started
            self.cpu_seconds += time.process_time() - self._started_cpu

    def _seen(self, params, model, **_):
        if self._active:
            self.calls.append((model.name, params))

    def __enter__(self):
        self.calls, self._active, self.seconds, self.cpu_seconds = [], True, 0.0, 0.0
        return self

    def __exit__(self, *exc_info):
        self._active = False

    @property
    def reads(self) -> int:
        return sum(1 for name, _ in self.calls if name in self.READS)

    @property
    def writes(self) -> int:
        return sum(1 for name, _ in self.calls if name in self.WRITES)

    def largest(self, kind: str) -> int:
        sizes = [
            self.store.item_size(self.store.from_item(params["Item"]))
            for name, params in self.calls
            if name == "PutItem" and params["Item"].get("sk", {}).get("S", "").startswith(kind)
        ]
        return max(sizes, default=0)


def _handler_answer(handler, event, context) -> _Answer:
    return _Answer(handler(event, context))


def _answer_of(request) -> _Answer:
    return _Answer(request())


class _Replay:
    """DynamoDB's answers to a request, recorded from moto and then given back to the same request.

    ``record`` runs a request against moto and keeps each HTTP answer; ``replay`` runs the same request with
    those answers handed to botocore by its ``before-send`` hook, in order, so that botocore does all of its
    own work (building, signing, parsing) and moto none. A replayed request must make the same calls."""

    def __init__(self, client):
        self._recorded: list[tuple[int, dict, bytes]] | None = None
        self._replayed: list[tuple[int, dict, bytes]] | None = None
        self._events = client.meta.events
        self._events.register_first("before-send.dynamodb", self._send)
        self._events.register("after-call.dynamodb", self._keep)

    def record(self, call) -> list[tuple[int, dict, bytes]]:
        self._recorded = []
        try:
            call()
            return self._recorded
        finally:
            self._recorded = None

    def replay(self, answers: list[tuple[int, dict, bytes]], call, *args):
        from moto.core.models import botocore_stubber

        # botocore calls every ``before-send`` handler and keeps the first answer: moto's must not run at all.
        self._events.unregister("before-send", botocore_stubber)
        self._replayed = list(answers)
        try:
            result = call(*args)
            assert not self._replayed, "the replayed request made fewer DynamoDB calls than the recorded one"
            return result
        finally:
            self._replayed = None
            self._events.register("before-send", botocore_stubber)

    def _send(self, request, **_):
        if self._replayed is None:
            return None  # to moto
        assert self._replayed, "the replayed request made more DynamoDB calls than the recorded one"
        status, headers, body = self._replayed.pop(0)
        return _recorded_response(request.url, status, headers, body)

    def _keep(self, http_response, **_):
        if self._recorded is not None:
            self._recorded.append((http_response.status_code, dict(http_response.headers), http_response.content))


def _recorded_response(url: str, status: int, headers: dict, body: bytes):
    from botocore.awsrequest import AWSResponse
    from botocore.compat import HTTPHeaders

    class Raw:  # what botocore reads an answer's body from (``AWSResponse.content``)
        def stream(self, **_):
            yield body

    # botocore copies any mapping of headers (``HeadersDict``); its stubs name only its own ``HTTPHeaders``.
    return AWSResponse(url, status, cast(HTTPHeaders, headers), Raw())


def _games_event(method: str, game_id: str, tail: str = "", body: dict | None = None, token: str | None = None):
    """A games request as API Gateway passes it behind CloudFront: a phone's headers, like validate's."""
    import json

    from local.events import http_api_event

    headers = dict(_VIEWER_HEADERS)
    if body is None:
        headers.pop("content-type")
    if token:
        headers["authorization"] = f"Bearer {token}"
    return http_api_event(
        method,
        f"/v1/games/{game_id}{tail}",
        route_key=f"{method} /v1/games/{{id}}{tail}",
        path_parameters={"id": game_id},
        headers=headers,
        body=json.dumps(body) if body is not None else None,
        source_ip="197.250.12.34",
    )


class _Answer:
    """A validate handler's result as the bench's ``_cpu_of`` reads answers."""

    def __init__(self, result: dict):
        self.status, self.body = result["statusCode"], result.get("body")


def _cpu_of(meter, call) -> float:
    """The CPU time of ``call`` less moto's inside it: the function's own work (moto serves DynamoDB in-process)."""
    return _cpu_and_answer(meter, call)[0]


def _cpu_and_answer(meter, call):
    """``_cpu_of`` and the answer of ``call``, which must be a 200 or a 304."""
    with meter:
        started = time.process_time()
        answer = call()
        spent = time.process_time() - started
    assert answer.status in (200, 304), answer.body
    return spent - meter.cpu_seconds, answer
