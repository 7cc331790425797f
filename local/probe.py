"""What `make run` spends per API request, for the load test (`make load`, tests/load/): the CPU time of each
request by route, and the DynamoDB calls it made with the capacity DynamoDB says they consumed.

    GET /v1/_local/stats     the totals since the runner started, as JSON (make run only: never deployed), and
                             ``stream_looks``: how many looks the local stream has completed (tests wait on it)

The counters listen on the data-access module's clients (``common.persistence.store.client``, one per call budget) with
botocore's public event hooks: ``before-parameter-build`` asks for ``ReturnConsumedCapacity: TOTAL`` (the
functions never read it, so their behaviour is unchanged), ``after-call`` records the operation, the
capacity units and any error code. A call is charged to the request running on its thread; calls made
outside a request (the local stream's notify function) go to ``(background)``. The packaged runner
(``make run PACKAGED=1``) runs each function in its own process, where this cannot listen: its stats say so.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any
from unittest import mock

from local.static import Answer

STATS_PATH = "/v1/_local/stats"
BACKGROUND = "(background)"
_READS = frozenset({"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"})


class RouteStats:
    """One route's totals: requests, CPU seconds (each request's, kept for percentiles), DynamoDB calls."""

    def __init__(self) -> None:
        self.requests = 0
        self.cpu: list[float] = []
        self.calls: dict[str, int] = defaultdict(int)
        self.read_units = 0.0
        self.write_units = 0.0
        self.failed_conditions = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "cpu_seconds": self.cpu,
            "calls": dict(self.calls),
            "read_units": round(self.read_units, 3),
            "write_units": round(self.write_units, 3),
            "failed_conditions": self.failed_conditions,
        }


class Probe:
    """The counters and the hooks; ``wrap`` an API's ``handle`` to charge each request to its route."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current = threading.local()
        self.routes: dict[str, RouteStats] = defaultdict(RouteStats)
        self.started = time.process_time()
        self.listening = False

    def listen(self, endpoint: str | None) -> None:
        """Hook every client the data-access module makes for ``endpoint`` (the runner's DYNAMODB_ENDPOINT)."""
        from common.persistence import store
        from common.persistence.deadline import BUDGETS

        with mock.patch.dict(os.environ, {"DYNAMODB_ENDPOINT": endpoint} if endpoint else {}):
            for budget in BUDGETS:
                events = store.client(budget).meta.events
                events.register("before-parameter-build.dynamodb", _ask_for_capacity)
                events.register("after-call.dynamodb", self._after_call)
        self.listening = True

    def wrap(self, handle: Callable[..., Answer]) -> Callable[..., Answer]:
        """``handle`` (LocalApi.handle) answering STATS_PATH itself and charging every other request."""

        def probed(method: str, target: str, headers: list[tuple[str, str]], body: bytes, client_ip: str) -> Answer:
            if target.split("?")[0] == STATS_PATH:
                return 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], self.report()
            route = _route_name(getattr(handle, "__self__", None), method, target)
            self._current.route = route
            started = time.thread_time()
            try:
                return handle(method, target, headers, body, client_ip)
            finally:
                spent = time.thread_time() - started
                self._current.route = None
                with self._lock:
                    stats = self.routes[route]
                    stats.requests += 1
                    stats.cpu.append(spent)

        return probed

    def _after_call(self, http_response: Any, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        route = getattr(self._current, "route", None) or BACKGROUND
        units = _units(parsed.get("ConsumedCapacity"))
        failed = parsed.get("Error", {}).get("Code") == "ConditionalCheckFailedException"
        with self._lock:
            stats = self.routes[route]
            stats.calls[model.name] += 1
            if model.name in _READS:
                stats.read_units += units
            else:
                stats.write_units += units
            stats.failed_conditions += failed

    def report(self) -> bytes:
        from local.streams import stream_looks

        with self._lock:
            routes = {name: stats.as_json() for name, stats in self.routes.items()}
        return json.dumps(
            {
                "process_cpu_seconds": time.process_time() - self.started,
                "dynamodb": self.listening,
                "routes": routes,
                "stream_looks": stream_looks(),
            }
        ).encode()


def _ask_for_capacity(params: dict[str, Any], model: Any, **_: Any) -> None:
    if model.name not in ("DescribeTable", "CreateTable", "ListTables", "DeleteTable"):
        params.setdefault("ReturnConsumedCapacity", "TOTAL")


def _units(consumed: Any) -> float:
    """Capacity units from a ConsumedCapacity answer (one dict, or a list of them for batch calls)."""
    if consumed is None:
        return 0.0
    entries = consumed if isinstance(consumed, list) else [consumed]
    return sum(float(entry.get("CapacityUnits") or 0.0) for entry in entries)


def _route_name(api: Any, method: str, target: str) -> str:
    """The route key as the template writes it (``POST /v1/games/{id}/moves``), or the path for no route."""
    path = target.split("?")[0]
    with api._lock:
        found = api.match(method, path)
    return found[0].key if found else f"{method} (no route)"


def install(server: Any) -> Probe:
    """Put a probe on a LocalServer's API (in-process functions only)."""
    probe = Probe()
    from local.packaged import PackagedFunction

    if any(isinstance(function, PackagedFunction) for function in server.api.functions.values()):
        return probe  # the functions run in processes of their own
    probe.listen(server.api.extra_environment.get("DYNAMODB_ENDPOINT"))
    server.api.handle = probe.wrap(server.api.handle)
    return probe
