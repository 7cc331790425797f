"""NotifyFunction: game events from the games table's stream to Web Push (template.yaml, docs/notifications.md).

Each stream record is one new item; the function acts on event items (``sk`` ``E...``; head writes are
filtered out by the event source mapping, and ignored here too). A record whose handling fails (DynamoDB
unavailable) is reported in ``batchItemFailures`` by Powertools' ``BatchProcessor`` so the stream retries it
alone; the records after it in the batch are still handled. Delivery is at least once: a retried record may
send a push twice, which the ``tag`` makes one notification on the phone.

Under ``make run`` the local runner feeds the same handler records shaped like AWS's (``NewImage`` in
DynamoDB JSON); the tests do the same.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from common.persistence.attributes import from_item
from common.reviews.queue import ReviewQueue, queue_from_environment
from common.reviews.repository import DynamoReviews, ReviewRepository
from common.web import metrics
from push.repository import SubscriptionRepository

from notify.domain.decide import notices
from notify.handler import Clock, Pushes, pushes_from_environment
from notify.repository.games import GameReader, GameStates
from notify.repository.sender import Sender
from notify.service.gate import PushGate
from notify.service.reviews import ask_for_review

logger = Logger()


@dataclass(frozen=True)
class StreamParts:
    """What NotifyFunction works with: where pushes go, how it reads a game, the gate, and the reviews."""

    pushes: Pushes
    games: GameReader
    gate: PushGate
    reviews: ReviewRepository
    review_queue: ReviewQueue


def parts_from_environment(
    clock: Clock = time.time,
    sender: Sender | None = None,
    subscriptions: SubscriptionRepository | None = None,
    games: GameReader | None = None,
    gate: PushGate | None = None,
    reviews: ReviewRepository | None = None,
    review_queue: ReviewQueue | None = None,
) -> StreamParts:
    """The parts of the deployed function (DynamoDB, SQS, Web Push), with any a caller (a test) gives instead."""
    if gate is None:
        from common.players.repository import PlayerStore
        from common.web.ratelimit import default_buckets

        gate = PushGate(PlayerStore(), default_buckets(), clock)
    return StreamParts(
        pushes=pushes_from_environment(clock, sender, subscriptions),
        games=games or GameStates(),
        gate=gate,
        reviews=reviews or DynamoReviews(),
        review_queue=review_queue or queue_from_environment(),
    )


def game_event(record: DynamoDBRecord) -> tuple[str, dict[str, Any]] | None:
    """(game id, event record) of a stream record that inserted an event item; None for any other record."""
    if record.event_name is None or record.event_name.name != "INSERT" or record.dynamodb is None:
        return None
    image = record.dynamodb.raw_event.get("NewImage") or {}
    sort_key = image.get("sk", {}).get("S", "")
    if not (sort_key.startswith("E") and sort_key[1:].isdigit() and image.get("pk")):
        return None
    event = from_item({name: _binary_decoded(value) for name, value in image.items() if name not in ("pk", "sk")})
    event["seq"] = int(sort_key[1:])
    return str(image["pk"]["S"]), event


def _binary_decoded(attribute: dict[str, Any]) -> dict[str, Any]:
    """An attribute of a stream record's JSON as the table holds it: binary values come as base64 text."""
    ((kind, value),) = attribute.items()
    if kind == "B":
        return {"B": base64.b64decode(value)}
    if kind == "BS":
        return {"BS": [base64.b64decode(item) for item in value]}
    if kind == "M":
        return {"M": {name: _binary_decoded(item) for name, item in value.items()}}
    if kind == "L":
        return {"L": [_binary_decoded(item) for item in value]}
    return attribute


class StreamFunction:
    """NotifyFunction's handler: each stream record of a new event to its notices, pushed through the gate.

    Its parts are built on the first batch (``build``), once per instance; a test builds it with its own."""

    def __init__(self, build: Callable[[], StreamParts]):
        self._parts = cache(build)
        self._processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
        self._handle = logger.inject_lambda_context(self._handle_batch)

    @property
    def parts(self) -> StreamParts:
        return self._parts()

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        return dict(self._handle(event, context))

    def _handle_batch(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        try:
            return dict(
                process_partial_response(
                    event=event, record_handler=self.handle_record, processor=self._processor, context=context
                )
            )
        finally:
            metrics.flush()  # the batch's PushSent and PushFailed, one line

    def handle_record(self, record: DynamoDBRecord) -> None:
        found = game_event(record)
        if found is None:
            return
        from games.repository import read_event

        parts = self.parts
        game_id, item = found
        event = read_event(item)
        state = parts.games.state_after(game_id, event)
        if state is None:
            logger.warning("event of an unknown game", extra={"game_id": game_id, "seq": event.seq})
            return
        deliver = parts.pushes.notifier().deliver
        for notice in notices(event, state):
            admitted = parts.gate.admit(notice)  # blocks, and the cap per sender
            if admitted is not None:
                deliver(admitted)
        # A rated game's end: its review, made by itself (notify/service/reviews.py).
        now_ms = int(parts.pushes.clock() * 1000)
        ask_for_review(event, state, parts.reviews, parts.review_queue, now_ms)


def create_handler(**given: Any) -> StreamFunction:
    """The handler on the parts of ``parts_from_environment(**given)``, built on its first batch."""
    return StreamFunction(lambda: parts_from_environment(**given))


lambda_handler = create_handler()
