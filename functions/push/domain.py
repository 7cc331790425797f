"""Players' Web Push subscriptions, the domain: what a browser's ``PushSubscription.toJSON()`` may be, and the rules for
keeping them (at most ``MAX_PER_PLAYER`` per player, the oldest goes).

The endpoint decides where the notify function POSTs, so it is checked hard: ``https://`` on a known push
service only (FCM, Mozilla, Apple, Windows), at most 1 KB. Deployed, nothing else is accepted, so no one can
make the function POST to a host of their choosing. Local mode (``PUSH_LOCAL_MODE=1``, set by the local
runner) also accepts ``http://127.0.0.1:<port>/...``, where ``local/push_service.py`` listens.

The keys are checked as RFC 8291 needs them: ``p256dh`` an uncompressed P-256 point that is on the curve,
``auth`` 16 bytes, both base64url. A subscription that fails any check is refused before anything is written.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

Lang = Literal["sw", "tl", "en"]
Kind = Literal["your_move", "game_over", "reminder", "daily_puzzle"]
KINDS: tuple[Kind, ...] = ("your_move", "game_over", "reminder", "daily_puzzle")
DEFAULT_KINDS: tuple[Kind, ...] = ("your_move", "game_over", "reminder")
MAX_PER_PLAYER = 10
MAX_ENDPOINT_BYTES = 1024
AUTH_SECRET_BYTES = 16
P256_POINT_BYTES = 65  # 0x04, then x and y, 32 bytes each (uncompressed, as PushManager gives it)
LOCAL_MODE_VARIABLE = "PUSH_LOCAL_MODE"
#: The daily puzzle's notification comes at this hour in the subscription's time zone.
DAILY_HOUR = 8
HOUR_MS = 3_600_000

#: Push services' hosts: exact names, and parents whose subdomains are theirs.
PUSH_HOSTS = frozenset({"fcm.googleapis.com", "updates.push.services.mozilla.com"})
PUSH_HOST_PARENTS = (".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_LOCAL_ENDPOINT = re.compile(r"http://127\.0\.0\.1:[1-9][0-9]{0,4}/[!-~]*")


def local_mode() -> bool:
    return os.environ.get(LOCAL_MODE_VARIABLE) == "1"


def b64url_decode(text: str) -> bytes:
    """Strict base64url (the padding optional): ``ValueError`` for any other character."""
    if not _BASE64URL.fullmatch(text):
        raise ValueError("must be base64url (A-Z, a-z, 0-9, - and _)")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("must be base64url (A-Z, a-z, 0-9, - and _)") from None


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def check_endpoint(endpoint: str) -> str:
    """The endpoint if a push service's (or, in local mode, the local push service's); ``ValueError`` else."""
    if len(endpoint.encode("utf-8")) > MAX_ENDPOINT_BYTES:
        raise ValueError(f"the endpoint is longer than {MAX_ENDPOINT_BYTES} bytes")
    if any(not 33 <= ord(character) <= 126 for character in endpoint):
        raise ValueError("the endpoint must be a URL in printable ASCII, with no spaces")
    if local_mode() and _LOCAL_ENDPOINT.fullmatch(endpoint):
        return endpoint
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise ValueError("the endpoint is not a URL") from None
    if parts.scheme != "https":
        raise ValueError("the endpoint must be an https:// URL of a push service")
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None or port not in (None, 443) or not host:
        raise ValueError("the endpoint must be a plain https:// URL of a push service")
    if host in PUSH_HOSTS or host.endswith(PUSH_HOST_PARENTS):
        return endpoint
    raise ValueError(f"{host} is not a known push service (FCM, Mozilla, Apple or Windows)")


def check_time_zone(name: str) -> str:
    from common.web.timezones import is_allowed_zone  # the API's one list (no posix/, right/, localtime ...)

    if not is_allowed_zone(name):
        raise ValueError(f"{name!r} is not an IANA time zone such as Africa/Nairobi or Asia/Manila")
    return name


def next_daily_at(now_ms: int, tz: str, hour: int = DAILY_HOUR) -> int:
    """The first ``hour``:00 in ``tz`` after ``now_ms`` (epoch ms); daylight-saving changes included."""
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(tz)
    local = datetime.fromtimestamp(now_ms / 1000, tz=UTC).astimezone(zone)
    day = local.date()
    while True:
        candidate = datetime(day.year, day.month, day.day, hour, tzinfo=zone)
        at = int(candidate.astimezone(UTC).timestamp() * 1000)
        if at > now_ms:
            return at
        day += timedelta(days=1)


def check_p256_point(text: str) -> str:
    """The key if it is an uncompressed P-256 point on the curve; ``ValueError`` otherwise."""
    from cryptography.hazmat.primitives.asymmetric import ec

    raw = b64url_decode(text)
    if len(raw) != P256_POINT_BYTES or raw[0] != 4:
        raise ValueError("must be an uncompressed P-256 public key (65 bytes, base64url)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise ValueError("is not a point on the P-256 curve") from None
    return text


# ------------------------------------------------------------------------------------ the request body
@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    kinds: tuple[str, ...]
    created: int  # epoch ms
    expiration_time: int | None = None  # epoch ms
    tz: str = "UTC"  # where the daily puzzle's 08:00 is

    @property
    def endpoint_hash(self) -> str:
        return endpoint_hash(self.endpoint)

    def wants(self, kind: str) -> bool:
        return kind in self.kinds

    def info(self) -> dict[str, Any]:
        """What ``pywebpush`` takes: the browser's ``PushSubscription.toJSON()``."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def endpoint_hash(endpoint: str) -> str:
    """A fixed-size key for an endpoint (up to 1 KB): 128 bits of its SHA-256, hex."""
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()[:32]


def newest_first(subscriptions: Iterable[Subscription]) -> list[Subscription]:
    return sorted(subscriptions, key=lambda item: (item.created, item.endpoint_hash), reverse=True)
