"""What the games routes need, as Powertools dependencies (``Depends``): the repository, the heads an instance
keeps, and the ``GamesService`` on them. Tests replace any through the resolver's ``dependency_overrides``.

No ``from __future__ import annotations`` (``common.web.depends`` says why).
"""

import os
from typing import Annotated

from aws_lambda_powertools.event_handler.depends import Depends
from common.reviews.queue import ReviewQueue, queue_from_environment
from common.reviews.repository import DynamoReviews, ReviewRepository
from common.web.depends import Asker, Buckets, Now, Pace, PlayerStorage
from common.web.ratelimit import RateLimiter

from games.handler import ratings as rating_routes
from games.ratings.service import GameRatings
from games.repository import GameRepository, dynamodb_games
from games.service import GamesService
from games.service.protocol import RecentHeads
from games.service.reviews import ReviewRequests
from games.views.export import ExportCache


def game_repository() -> GameRepository:
    return dynamodb_games()


def recent_heads() -> RecentHeads:
    """The heads this instance keeps (``RecentHeads``): ``create_app()`` gives each resolver its own; a resolver
    made without it keeps none (each request starts empty, and reads the head)."""
    return RecentHeads()


def export_cache() -> ExportCache:
    """This instance's last exports (``ExportCache``): ``create_app()`` gives each resolver its own."""
    return ExportCache()


def games_service(
    repository: Annotated[GameRepository, Depends(game_repository)],
    now: Now,
    pace: Pace,
    buckets: Buckets,
    recent: Annotated[RecentHeads, Depends(recent_heads)],
    players: PlayerStorage,
    ratings: Annotated[GameRatings, Depends(rating_routes.game_ratings)],
    client: Asker,
) -> GamesService:
    # The limiter is built here rather than declared (``common.web.depends.rate_limiter``): Powertools resolves
    # the dependency tree again on every request, and each node costs a ``get_type_hints``.
    limiter = RateLimiter(buckets, pace, client)
    site_url = os.environ.get("SITE_URL", "")
    return GamesService(
        repository, clock=now, site_url=site_url, limiter=limiter, recent=recent, players=players, ratings=ratings
    )


Games = Annotated[GamesService, Depends(games_service)]


def review_repository() -> ReviewRepository:
    return DynamoReviews()


def review_queue() -> ReviewQueue:
    return queue_from_environment()


def review_requests(
    games: Annotated[GameRepository, Depends(game_repository)],
    reviews: Annotated[ReviewRepository, Depends(review_repository)],
    queue: Annotated[ReviewQueue, Depends(review_queue)],
    now: Now,
    pace: Pace,
    buckets: Buckets,
    client: Asker,
) -> ReviewRequests:
    # The limiter built by hand, as in ``games_service``: one dependency node fewer on every request.
    return ReviewRequests(games, reviews, queue, now, RateLimiter(buckets, pace, client))


Reviews = Annotated[ReviewRequests, Depends(review_requests)]
