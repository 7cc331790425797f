"""The local runner: the whole of ubao on one origin, as CloudFront + API Gateway + Lambda serve it.

    python -m local.runner [--host 127.0.0.1] [--port 3000]       (make run)

* ``/v1/*`` goes to the HTTP API: every HttpApi route in template.yaml, chosen the way API Gateway chooses
  (an exact path before a path with parameters before a greedy ``{proxy+}``), by werkzeug's routing
  over the template's routes (``common.web.routing``),
  invokes its function's handler in this process with a payload-2.0 event and a Lambda context, with the
  function's Environment from the template and its code and layers on sys.path as Lambda puts them.
* Everything else is the static site from ``site/build/`` (``index.html`` for a directory, a redirect
  to add the slash, a placeholder page until the site is built).

Requests are served side by side: each function runs in instances of its own (local/instances.py), each a
process answering one request at a time, as many at once as requests come (``LOCAL_INSTANCES`` caps them),
so a slow request (the computer's search) holds up no other; ``LOCAL_WARM_INSTANCES=N`` starts N of each
before any request, like provisioned concurrency (the browser tests use 1). DYNAMODB_ENDPOINT, when set, is passed to
every function (the local DynamoDB that ``make run`` starts, or any other).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from local import clock as local_clock
from local import live_feed, live_socket, probe, reviews, static, streams
from local.api_answers import api_gateway_error, lambda_response, method_not_allowed
from local.events import http_api_event
from local.instances import LocalFunction, warm_count
from local.template import ROOT, Route, Template

SITE_DIR = ROOT / "site" / "build"
FUNCTIONS_DIR = ROOT / "functions"
API_PREFIX = "/v1/"  # CloudFront's /v1/* behaviour
MAX_API_BODY = 10 * 1024 * 1024  # API Gateway HTTP API's own limit; the functions refuse far less
#: The viewer's address, which CloudFront adds to every origin request (the per-client limits read it).
VIEWER_ADDRESS_HEADER = "CloudFront-Viewer-Address"
#: Passed to every function when set: where the data-access module finds DynamoDB.
DYNAMODB_ENDPOINT_VARIABLE = "DYNAMODB_ENDPOINT"


class LocalApi:
    """The HttpApi of the template: route selection as API Gateway does it, then the function."""

    def __init__(
        self,
        template: Template,
        extra_environment: dict[str, str] | None = None,
        functions: dict[str, Any] | None = None,
    ):
        self.template = template
        self.extra_environment = dict(extra_environment or {})
        # ``functions``: the packaged build's, each in its own process (local/packaged.py); else in-process.
        self.functions = functions or {
            name: LocalFunction(function, self.extra_environment) for name, function in template.functions.items()
        }
        self.routes = template.routes
        self._route_tables: dict[bool, Any] = {}  # with and without the greedy fallback, built on first use
        # What CloudFront adds to every /v1 request (the origin secret the functions check).
        self.origin_headers = template.origin_headers()
        # Functions that run in this process (a test's own) share Powertools' class state: one request at a time,
        # and the stream's and the schedule's functions beside them, one at a time among themselves. The
        # template's functions run in instances of their own (``isolated``), as many at once as requests come.
        self._lock = threading.Lock()
        self._background_lock = threading.Lock()
        # Told each function run and the items it wrote (None: unknown), as the tables' streams (local/streams.py).
        self.after_invoke: Callable[[str, list[dict[str, Any]] | None], None] | None = None
        for function in template.functions.values() if functions is None else ():
            for path in function.import_paths:
                if str(path) not in sys.path:
                    sys.path.insert(0, str(path))

    def invoke(self, function_name: str, event: dict[str, Any], background: bool = False) -> Any:
        """Run one function with ``event``: at once in an instance of its own, or (a function in this process) one
        request at a time, ``background`` ones (the stream's, the schedule's) one at a time beside them; then
        tell ``after_invoke``, even if it crashed."""
        function = self.functions[function_name]
        try:
            if getattr(function, "isolated", False):
                return function.invoke(event)
            with self._background_lock if background else self._lock:
                return function.invoke(event)
        finally:
            if self.after_invoke is not None:
                self.after_invoke(function_name, getattr(function, "writes", lambda: None)())

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        """The route API Gateway would pick, and its path parameters: ``common.web.routing`` (werkzeug's routing over
        the template's routes) decides, as in every function; the runner matches no path itself."""
        found: tuple[Route, dict[str, str]] | None = self._table(greedy=True).find(method, path)
        return found

    def methods_at(self, path: str) -> list[str]:
        """The methods the template's own routes serve at ``path`` (a 405's ``Allow``; the greedy fallback's
        ``ANY`` aside, as the fallback function lists them)."""
        return list(self._table(greedy=False).methods_at(path))

    def _table(self, greedy: bool) -> Any:
        if greedy not in self._route_tables:
            if str(FUNCTIONS_DIR) not in sys.path:  # the packaged runner's functions run elsewhere
                sys.path.append(str(FUNCTIONS_DIR))
            from common.web.routing import RouteTable

            routes = [route for route in self.routes if greedy or "+}" not in route.path]
            self._route_tables[greedy] = RouteTable((route.method, route.path, route) for route in routes)
        return self._route_tables[greedy]

    def handle(
        self, method: str, target: str, headers: list[tuple[str, str]], body: bytes, client_ip: str
    ) -> static.Answer:
        """(status, headers, body) for one API request."""
        split = urlsplit(target)
        path = split.path
        found = self.match(method, path)  # no shared state: it may run while a function does
        if found is None:
            return api_gateway_error(HTTPStatus.NOT_FOUND, "Not Found")
        route, parameters = found
        # CloudFront overwrites a viewer's copy of what it adds: the origin secret and the viewer's address.
        ours = {**self.origin_headers, VIEWER_ADDRESS_HEADER: f"{client_ip}:0"}
        added = {name.lower() for name in ours}
        headers = [(name, value) for name, value in headers if name.lower() not in added]
        headers += list(ours.items())
        event = http_api_event(
            method,
            path,
            route_key=route.key,
            path_parameters=parameters,
            query=split.query,
            headers=headers,
            body=body,
            source_ip=client_ip,
        )
        request_id = event["requestContext"]["requestId"]
        try:
            result = self.invoke(route.function, event)
            status, response_headers, response_body = lambda_response(result)
        except Exception:  # what API Gateway does when a function crashes: a bare 500; the trace goes to the log
            traceback.print_exc()
            status, response_headers, response_body = api_gateway_error(
                HTTPStatus.INTERNAL_SERVER_ERROR, "Internal Server Error"
            )
        response_headers.append(("Apigw-Requestid", request_id))
        return status, response_headers, response_body


# -- the static site ------------------------------------------------------------------------------------
def with_security_headers(headers: list[tuple[str, str]], security: dict[str, str]) -> list[tuple[str, str]]:
    """The answer's headers with the policy's security headers replacing any of the same name (Override)."""
    replaced = {name.lower() for name in security}
    return [(name, value) for name, value in headers if name.lower() not in replaced] + list(security.items())


def _text(status: int, text: str, headers: list[tuple[str, str]] | None = None) -> static.Answer:
    return int(status), [("Content-Type", "text/plain; charset=utf-8"), *(headers or [])], (text + "\n").encode()


# -- the HTTP server ------------------------------------------------------------------------------------
class _RequestHandler(BaseHTTPRequestHandler):
    server: LocalServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer()

    do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_GET

    def __getattr__(self, name: str) -> Any:
        # Any other method (TRACE, CONNECT, PROPFIND...): the base class would answer a 501 HTML page; the
        # deployed stack answers the API's JSON 405 (``_refuse_method``).
        if name.startswith("do_"):
            return self._refuse_method
        raise AttributeError(name)

    def _refuse_method(self) -> None:
        try:
            self._read_body()  # read, so the connection stays usable
        except ValueError:
            self.close_connection = True
        path = urlsplit(self.path).path
        allowed = self.server.api.methods_at(path) if path.startswith(API_PREFIX) else ["GET", "HEAD"]
        status, headers, body = method_not_allowed(self.command, path, allowed)
        self._send(status, with_security_headers(headers, self.server.security_headers), body)

    def _answer(self) -> None:
        if live_socket.answer(self):  # the live WebSocket and its management API (local/live_socket.py)
            return
        started = time.perf_counter()
        try:
            body = self._read_body()
        except ValueError as error:
            self._send(*_text(HTTPStatus.BAD_REQUEST, str(error)))
            return
        if body is None:
            self._send(*api_gateway_error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "Request Entity Too Large"))
            return
        if self.path.startswith(API_PREFIX):
            status, headers, payload = self.server.api.handle(
                self.command, self.path, list(self.headers.items()), body, self.client_address[0]
            )
        else:
            status, headers, payload = static.site_response(
                self.command, self.path, self.server.site_dir, self.server.origin, self.headers
            )
        self._send(status, with_security_headers(headers, self.server.security_headers), payload)
        if not self.server.quiet:
            elapsed = (time.perf_counter() - started) * 1000
            sys.stderr.write(f"{self.command} {self.path} {status} {elapsed:.1f} ms\n")

    def _read_body(self) -> bytes | None:
        """The request body, or None when it is over API Gateway's limit."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks, total = [], 0
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                total += size
                if total > MAX_API_BODY:
                    self.close_connection = True
                    return None
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0:
            raise ValueError("bad Content-Length")
        if length > MAX_API_BODY:
            self.close_connection = True
            return None
        return self.rfile.read(length) if length else b""

    def send_response(self, code: int, message: str | None = None) -> None:
        """The base class's, without the headers CloudFront's response-headers policy removes (its Server)."""
        self.log_request(code)
        self.send_response_only(code, message)
        if "server" not in self.server.removed_headers:
            self.send_header("Server", self.version_string())
        self.send_header("Date", self.date_time_string())

    def _send(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding", *self.server.removed_headers):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        try:
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client left before its answer: nothing to tell it
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass  # _answer logs one line per request


class LocalServer(ThreadingHTTPServer):
    live: Any = None  # the live WebSocket API (local/live_socket.py)
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # connections waiting to be accepted: a burst of phones is queued, never reset

    def __init__(self, host: str, port: int, api: LocalApi, site_dir: Path = SITE_DIR, quiet: bool = False):
        self.api = api  # first: a bind that fails calls server_close, which stops the functions' instances
        super().__init__((host, port), _RequestHandler)
        self.site_dir = site_dir
        self.quiet = quiet
        # CloudFront's response-headers policy from the template, on every answer (site and API).
        self.security_headers = api.template.security_headers()
        self.removed_headers = api.template.removed_headers()

    def server_close(self) -> None:
        super().server_close()
        stops = [getattr(function, "stop", lambda: None) for function in self.api.functions.values()]
        with ThreadPoolExecutor(max(1, len(stops))) as pool:  # every function's instances end together
            list(pool.map(lambda stop: stop(), stops))

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # a client that hung up between two requests (a browser's idle connection): nothing to tell
        super().handle_error(request, client_address)

    @property
    def origin(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


def push_environment() -> dict[str, str]:
    """Local mode for Web Push (functions/push): http://127.0.0.1 endpoints accepted, so the local push service
    (local/push_service.py) can receive, and a VAPID key made on first use in .local/ (VAPID_KEY_FILE wins)."""
    key_file = os.environ.get("VAPID_KEY_FILE") or str(Path(__file__).resolve().parents[1] / ".local" / "vapid.json")
    return {"PUSH_LOCAL_MODE": "1", "VAPID_KEY_FILE": key_file}


def create_server(
    host: str = "127.0.0.1",
    port: int = 3000,
    quiet: bool = False,
    template: Template | None = None,
    site_dir: Path = SITE_DIR,
    packaged: Path | None = None,
) -> LocalServer:
    extra = {}
    if os.environ.get(DYNAMODB_ENDPOINT_VARIABLE):
        extra[DYNAMODB_ENDPOINT_VARIABLE] = os.environ[DYNAMODB_ENDPOINT_VARIABLE]
    extra.update(push_environment())
    if packaged is not None:  # make run PACKAGED=1: the build that would be deployed, each function isolated
        from local.packaged import packaged_functions

        template, functions = packaged_functions(packaged, extra)
        return LocalServer(host, port, LocalApi(template, extra, functions), site_dir=site_dir, quiet=quiet)
    server = LocalServer(host, port, LocalApi(template or Template(), extra), site_dir=site_dir, quiet=quiet)
    live_socket.install(server)  # the WebSocket API on the same origin (local/live_socket.py)
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.runner", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--site-dir", type=Path, default=SITE_DIR, help="the built site (default: site/build)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    parser.add_argument("--packaged", type=Path, help="serve this packaged build (build/host: make run PACKAGED=1)")
    options = parser.parse_args(argv)
    try:
        server = create_server(
            options.host, options.port, options.quiet, site_dir=options.site_dir, packaged=options.packaged
        )
    except OSError as error:
        print(f"cannot listen on {options.host}:{options.port}: {error.strerror} (set PORT=...)", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, _stop)  # a test or a process manager stops it as cleanly as Ctrl-C
    probe.install(server)  # the load test's counters: GET /v1/_local/stats (local/probe.py)
    if local_clock.enabled():
        local_clock.install(server)  # POST /v1/_local/clock moves the functions' clock (local/clock.py)
    notifications = review_feed = fanout_feed = None
    try:
        _announce(server)
        _warm(server.api)
        # Web Push as AWS wires it: the games table's stream into NotifyFunction, the reminder schedule.
        notifications = streams.start_local_notifications(server.api, server.api.template)
        # Game reviews off the request path, as ReviewQueue feeds ReviewFunction on AWS.
        review_feed = reviews.start_local_reviews(server.api.template, server.api.extra_environment)
        fanout_feed = live_feed.start_feed(server)  # and into LiveFanoutFunction, the live socket's fan-out
        listeners = [feed.after_request for feed in (notifications, review_feed, fanout_feed) if feed is not None]

        def tell_listeners(name: str, writes: list[dict[str, Any]] | None) -> None:
            for listen in listeners:
                listen(name, writes)

        server.api.after_invoke = tell_listeners if listeners else None
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped.", flush=True)
    finally:
        for feed in (notifications, review_feed, fanout_feed):
            if feed is not None:
                feed.stop()
        server.server_close()  # and the functions' instances
    return 0


def _announce(server: LocalServer) -> None:
    origin = server.origin
    print(f"ubao is running on {origin}/", flush=True)
    print(f"  site: {origin}/" + ("" if server.site_dir.is_dir() else "  (placeholder: `make site` builds it)"))
    for route in server.api.routes:
        print(f"  api:  {route.method:6} {origin}{route.path}  -> {route.function}")
    if server.api.extra_environment.get(DYNAMODB_ENDPOINT_VARIABLE):
        print(f"  DynamoDB: {server.api.extra_environment[DYNAMODB_ENDPOINT_VARIABLE]}")
    print("Ctrl-C stops it.", flush=True)


def _warm(api: LocalApi) -> None:
    """Start ``LOCAL_WARM_INSTANCES`` instances of each function, one per core at a time, beside the first
    requests (the browser tests set it: a page's own time limits then measure the site, not a busy machine's
    cold starts)."""
    count = warm_count()
    functions = [function for function in api.functions.values() if hasattr(function, "warm")]
    if count and functions:

        def warm_all() -> None:
            with ThreadPoolExecutor(min(len(functions), os.cpu_count() or 1), "local-warm") as pool:
                for function in functions:
                    pool.submit(function.warm, count)

        threading.Thread(target=warm_all, name="local-warm", daemon=True).start()


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    # `make run`: a local DynamoDB (dynalite on LOCAL_DYNAMODB_DIR, or DYNAMODB_ENDPOINT), stopped with the runner.
    from local.dynamodb import local_dynamodb

    # SIGTERM and SIGHUP (a closed terminal) end the run as Ctrl-C does, even while dynalite starts, so the
    # `with` below always stops it; a run killed outright is cleaned up by the next one (local/dynamodb.py).
    for ending in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(ending, _stop)
    # Ctrl-C stops it even when started from a script's background job (which starts with SIGINT ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with local_dynamodb():
            sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
