"""What a route needs besides its request, declared with Powertools' ``Depends`` and built per request: the
clock, the repositories, and the services on them. Tests replace any of them on a resolver with
``app.dependency_overrides[depends.clock] = lambda: manual_clock`` (the sub-dependencies see the override
too); nothing here is a module-level setting.

The DynamoDB repositories are cheap to build (a table name; the boto3 client is created on first use and
kept by ``common.persistence.store``), so building them per request costs nothing worth caching.

No ``from __future__ import annotations`` here nor in a module whose routes use ``Depends``: Powertools reads
the dependencies' annotations on every request (``typing.get_type_hints``), and string annotations are
evaluated again each time (about 1 ms a request on the validate function; ``make bench``, serverless).
"""

import time
from collections.abc import Callable
from typing import Annotated

from aws_lambda_powertools.event_handler import Depends, Request

from common.players.repository import PlayerRepository, PlayerStore
from common.players.service import Players
from common.ratings.repository import CardRepository, CardStore
from common.web.ratelimit import BucketRepository, Client, RateLimiter, client_of, default_buckets

Clock = Callable[[], float]


def clock() -> Clock:
    """The time every function reads (seconds since the epoch): the system's."""
    return time.time


#: The time, as a route or a dependency declares it: ``now: Now``.
Now = Annotated[Clock, Depends(clock)]


def pace_clock(now: Now) -> Clock:
    """The time the rate limits and the live socket's tickets read: ``clock``'s, unless overridden too. The local
    runner's movable clock (local/clock.py) moves only ``clock``, the games' time: a test that lets a turn run
    out would otherwise leave every bucket it charged meanwhile (the address's, which all the browser tests
    share) looking empty for minutes once the clock is set back."""
    return now


#: The limits' time (``pace_clock``).
Pace = Annotated[Clock, Depends(pace_clock)]


def rate_buckets() -> BucketRepository:
    return default_buckets()


Buckets = Annotated[BucketRepository, Depends(rate_buckets)]


def asker(request: Request) -> Client:
    """Who sends this request, for the per-client limits: the address the edge trusts and the token's digest."""
    return client_of(request.resolved_event.raw_event)


Asker = Annotated[Client, Depends(asker)]


def rate_limiter(now: Pace, buckets: Buckets, client: Asker) -> RateLimiter:
    return RateLimiter(buckets, now, client)


#: A route's rate limiter: ``limiter: Limiter``, then ``limiter.charge(bucket)`` before it writes anything.
Limiter = Annotated[RateLimiter, Depends(rate_limiter)]


def player_repository() -> PlayerRepository:
    return PlayerStore()


#: The players' repository, as a route or a dependency declares it.
PlayerStorage = Annotated[PlayerRepository, Depends(player_repository)]


def players(repository: PlayerStorage) -> Players:
    return Players(repository)


def card_repository() -> CardRepository:
    """Where a player's public card and its copies are written (``common.ratings.repository``)."""
    return CardStore()
