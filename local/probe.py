"""What `make run` spends per API request, for the load test (`make load`, tests/load/): the CPU time of each
request by route, and the DynamoDB calls it made with the capacity DynamoDB says they consumed.

    GET /v1/_local/stats     the totals since the runner started, as JSON (make run only: never deployed),
                             ``stream_looks``: how many looks the local stream has completed (tests wait on it),
                             and ``live_sockets``: the live socket's connections (open, peak, opened, posted)

Each function instance (a process of its own: local/instances.py) has a ``Meter``: it listens on the
data-access module's clients (``common.persistence.store.client``, one per call budget) with botocore's public
event hooks (``before-parameter-build`` asks for ``ReturnConsumedCapacity: TOTAL``, which the functions never
read, so their behaviour is unchanged; ``after-call`` records the operation, the capacity units and any error
code) and returns, with each answer, what the invocation spent and its CPU seconds, and the items it wrote
(``writes``: the runner's stand-in for the tables' streams feeds them at once, local/streams.py). The runner's ``Probe``
charges that to the request being answered on the thread that asked (``(background)`` outside a request: the
local stream's notify function, the reminder sweep). The packaged runner (``make run PACKAGED=1``) runs the
packaged build's own host, which has no meter: its stats say so.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

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

    def add(self, usage: dict[str, Any]) -> None:
        """What one invocation spent (a ``Meter``'s usage), its CPU aside."""
        for name, count in usage.get("calls", {}).items():
            self.calls[name] += int(count)
        self.read_units += float(usage.get("read_units", 0.0))
        self.write_units += float(usage.get("write_units", 0.0))
        self.failed_conditions += int(usage.get("failed_conditions", 0))

    def as_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "cpu_seconds": self.cpu,
            "calls": dict(self.calls),
            "read_units": round(self.read_units, 3),
            "write_units": round(self.write_units, 3),
            "failed_conditions": self.failed_conditions,
        }


class Meter:
    """An instance's side: what each invocation spends (its DynamoDB calls, capacity units, CPU seconds)."""

    def __init__(self) -> None:
        self.usage = RouteStats()
        self.listening = False

    def listen(self) -> None:
        """Hook every client the data-access module makes, if the function uses it (one that reads no table never
        imports it, and pays no client for the meter)."""
        import sys

        if "common.persistence.store" not in sys.modules:
            return
        from common.persistence import store
        from common.persistence.deadline import BUDGETS

        for budget in BUDGETS:
            events = store.client(budget).meta.events
            events.register("before-parameter-build.dynamodb", _ask_for_capacity)
            events.register("before-parameter-build.dynamodb", _note_write)
            events.register("after-call.dynamodb", self._after_call)
        self.listening = True

    def measure(self, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """``run()``'s answer with ``usage``: what it spent, and ``writes``: the items it wrote, in order."""
        self.usage = RouteStats()
        self.writes: list[dict[str, Any]] = []
        started = time.process_time()
        answer = run()
        usage = self.usage.as_json()
        usage.update(cpu_seconds=time.process_time() - started, dynamodb=self.listening, writes=self.writes)
        return {**answer, "usage": usage}

    def _after_call(self, http_response: Any, parsed: dict[str, Any], model: Any, **rest: Any) -> None:
        written = (rest.get("context") or {}).get(WRITE_NOTE)
        if written is not None and "Error" not in parsed and hasattr(self, "writes"):
            self.writes.append(written)  # stored: what a stream would carry (local/streams.py feeds it at once)
        units = _units(parsed.get("ConsumedCapacity"))
        failed = parsed.get("Error", {}).get("Code") == "ConditionalCheckFailedException"
        reads = model.name in _READS
        self.usage.add(
            {
                "calls": {model.name: 1},
                "read_units": units if reads else 0.0,
                "write_units": 0.0 if reads else units,
                "failed_conditions": int(failed),
            }
        )


class Probe:
    """The runner's side: the counters; ``wrap`` an API's ``handle`` to charge each request to its route, and
    ``record`` what each invocation reports."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current = threading.local()
        self.routes: dict[str, RouteStats] = defaultdict(RouteStats)
        self.started = time.process_time()
        self.instances_cpu = 0.0  # every invocation's CPU seconds, in the instances' processes
        self.listening = False
        self.live: Callable[[], dict[str, int]] = dict  # the live socket's counters (local/live_socket.py)

    def wrap(self, handle: Callable[..., Answer]) -> Callable[..., Answer]:
        """``handle`` (LocalApi.handle) answering STATS_PATH itself and charging every other request."""

        def probed(method: str, target: str, headers: list[tuple[str, str]], body: bytes, client_ip: str) -> Answer:
            if target.split("?")[0] == STATS_PATH:
                return 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], self.report()
            route = _route_name(getattr(handle, "__self__", None), method, target)
            self._current.route = route
            self._current.cpu = 0.0
            try:
                return handle(method, target, headers, body, client_ip)
            finally:
                self._current.route = None
                with self._lock:
                    stats = self.routes[route]
                    stats.requests += 1
                    stats.cpu.append(self._current.cpu)

        return probed

    def record(self, usage: dict[str, Any]) -> None:
        """What one invocation spent, charged to the request this thread answers (else to the background)."""
        route = getattr(self._current, "route", None)
        cpu = float(usage.get("cpu_seconds", 0.0))
        if route is not None:
            self._current.cpu += cpu
        with self._lock:
            self.routes[route or BACKGROUND].add(usage)
            self.instances_cpu += cpu
            self.listening = self.listening or bool(usage.get("dynamodb"))

    def report(self) -> bytes:
        from local.streams import stream_looks

        with self._lock:
            routes = {name: stats.as_json() for name, stats in self.routes.items()}
            cpu = time.process_time() - self.started + self.instances_cpu
        return json.dumps(
            {
                "process_cpu_seconds": cpu,  # the runner's own and its instances'
                "dynamodb": self.listening,
                "routes": routes,
                "stream_looks": stream_looks(),
                "live_sockets": self.live(),
            }
        ).encode()


def _ask_for_capacity(params: dict[str, Any], model: Any, **_: Any) -> None:
    if model.name not in ("DescribeTable", "CreateTable", "ListTables", "DeleteTable"):
        params.setdefault("ReturnConsumedCapacity", "TOTAL")


#: Where a write's table and item (or key) wait in the call's context for its answer.
WRITE_NOTE = "ubao_write"


def _note_write(params: dict[str, Any], model: Any, context: dict[str, Any] | None = None, **_: Any) -> None:
    """Note a single-item write's table and its item (PutItem) or key (UpdateItem, DeleteItem)."""
    if context is None or model.name not in ("PutItem", "UpdateItem", "DeleteItem"):
        return
    from local.streams import stream_json  # binary values as base64 text: the note travels as JSON

    item, key = (
        {name: stream_json(value) for name, value in (params.get(part) or {}).items()} for part in ("Item", "Key")
    )
    context[WRITE_NOTE] = {"table": params.get("TableName"), "operation": model.name, "item": item, "key": key}


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
    """Put a probe on a LocalServer's API: its functions' instances report to it (the packaged build's never do)."""
    probe = Probe()
    if getattr(server, "live", None) is not None:
        probe.live = server.live.stats
    functions = server.api.functions.values()
    if not all(hasattr(function, "on_usage") for function in functions):
        return probe  # the packaged build's host reports nothing
    for function in functions:
        function.on_usage = probe.record
    server.api.handle = probe.wrap(server.api.handle)
    return probe
