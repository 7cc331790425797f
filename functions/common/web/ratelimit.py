"""Per-client limits on the expensive and the unauthenticated routes: a token bucket per player and
per source address, kept in DynamoDB (``RateLimitTable`` in template.yaml), answered with 429 and
``Retry-After`` when empty. docs/limits.md has the numbers and why.

* ``LIMITS`` names each bucket: its capacity (the burst) and how fast it refills. A request takes ``cost``
  tokens (1 for a new player; the moves of a long history for ``validate``; the level's time budget in
  seconds for the computer).
* ``RateLimiter.charge(name, cost)`` takes the tokens from the buckets of the current request's source address and, for
  the player limits, its player; ``RateLimited`` (a plain exception, mapped to 429 by ``common.web.api``) when a
  bucket lacks them. It runs before the route writes anything, so a refused request changes nothing.
* ``client_of(event)`` says who is asking (a route's limiter gets it through ``common.web.depends.asker``, from
  the request Powertools resolved; nothing is kept between requests): the viewer address CloudFront reports (``CloudFront-Viewer-Address``), trusted only where
  the origin secret is checked (``ORIGIN_VERIFY``); else, or when it is missing or malformed, API Gateway's
  ``sourceIp``; else one shared bucket (never no limit). An IPv6 address counts by its /64 (what one
  subscriber gets). And the SHA-256 of the bearer token's hash (the token's hash is the players table's
  key; it is not stored here).
* Buckets live behind ``BucketRepository`` (``common.ratelimit.repository``): ``DynamoBuckets`` (one single-item conditional ``UpdateItem``
  per bucket when it has tokens, see ``DynamoBuckets.take``) wherever ``RATE_LIMIT_TABLE`` is set (Lambda,
  ``make run``, the moto and dynalite tests), else ``MemoryBuckets`` (this process only). A route gets its
  ``RateLimiter`` (buckets and clock) from ``common.web.depends.rate_limiter`` with Powertools' ``Depends``, so
  tests replace either through the resolver's ``dependency_overrides``.
* When the store cannot answer, the request goes through (logged): a limit must not turn a DynamoDB hiccup
  into an outage; API Gateway's throttling and the WAF still bound the volume.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from common.errors import DomainError
from common.persistence import store
from common.ratelimit.domain import Limit
from common.ratelimit.repository import BucketRepository, DynamoBuckets, MemoryBuckets, default_buckets

__all__ = [
    "BucketRepository",
    "DynamoBuckets",
    "Limit",
    "MemoryBuckets",
    "default_buckets",
]  # their home: common.ratelimit

#: Above this many moves a validate request is charged (one token a move); shorter ones cost little CPU
#: (under 40 ms) and make no DynamoDB call at all.
VALIDATE_FREE_MOVES = 100
#: The bucket of requests whose address cannot be read (they share it rather than go unlimited).
UNKNOWN_ADDRESS = "unknown"
#: Set wherever CloudFront adds the origin secret (``common.web.edge``): only then is its viewer header trusted.
ORIGIN_SECRET_VARIABLE = "ORIGIN_VERIFY"


class RateLimited(DomainError, code="rate_limited"):
    """A bucket of this client is empty: try again after ``retry_after`` seconds (a whole number, 1 or more)."""

    def __init__(self, limit: str, retry_after: float):
        self.limit = limit
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"too many {DESCRIPTIONS.get(limit, limit)}; try again in {self.retry_after} s")


LIMITS: dict[str, Limit] = {
    # 30 at once, then one every 10 seconds, per address: a class on one school's address gets its players,
    # a script no longer makes 200 in 2 seconds.
    "players": Limit("players", capacity=30, per_second=0.1, per_player=False),
    # In moves of history: 5 requests of 1,000 moves at once, then 50 moves a second (about 20 ms of CPU a
    # second) per address.
    "validate": Limit("validate", capacity=5_000, per_second=50, per_player=False),
    # In seconds of the computer's time budget (docs/engine.md): 30 level-5 moves at once, then one every
    # 5 seconds per player; an address (many players behind one NAT) 120 at once, then one a second.
    "computer": Limit(
        "computer", capacity=30, per_second=0.2, per_player=True, address_capacity=120, address_per_second=1.0
    ),
    # Writes people make a few times a day, each bounded per player and per address (a phone shop's NAT):
    # a burst well above any honest use, then a slow refill. The numbers and why: docs/limits.md.
    "games": Limit(
        "games", capacity=30, per_second=1 / 30, per_player=True, address_capacity=120, address_per_second=0.5
    ),
    "rematch": Limit(
        "rematch", capacity=10, per_second=1 / 60, per_player=True, address_capacity=60, address_per_second=0.2
    ),
    "push": Limit("push", capacity=20, per_second=1 / 60, per_player=True, address_capacity=60, address_per_second=0.2),
    "renames": Limit(
        "renames", capacity=10, per_second=1 / 60, per_player=True, address_capacity=60, address_per_second=0.2
    ),
    "blocks": Limit(
        "blocks", capacity=20, per_second=1 / 30, per_player=True, address_capacity=100, address_per_second=0.5
    ),
    # Puzzle attempts: a rated player's per player (a fast solver makes one every few seconds), an anonymous
    # one's per address only, tighter (no player to hold to account).
    "puzzles": Limit(
        "puzzles", capacity=120, per_second=1.0, per_player=True, address_capacity=600, address_per_second=5.0
    ),
    "anonymous_puzzles": Limit("anonymous_puzzles", capacity=60, per_second=0.5, per_player=False),
    # An export reads the whole log (a 1,000-move game is about 9 GETs); a cached one costs about a GET.
    "exports": Limit("exports", capacity=30, per_second=0.2, per_player=False),
    # Challenges made or accepted in the lobby (each a write others see): 10 at once, then one a minute per
    # player; an address (a school's players behind one NAT) 60 at once, then one every 10 seconds.
    "seeks": Limit(
        "seeks", capacity=10, per_second=1 / 60, per_player=True, address_capacity=60, address_per_second=0.1
    ),
    # Tournaments made (issue 40): each makes up to 56 games when it fills; 5 at once, then one every 10
    # minutes per player; an address 30 at once, then one a minute.
    "tournaments": Limit(
        "tournaments", capacity=5, per_second=1 / 600, per_player=True, address_capacity=30, address_per_second=1 / 60
    ),
    # Reviews asked for (each up to a minute of the review function's engine; fair play, issue 39): 20 a day per
    # player, 200 a day per address (a school's players behind one NAT).
    "reviews": Limit(
        "reviews",
        capacity=20,
        per_second=20 / 86_400,
        per_player=True,
        address_capacity=200,
        address_per_second=200 / 86_400,
    ),
    # Tickets for the live WebSocket (functions/live): a page asks one per (re)connection; a flaky phone link
    # reconnects often, so 30 at once, then one every 5 s per player; an address 120, then one a second.
    "live_tickets": Limit(
        "live_tickets", capacity=30, per_second=0.2, per_player=True, address_capacity=120, address_per_second=1.0
    ),
    # Follows and unfollows (functions/community): 30 at once, then one every 10 s per player; an address 120.
    "follows": Limit(
        "follows", capacity=30, per_second=0.1, per_player=True, address_capacity=120, address_per_second=0.5
    ),
    # Feedback (functions/community): 5 at once, then one every 10 minutes, per player and per address.
    "feedback": Limit(
        "feedback", capacity=5, per_second=1 / 600, per_player=True, address_capacity=20, address_per_second=1 / 120
    ),
    # Direct challenges sent and answered (functions/community/challenges): 10 at once, then one a minute a
    # player; an address 40.
    "challenges": Limit(
        "challenges", capacity=10, per_second=1 / 60, per_player=True, address_capacity=40, address_per_second=0.1
    ),
    # Reactions in a game (functions/games/handler/reactions.py): 5 at once, then one every 10 s a player; an
    # address 30, then one every 2 s.
    "reactions": Limit(
        "reactions", capacity=5, per_second=0.1, per_player=True, address_capacity=30, address_per_second=0.5
    ),
    # Download my data (functions/community): a few reads of every table; 5 at once, then one a minute.
    "data_exports": Limit("data_exports", capacity=5, per_second=1 / 60, per_player=True, address_capacity=20),
    # Clubs (functions/clubs): made, joined (a wrong code too), left, a member removed, a code renewed: 20 at once,
    # then one every 30 s per player; an address 60. Guessing a club's code (31^6 of them) is hopeless at that rate.
    "clubs": Limit(
        "clubs", capacity=20, per_second=1 / 30, per_player=True, address_capacity=60, address_per_second=0.2
    ),
}
#: The routes that charge a limit (the OpenAPI file documents their 429: ``local/openapi.py``).
LIMITED_ROUTES: dict[tuple[str, str], str] = {
    ("post", "/v1/players"): "players",
    ("post", "/v1/validate"): "validate",
    ("post", "/v1/games"): "computer",
    ("post", "/v1/games/{id}/moves"): "computer",
    ("post", "/v1/games/{id}/resume"): "computer",
    ("post", "/v1/games/{id}/rematch"): "rematch",
    ("post", "/v1/players/me/blocks"): "blocks",
    ("delete", "/v1/players/me/blocks/{id}"): "blocks",
    ("patch", "/v1/players/me"): "renames",
    ("post", "/v1/players/me/push-subscriptions"): "push",
    ("post", "/v1/puzzles/{id}/attempt"): "puzzles",
    ("get", "/v1/games/{id}/export"): "exports",
    ("post", "/v1/seeks"): "seeks",
    ("post", "/v1/seeks/{id}/accept"): "seeks",
    ("post", "/v1/tournaments"): "tournaments",
    ("post", "/v1/games/{id}/review"): "reviews",
    ("post", "/v1/live/tickets"): "live_tickets",
    ("post", "/v1/players/me/follows"): "follows",
    ("delete", "/v1/players/me/follows"): "follows",
    ("post", "/v1/feedback"): "feedback",
    ("get", "/v1/players/me/export"): "data_exports",
    ("post", "/v1/clubs"): "clubs",
    ("post", "/v1/clubs/{id}/join"): "clubs",
    ("post", "/v1/clubs/{id}/leave"): "clubs",
    ("post", "/v1/clubs/{id}/code"): "clubs",
    ("delete", "/v1/clubs/{id}/members/{member}"): "clubs",
    ("post", "/v1/players/me/challenges"): "challenges",
    ("post", "/v1/players/me/challenges/{id}"): "challenges",
    ("post", "/v1/games/{id}/reactions"): "reactions",
}
DESCRIPTIONS = {
    "players": "new players from your network",
    "validate": "long histories checked from your network",
    "computer": "computer moves",
    "games": "new games",
    "rematch": "rematch offers",
    "push": "push subscriptions",
    "renames": "renames",
    "blocks": "block changes",
    "puzzles": "puzzle attempts",
    "anonymous_puzzles": "puzzle attempts from your network",
    "exports": "downloads from your network",
    "anonymous_puzzle": "attempts at this puzzle from your network without a player",
    "seeks": "challenges made or accepted",
    "tournaments": "tournaments made",
    "reviews": "game reviews asked for",
    "live_tickets": "live connections",
    "follows": "follows changed",
    "feedback": "feedback sent",
    "data_exports": "downloads of your data",
    "clubs": "club changes",
    "challenges": "challenges sent or answered",
    "reactions": "reactions sent",
}


# ------------------------------------------------------------------------------------------ limiter
@dataclass(frozen=True)
class Client:
    address: str | None
    player: str | None  # a digest of the bearer token's hash, or None without a token


NOBODY = Client(None, None)


def client_of(event: dict[str, Any]) -> Client:
    """Who sends this event, as the limits count them (its address, and its token's digest)."""
    headers = {str(name).lower(): value for name, value in (event.get("headers") or {}).items()}
    return Client(_address(event, headers), _player(headers))


class RateLimiter:
    """The limits of one request's client (``client``: ``common.web.depends.asker`` reads it from the request),
    over ``buckets`` and ``clock``. ``NOBODY`` (no address, no token) is charged nothing."""

    def __init__(self, buckets: BucketRepository, clock: Callable[[], float] = time.time, client: Client = NOBODY):
        self.buckets = buckets
        self.clock = clock
        self.client = client

    def charge(self, name: str, cost: float = 1.0, scope: str = "", limit: Limit | None = None) -> None:
        """Take ``cost`` tokens of limit ``name`` (or of ``limit``, a bucket sized for the request) for the
        current request's address (and player), in buckets of their own per ``scope`` when given (one
        puzzle, say); ``RateLimited`` when a bucket lacks them. Store failures let the request through (logged)."""
        cost /= _scale()
        if cost <= 0:
            return
        limit = limit or LIMITS[name]
        client = self.client
        prefix = f"{name}#{scope}" if scope else name
        buckets = []
        if limit.per_player and client.player:
            buckets.append((f"{prefix}#player#{client.player}", limit))
        if client.address:
            buckets.append((f"{prefix}#addr#{client.address}", limit.for_address()))
        now = self.clock()
        for key, bucket in buckets:
            try:
                wait = self.buckets.take(key, cost, bucket, now)
            except store.StoreUnavailable:
                _logger().warning("rate limit not checked: the store is unavailable", extra={"limit": name})
                return
            if wait > 0:
                _logger().info("rate limited", extra={"limit": name, "retry_after": math.ceil(wait)})
                raise RateLimited(name, wait)

    def charge_validate(self, moves: int) -> None:
        """A validate request with ``moves`` moves of history: charged one token a move past the free ones."""
        if moves > VALIDATE_FREE_MOVES:
            self.charge("validate", moves)

    def charge_computer(self, game: str, seats: Iterable[Any]) -> None:
        """A request that may make the computer move in a game of ``game`` whose seats are ``seats`` (each with a
        ``cpu`` level or None): charged the time budget of the strongest level, before anything is written."""
        levels = [seat.cpu for seat in seats if seat is not None and seat.cpu]
        if not levels:
            return
        from shared_rules.search.levels import level_settings

        self.charge("computer", max(level_settings(game, level).seconds for level in levels))


def _scale() -> float:
    """``RATE_LIMIT_SCALE`` (default 1): every limit this many times larger. Only the local test servers set
    it (``make contract``, the browser tests), so many requests from one address test the routes and pages
    rather than the limits."""
    try:
        return max(1.0, float(os.environ.get("RATE_LIMIT_SCALE") or 1))
    except ValueError:
        return 1.0


def _address(event: dict[str, Any], headers: dict[str, str]) -> str:
    """The client's address: CloudFront's viewer address when the origin check really ran (``ORIGIN_VERIFY``
    set: only CloudFront knows the secret, and it overwrites a viewer's copy of the header), else the
    connection's source address. A missing or malformed value falls back to the next source, and at the end
    to one shared bucket: a request the limiter cannot place is limited with the others, never let through."""
    viewer = headers.get("cloudfront-viewer-address") if os.environ.get(ORIGIN_SECRET_VARIABLE) else None
    source = ((event.get("requestContext") or {}).get("http") or {}).get("sourceIp")
    for text in (viewer.rsplit(":", 1)[0] if viewer and ":" in viewer else None, source):
        address = _parsed_address(text)
        if address is not None:
            return address
    return UNKNOWN_ADDRESS


def _parsed_address(text: Any) -> str | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        address = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address) + "/64"
    return str(address)


def _player(headers: dict[str, str]) -> str | None:
    value = headers.get("authorization") or ""
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return player_digest(hashlib.sha256(token.strip().encode("utf-8")).hexdigest())


def player_digest(token_hash: str) -> str:
    """What a player's buckets are keyed by: a digest of their token's hash."""
    return hashlib.sha256(("ratelimit:" + token_hash).encode("ascii")).hexdigest()[:24]


def player_buckets(token_hash: str) -> list[str]:
    """The keys of every bucket a player can have ("Delete my data" deletes them)."""
    digest = player_digest(token_hash)
    return [f"{name}#player#{digest}" for name, limit in LIMITS.items() if limit.per_player]


def _logger() -> Any:
    from aws_lambda_powertools import Logger

    return Logger(child=True)
