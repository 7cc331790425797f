"""ReviewFunction: the reviews asked for, one SQS message each (``{"game_id": ...}``), run off the request path.

A message whose review fails is reported alone (``batchItemFailures``) and comes back after the queue's
visibility timeout; after ``maxReceiveCount`` tries it goes to the dead-letter queue (template.yaml). A review
already done is not done again (``Reviewer.run``), so a message delivered twice costs one read.

Each player is told by Web Push, in each subscription's language, that the review is ready
(``notify.domain.texts``' ``review_ready``, kind ``game_over``: the same switch as "game over").
``create_handler`` builds the parts (the games table, the reviews, the pushes) once per instance, on the first
message; a test gives its own ``Reviewer``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from common.reviews.repository import DynamoReviews
from games.domain import GameHead, other
from games.repository import dynamodb_games
from notify.domain.decide import Notice
from notify.handler import Pushes, pushes_from_environment

from review.service import Reviewer
from shared_rules.names import Colour

logger = Logger()


class ReadyPush:
    """A push "your game review is ready" to one player (a push that fails is logged, never retried)."""

    def __init__(self, pushes: Callable[[], Pushes]):
        self.pushes = pushes

    def __call__(self, player_id: str, head: GameHead) -> None:
        mine: Colour = "white" if head.white is not None and head.white.player_id == player_id else "black"
        opponent = head.seat(other(mine))
        notice = Notice(
            player_id=player_id,
            kind="game_over",
            message="review_ready",
            game_id=head.id,
            game=head.game,
            opponent=opponent.name if opponent else None,
            opponent_is_computer=bool(opponent and opponent.is_computer),
        )
        try:
            self.pushes().notifier().deliver(notice)
        except Exception:  # the review is stored: a push that cannot go must not send the message round again
            logger.exception("review push not sent", extra={"game_id": head.id})


def reviewer_from_environment() -> Reviewer:
    """The reviewer of the deployed function: the games and reviews tables, and Web Push once a review is ready."""
    return Reviewer(dynamodb_games(), DynamoReviews(), on_ready=ReadyPush(cache(pushes_from_environment)))


class ReviewFunction:
    """ReviewFunction's handler: each message's review, each failure reported alone."""

    def __init__(self, build: Callable[[], Reviewer]):
        self._reviewer = cache(build)
        self._handle = logger.inject_lambda_context(self._reviews)

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        return dict(self._handle(event, context))

    def _reviews(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        failures = []
        for record in event.get("Records", []):
            try:
                game_id = str(json.loads(record["body"])["game_id"])
                done = self._reviewer().run(game_id)
                logger.info("review", extra={"game_id": game_id, "stored": done})
            except Exception:
                logger.exception("review failed", extra={"message_id": record.get("messageId")})
                failures.append({"itemIdentifier": record.get("messageId")})
        return {"batchItemFailures": failures}


def create_handler(reviewer: Reviewer | None = None) -> ReviewFunction:
    """The handler on ``reviewer``, or on the deployed function's own (built on the first message)."""
    return ReviewFunction((lambda: reviewer) if reviewer is not None else reviewer_from_environment)


lambda_handler = create_handler()
