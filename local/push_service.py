"""A local Web Push service (RFC 8030) for ``make run`` and the tests: it checks and decrypts what it receives.

    python -m local.push_service          # listen on a free port of 127.0.0.1 and print its origin

A push service stands between the notify function and a browser. This one plays both parts for one
machine: ``subscribe()`` makes what a browser's ``PushManager.subscribe`` makes (an endpoint on this
server, a P-256 key pair and a 16-byte auth secret, the private half kept here) and every POST to an
endpoint is checked as a real push service and browser would:

* VAPID (RFC 8292): ``Authorization: vapid t=<JWT>, k=<public key>``; the JWT is ES256, signed by ``k``,
  its ``aud`` is this server's origin, its ``exp`` in the future and at most 24 hours away, ``sub`` a
  ``mailto:`` or ``https:`` URL. A subscription made with ``server_key`` accepts only that key (403).
* ``TTL`` present (RFC 8030 section 5.2), ``Urgency`` one of RFC 8030's four values when present,
  ``Content-Encoding: aes128gcm``, and the body decrypts (RFC 8291) with the subscription's private key
  and auth secret. Any failure is a 4xx with a reason and is kept in ``refused``.

What passes is kept in ``received`` (headers, VAPID claims, the decrypted payload, JSON-decoded when it
is JSON). ``answer_with(endpoint, 410)`` makes an endpoint answer with a status from then on (410 Gone,
429 with ``Retry-After``, 500 ...), as a push service does for an expired subscription or under load.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

MAX_BODY = 4096 + 86  # RFC 8291: a push message's record is at most 4,096 bytes, plus the header
URGENCIES = ("very-low", "low", "normal", "high")
MAX_EXP_SECONDS = 24 * 3600
PATH_PREFIX = "/push/"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class LocalSubscription:
    """What a browser holds after subscribing: the endpoint and keys (``info()``), and the private key."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    server_key: str | None = None  # the applicationServerKey it was made with (None: any VAPID key)

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def info(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


@dataclass
class Delivery:
    endpoint: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: bytes
    at: float = field(default_factory=time.time)

    @property
    def json(self) -> Any:
        return json.loads(self.payload)


class Refusal(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


class PushService:
    """The server and what it saw; use as a context manager (or ``start``/``stop``)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.subscriptions: dict[str, LocalSubscription] = {}
        self.received: list[Delivery] = []
        self.refused: list[tuple[str, int, str]] = []  # (endpoint, status, reason)
        self.attempts: dict[str, int] = {}
        self.forced: dict[str, tuple[int, dict[str, str], int | None]] = {}
        self.stalled: dict[str, threading.Event] = {}  # endpoint: answered only once its event is set
        self.holding = threading.Event()  # set once a stalled POST is held
        self.held: dict[str, int] = {}  # endpoint: how many POSTs arrived to be held
        self._lock = threading.Condition()
        self._server = ThreadingHTTPServer((host, port), _handler_for(self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> PushService:
        self._thread = threading.Thread(target=self._server.serve_forever, name="push-service", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> PushService:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what a browser does ---------------------------------------------------------------------------
    def subscribe(self, server_key: str | None = None) -> LocalSubscription:
        endpoint = f"{self.origin}{PATH_PREFIX}{secrets.token_urlsafe(16)}"
        subscription = LocalSubscription(endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16), server_key)
        with self._lock:
            self.subscriptions[endpoint] = subscription
        return subscription

    # -- what a test does ------------------------------------------------------------------------------
    def answer_with(
        self,
        endpoint: str,
        status: int | None,
        retry_after: int | None = None,
        times: int | None = None,
        location: str | None = None,
    ) -> None:
        """Answer POSTs to ``endpoint`` with ``status`` from now on (``times``: only the next so many; None:
        deliver normally again); ``location``: a redirect's target."""
        with self._lock:
            if status is None:
                self.forced.pop(endpoint, None)
            else:
                headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
                headers.update({"Location": location} if location else {})
                self.forced[endpoint] = (status, headers, times)

    def deliveries(self, endpoint: str | None = None) -> list[Delivery]:
        with self._lock:
            return [item for item in self.received if endpoint is None or item.endpoint == endpoint]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[Delivery]:
        """The deliveries once there are at least ``count`` (or whatever arrived when ``timeout`` passed)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.received) < count and time.monotonic() < deadline:
                self._lock.wait(timeout=max(0.0, deadline - time.monotonic()))
            return list(self.received)

    def stall(self, endpoint: str) -> threading.Event:
        """Hold each POST to ``endpoint`` until the returned event is set (at most a minute): a push service
        (or any address a subscription names) that never answers."""
        release = self.stalled.setdefault(endpoint, threading.Event())
        return release

    # -- a POST ------------------------------------------------------------------------------------------
    def handle(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], str]:
        endpoint = self.origin + path
        release = self.stalled.get(endpoint)
        if release is not None:
            with self._lock:
                self.held[endpoint] = self.held.get(endpoint, 0) + 1
            self.holding.set()
            release.wait(60)
        with self._lock:
            self.attempts[endpoint] = self.attempts.get(endpoint, 0) + 1
            subscription = self.subscriptions.get(endpoint)
            forced = self.forced.get(endpoint)
            if forced is not None and forced[2] is not None:
                left = forced[2] - 1
                if left > 0:
                    self.forced[endpoint] = (*forced[:2], left)
                else:
                    del self.forced[endpoint]
        try:
            if subscription is None:
                raise Refusal(HTTPStatus.NOT_FOUND, "no such subscription")
            if forced is not None:
                raise _Forced(forced[0], forced[1])
            claims = self.check_vapid(headers, subscription)
            payload = self.decrypt(headers, body, subscription)
        except _Forced as answer:
            return answer.status, answer.headers, ""
        except Refusal as refusal:
            with self._lock:
                self.refused.append((endpoint, refusal.status, refusal.reason))
            return refusal.status, {}, refusal.reason
        with self._lock:
            self.received.append(Delivery(endpoint, headers, claims, payload))
            self._lock.notify_all()
        return HTTPStatus.CREATED, {"Location": f"{self.origin}/message/{secrets.token_urlsafe(8)}"}, ""

    def check_vapid(self, headers: dict[str, str], subscription: LocalSubscription) -> dict[str, Any]:
        scheme, _, parameters = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "vapid":
            raise Refusal(HTTPStatus.UNAUTHORIZED, "Authorization must be 'vapid t=..., k=...' (RFC 8292)")
        fields = {}
        for part in parameters.split(","):
            name, _, value = part.strip().partition("=")
            fields[name.strip()] = value.strip()
        token, key = fields.get("t", ""), fields.get("k", "")
        if token.count(".") != 2 or not key:
            raise Refusal(HTTPStatus.UNAUTHORIZED, "the vapid Authorization needs t (a JWT) and k (the key)")
        if subscription.server_key is not None and key != subscription.server_key:
            raise Refusal(HTTPStatus.FORBIDDEN, "k is not the key this subscription was made with")
        try:
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        except ValueError as error:
            raise Refusal(HTTPStatus.UNAUTHORIZED, f"the JWT or the key cannot be read: {error}") from None
        claims = self._verified_claims(token, public)
        exp, now = claims.get("exp"), time.time()
        if not isinstance(exp, int) or not exp <= now + MAX_EXP_SECONDS:
            raise Refusal(HTTPStatus.UNAUTHORIZED, "exp must be in the future and at most 24 hours away")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise Refusal(HTTPStatus.UNAUTHORIZED, "sub must be a mailto: or https: URL")
        return claims

    def _verified_claims(self, token: str, public: ec.EllipticCurvePublicKey) -> dict[str, Any]:
        """The JWT's claims once PyJWT has checked its ES256 signature with ``k``, its ``aud`` and its ``exp``."""
        try:
            claims: dict[str, Any] = jwt.decode(
                token, public, algorithms=["ES256"], audience=self.origin, options={"require": ["aud", "exp"]}
            )
        except jwt.InvalidAlgorithmError:
            raise Refusal(HTTPStatus.UNAUTHORIZED, "the JWT must be ES256 (a 64-byte signature)") from None
        except jwt.InvalidSignatureError:
            raise Refusal(HTTPStatus.UNAUTHORIZED, "the JWT's signature does not verify with k") from None
        except (jwt.InvalidAudienceError, jwt.MissingRequiredClaimError) as error:
            raise Refusal(HTTPStatus.UNAUTHORIZED, f"aud must be {self.origin!r}: {error}") from None
        except jwt.ExpiredSignatureError:
            raise Refusal(HTTPStatus.UNAUTHORIZED, "exp must be in the future and at most 24 hours away") from None
        except jwt.InvalidTokenError as error:
            raise Refusal(HTTPStatus.UNAUTHORIZED, f"the JWT or the key cannot be read: {error}") from None
        return claims

    def decrypt(self, headers: dict[str, str], body: bytes, subscription: LocalSubscription) -> bytes:
        import http_ece

        ttl = headers.get("ttl", "")
        if not ttl.isdigit():
            raise Refusal(HTTPStatus.BAD_REQUEST, "TTL is required (RFC 8030 section 5.2)")
        if "urgency" in headers and headers["urgency"] not in URGENCIES:
            raise Refusal(HTTPStatus.BAD_REQUEST, f"Urgency must be one of {', '.join(URGENCIES)}")
        if headers.get("content-encoding") != "aes128gcm":
            raise Refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding must be aes128gcm (RFC 8291)")
        try:
            plain: bytes = http_ece.decrypt(
                body, private_key=subscription.private_key, auth_secret=subscription.auth, version="aes128gcm"
            )
            return plain
        except Exception as error:
            raise Refusal(HTTPStatus.BAD_REQUEST, f"the body does not decrypt: {error}") from None


class _Forced(Exception):
    def __init__(self, status: int, headers: dict[str, str]):
        super().__init__(status)
        self.status = status
        self.headers = headers


def _handler_for(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {}, "the body is over 4 KB")
                return
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, extra, text = service.handle(self.path, headers, body)
            self._send(status, extra, text)

        def _send(self, status: int, headers: dict[str, str], text: str) -> None:
            data = text.encode("utf-8")
            self.send_response(int(status))
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def main() -> int:
    with PushService() as service:
        print(f"push service on {service.origin}{PATH_PREFIX}... (Ctrl-C stops it)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
