"""Where an asked-for review goes to be run: the ``ReviewQueue`` protocol and its two implementations.

* ``SqsReviewQueue``: on AWS, one message ``{"game_id": ...}`` to the review queue (``REVIEW_QUEUE_URL``),
  which feeds ReviewFunction (template.yaml).
* ``TableFeed``: the local runner (``make run``) has no SQS; its own feed (``local/reviews.py``) finds the
  pending reviews in the reviews table itself, so sending is nothing. It is chosen when ``REVIEW_QUEUE_URL``
  is not an SQS address (the runner resolves ``!Ref ReviewQueue`` to the queue's logical id).
"""

from __future__ import annotations

import os
from typing import Protocol

from common.persistence import queue


class ReviewQueue(Protocol):
    def send(self, game_id: str) -> None:
        """Have the game reviewed; ``StoreUnavailable`` when the queue cannot take it now."""
        ...


class SqsReviewQueue:
    def __init__(self, url: str):
        self.url = url

    def send(self, game_id: str) -> None:
        queue.send(self.url, {"game_id": game_id})


class TableFeed:
    """Nothing to send: a feed reads the pending reviews from the table (the local runner's)."""

    def send(self, game_id: str) -> None:
        return None


def queue_from_environment() -> ReviewQueue:
    url = os.environ.get("REVIEW_QUEUE_URL") or ""
    return SqsReviewQueue(url) if url.startswith("https://") else TableFeed()
