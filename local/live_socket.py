"""The live WebSocket API of template.yaml for ``make run``, on the runner's own origin and port.

API Gateway's part is played here: a ``GET /live`` with ``Upgrade: websocket`` (the stage's path, as CloudFront's
/live behaviour forwards it) becomes a connection with an id; the handshake waits for the ``$connect`` route's
function (a 2xx opens the socket, anything else refuses it with that status); each text message goes to the
route its ``action`` selects (``$request.body.action``: ``subscribe``, else ``$default``) and the function's
``body`` is the reply; the connection's end (either side) runs ``$disconnect``. Each route's event has the shape
API Gateway gives a proxy integration (``requestContext.routeKey``, ``connectionId``, ``eventType``, ...).

The management API is here too: ``POST /live/@connections/{id}`` sends its body to the connection (410
``GoneException`` when it is closed) and ``DELETE`` closes it, so the fan-out function's boto3 client
(``apigatewaymanagementapi``, ``LIVE_ENDPOINT`` pointed at this origin) runs unchanged.

The WebSocket protocol itself is the ``websockets`` package's Sans-I/O ``ServerProtocol`` (handshake, frames,
masking, ping/pong, close), driven by the runner's request thread, one per connection.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol

#: What API Gateway allows a message (128 KB: a frame of 32 KB, a message of 128 KB).
MAX_MESSAGE_BYTES = 128 * 1024
#: API Gateway closes a connection idle this long (no message either way), and any after two hours.
IDLE_SECONDS = 10 * 60
LONGEST_SECONDS = 2 * 60 * 60

Invoke = Callable[[str, dict[str, Any]], Any]


class SocketRoutes:
    """The WebSocket API's routes in the template: route key -> function, and the stage's path."""

    def __init__(self, template: Any):
        resources = template.resources
        integrations = {
            name: str(resource["Properties"]["IntegrationUri"])
            for name, resource in resources.items()
            if resource.get("Type") == "AWS::ApiGatewayV2::Integration"
        }
        self.functions: dict[str, str] = {}
        for resource in resources.values():
            if resource.get("Type") != "AWS::ApiGatewayV2::Route":
                continue
            properties = resource["Properties"]
            target = _sub_text(properties.get("Target"))
            integration = target.rsplit("${", 1)[-1].rstrip("}") if "${" in target else ""
            uri = _sub_text(integrations.get(integration)) if integration in integrations else ""
            function = next((name for name in template.functions if "${" + name + ".Arn}" in uri), None)
            if function is not None:
                self.functions[str(properties["RouteKey"])] = function
        stages = [r for r in resources.values() if r.get("Type") == "AWS::ApiGatewayV2::Stage"]
        self.path = "/" + str(stages[0]["Properties"]["StageName"]) if stages else "/live"

    def __bool__(self) -> bool:
        return "$connect" in self.functions


def _sub_text(value: Any) -> str:
    if isinstance(value, dict) and "Fn::Sub" in value:
        value = value["Fn::Sub"]
    return value if isinstance(value, str) else json.dumps(value)


class Connection:
    """One open WebSocket: its protocol state and its socket, written under one lock (the request thread and the
    management API's posts both write)."""

    def __init__(
        self,
        connection_id: str,
        protocol: ServerProtocol,
        send_bytes: Callable[[bytes], None],
        hang_up: Callable[[], None] = lambda: None,
    ):
        self.id = connection_id
        self.protocol = protocol
        self._send_bytes = send_bytes
        self.hang_up = hang_up  # ends the TCP connection: the request thread's read returns at once
        self.lock = threading.Lock()
        self.connected_at = int(time.time() * 1000)
        self.opened = self.last_active = time.monotonic()

    def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self._send_bytes(data)

    def send_text(self, text: str) -> bool:
        with self.lock:
            if self.protocol.state.name != "OPEN":
                return False
            self.protocol.send_text(text.encode("utf-8"))
            try:
                self.flush()
            except OSError:
                return False
        self.last_active = time.monotonic()
        return True

    def close(self, code: int = 1000, reason: str = "") -> None:
        with self.lock:
            if self.protocol.state.name == "OPEN":
                self.protocol.send_close(code, reason)
                with contextlib.suppress(OSError):
                    self.flush()


class LiveSockets:
    """The WebSocket API: the connections open now, the routes' functions, the management API."""

    def __init__(self, routes: SocketRoutes, invoke: Invoke, origin_headers: dict[str, str] | None = None):
        self.routes = routes
        self.invoke = invoke
        self.origin_headers = dict(origin_headers or {})
        self.connections: dict[str, Connection] = {}
        self._lock = threading.Lock()
        self.posted = 0  # messages the management API delivered (GET /v1/_local/stats)
        self.opened = 0  # connections opened so far, and the most open at once
        self.peak = 0

    # -- a connection's life, on the request's own thread ---------------------------------------------------
    def serve(
        self,
        raw_request: bytes,
        read: Callable[[], bytes],
        write: Callable[[bytes], None],
        ip: str,
        hang_up: Callable[[], None] = lambda: None,
    ) -> None:
        """Run one WebSocket from its request (already read) until it closes."""
        protocol = ServerProtocol(max_size=MAX_MESSAGE_BYTES)
        protocol.receive_data(raw_request)
        requests = [event for event in protocol.events_received() if isinstance(event, Request)]
        if not requests:
            write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        request = requests[0]
        connection_id = _connection_id()
        connection = Connection(connection_id, protocol, write, hang_up)
        status = self._connect(connection, request, ip)
        if 200 <= status < 300:
            response = protocol.accept(request)
        else:
            response = protocol.reject(status, json.dumps({"message": "Forbidden" if status == 403 else "refused"}))
        protocol.send_response(response)
        connection.flush()
        if protocol.state.name != "OPEN":
            return
        with self._lock:
            self.connections[connection_id] = connection
            self.opened += 1
            self.peak = max(self.peak, len(self.connections))
        try:
            self._receive(connection, read)
        finally:
            with self._lock:
                self.connections.pop(connection_id, None)
            self._route(connection, "$disconnect", "DISCONNECT", ip, extra={"disconnectStatusCode": 1000})

    def _connect(self, connection: Connection, request: Request, ip: str) -> int:
        query = request.path.partition("?")[2]
        from urllib.parse import parse_qs

        parameters = {name: values[-1] for name, values in parse_qs(query).items()}
        headers = {name: value for name, value in request.headers.raw_items()}
        headers.update(self.origin_headers)  # what CloudFront adds (the origin secret)
        event_extra = {"headers": headers, "queryStringParameters": parameters or None}
        result = self._route(connection, "$connect", "CONNECT", ip, extra=event_extra)
        return int((result or {}).get("statusCode", 500)) if isinstance(result, dict) else 500

    def _receive(self, connection: Connection, read: Callable[[], bytes]) -> None:
        protocol = connection.protocol
        while True:
            try:
                data = read()
            except (OSError, ValueError):
                data = b""
            with connection.lock:
                if data:
                    protocol.receive_data(data)
                else:
                    protocol.receive_eof()
                events = protocol.events_received()
                try:
                    connection.flush()  # pongs, the close handshake's answer
                except OSError:
                    return
            for frame in events:
                connection.last_active = time.monotonic()
                if isinstance(frame, Frame) and frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                    text = bytes(frame.data).decode("utf-8", "replace")
                    self._message(connection, text, binary=frame.opcode is Opcode.BINARY)
            # After the close handshake the server closes the TCP connection first (RFC 6455 7.1.1).
            if not data or protocol.state.name == "CLOSED" or protocol.close_expected():
                return

    def _message(self, connection: Connection, text: str, binary: bool = False) -> None:
        try:
            action = json.loads(text).get("action")
        except (ValueError, AttributeError):
            action = None
        route = action if isinstance(action, str) and action in self.routes.functions else "$default"
        extra = {"body": text, "isBase64Encoded": binary}
        result = self._route(connection, route, "MESSAGE", "", extra=extra, route_key=route)
        if isinstance(result, dict) and result.get("body"):
            connection.send_text(str(result["body"]))

    def _route(self, connection: Connection, route: str, kind: str, ip: str, extra: dict[str, Any],
               route_key: str | None = None) -> Any:  # fmt: skip
        function = self.routes.functions.get(route) or self.routes.functions.get("$default")
        if function is None:
            return None
        event = socket_event(route_key or route, kind, connection.id, connection.connected_at, ip, extra)
        try:
            return self.invoke(function, event)
        except Exception:  # API Gateway's answer to a crashed function: the route fails, the socket stays
            traceback.print_exc()
            return {"statusCode": 500}

    def stats(self) -> dict[str, int]:
        """The counters of GET /v1/_local/stats (local/probe.py): connections open now, at most, in all."""
        with self._lock:
            return {"open": len(self.connections), "peak": self.peak, "opened": self.opened, "posted": self.posted}

    # -- API Gateway's time limits ------------------------------------------------------------------------
    def close_idle(self, idle_seconds: float = IDLE_SECONDS, longest_seconds: float = LONGEST_SECONDS) -> int:
        """Close the connections idle ``idle_seconds`` (no message either way) or open ``longest_seconds``, as
        API Gateway does (close code 1001); their ``$disconnect`` follows. How many were closed."""
        now = time.monotonic()
        with self._lock:
            due = [c for c in self.connections.values()
                   if now - c.last_active >= idle_seconds or now - c.opened >= longest_seconds]  # fmt: skip
        for connection in due:
            connection.close(1001, "Going away")
            connection.hang_up()
        return len(due)

    def start_sweeps(self, every: float = 5.0) -> None:
        """``close_idle`` every ``every`` seconds on a thread of its own (``LIVE_IDLE_SECONDS`` sets the idle limit)."""
        import os

        idle = float(os.environ.get("LIVE_IDLE_SECONDS") or IDLE_SECONDS)

        def sweep() -> None:
            while True:
                time.sleep(min(every, idle))
                try:
                    self.close_idle(idle)
                except Exception:
                    traceback.print_exc()

        threading.Thread(target=sweep, name="live-idle", daemon=True).start()

    # -- the management API --------------------------------------------------------------------------------
    def manage(self, method: str, connection_id: str, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        with self._lock:
            connection = self.connections.get(connection_id)
        if connection is None or (method == "POST" and not connection.send_text(body.decode("utf-8", "replace"))):
            headers = [("Content-Type", "application/json"), ("x-amzn-ErrorType", "GoneException")]
            return 410, headers, json.dumps({"message": None}).encode()
        if method == "POST":
            self.posted += 1
            return 200, [("Content-Type", "application/json")], b"{}"
        if method == "DELETE":
            connection.close(1000, "")
            return 204, [], b""
        info = {"connectedAt": connection.connected_at, "identity": {"sourceIp": "127.0.0.1"}}
        return 200, [("Content-Type", "application/json")], json.dumps(info).encode()


def socket_event(
    route: str, kind: str, connection_id: str, connected_at: int, ip: str, extra: dict[str, Any]
) -> dict[str, Any]:
    """The event API Gateway gives a WebSocket route's proxy integration."""
    now = int(time.time() * 1000)
    context = {
        "routeKey": route,
        "eventType": kind,
        "messageDirection": "IN",
        "extendedRequestId": uuid.uuid4().hex,
        "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now / 1000)),
        "stage": "live",
        "connectedAt": connected_at,
        "requestTimeEpoch": now,
        "identity": {"sourceIp": ip or "127.0.0.1"},
        "requestId": uuid.uuid4().hex,
        "domainName": "127.0.0.1",
        "connectionId": connection_id,
        "apiId": "local",
    }
    if kind == "MESSAGE":
        context["messageId"] = uuid.uuid4().hex
    if "disconnectStatusCode" in extra:
        context["disconnectStatusCode"] = extra.pop("disconnectStatusCode")
        context["disconnectReason"] = ""
    return {"requestContext": context, "isBase64Encoded": False, **extra}


def _connection_id() -> str:
    """An id shaped like API Gateway's (base64 text ending in '=')."""
    return secrets.token_urlsafe(9)[:11] + "="


# -- the runner's side ----------------------------------------------------------------------------------------
def install(server: Any) -> LiveSockets | None:
    """Serve the template's WebSocket API on ``server`` (the local runner), its functions' ``LIVE_ENDPOINT``
    pointed at the runner's own management API; None when the template has no WebSocket API."""
    routes = SocketRoutes(server.api.template)
    if not routes:
        return None
    api = server.api
    live = LiveSockets(routes, lambda name, event: api.invoke(name, event), api.origin_headers)
    endpoint = f"{server.origin}{routes.path}"
    for function in api.functions.values():
        environment = getattr(function, "environment", None)
        if isinstance(environment, dict) and "LIVE_ENDPOINT" in environment:
            environment["LIVE_ENDPOINT"] = endpoint
    server.live = live
    live.start_sweeps()
    return live


def answer(handler: Any) -> bool:
    """Serve ``handler``'s request (the runner's) if it is the live socket's or its management API's; False for
    any other request."""
    from urllib.parse import unquote, urlsplit

    live: LiveSockets | None = getattr(handler.server, "live", None)
    if live is None:
        return False
    path = urlsplit(handler.path).path
    upgrade = (handler.headers.get("Upgrade") or "").lower() == "websocket"
    if path == live.routes.path and handler.command == "GET" and upgrade:
        lines = [handler.requestline, *(f"{name}: {value}" for name, value in handler.headers.items()), "", ""]
        handler.close_connection = True
        live.serve(
            "\r\n".join(lines).encode("latin-1"),
            lambda: handler.rfile.read1(65536),
            handler.connection.sendall,
            handler.client_address[0],
            lambda: _hang_up(handler.connection),
        )
        return True
    prefix = live.routes.path + "/@connections/"
    if not path.startswith(prefix):
        return False
    length = int(handler.headers.get("Content-Length") or 0)
    body = handler.rfile.read(length) if length > 0 else b""
    handler._send(*live.manage(handler.command, unquote(path[len(prefix) :]), body))
    return True


def _hang_up(connection: Any) -> None:
    import contextlib
    import socket

    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
