"""ReviewFunction: the reviews asked for, one SQS message each (``{"game_id": ...}``), run off the request path.

A message whose review fails is reported alone (``batchItemFailures``) and comes back after the queue's
visibility timeout; after ``maxReceiveCount`` tries it goes to the dead-letter queue (template.yaml). A review
already done is not done again (``Reviewer.run``), so a message delivered twice costs one read.

Each player is told by Web Push, in each subscription's language, that the review is ready
(``notify.texts``' ``review_ready``, kind ``game_over``: the same switch as "game over").
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger
from games.domain import GameHead, other
from games.repository import dynamodb_games
from notify import stream
from notify.decide import Notice

from review.jobs import Reviewer
from review.repository import DynamoReviews
from shared_rules.names import Colour

logger = Logger()
_state: dict[str, Reviewer] = {}


def tell_ready(player_id: str, head: GameHead) -> None:
    """A push "your game review is ready" to one player (a push that fails is logged, never retried)."""
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
        stream.notifier().deliver(notice)
    except Exception:  # the review is stored: a push that cannot go must not send the message round again
        logger.exception("review push not sent", extra={"game_id": head.id})


def reviewer() -> Reviewer:
    if "reviewer" not in _state:
        _state["reviewer"] = Reviewer(dynamodb_games(), DynamoReviews(), on_ready=tell_ready)
    return _state["reviewer"]


@logger.inject_lambda_context
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    failures = []
    for record in event.get("Records", []):
        try:
            game_id = str(json.loads(record["body"])["game_id"])
            done = reviewer().run(game_id)
            logger.info("review", extra={"game_id": game_id, "stored": done})
        except Exception:
            logger.exception("review failed", extra={"message_id": record.get("messageId")})
            failures.append({"itemIdentifier": record.get("messageId")})
    return {"batchItemFailures": failures}
