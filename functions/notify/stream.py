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
import os
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from common.persistence.attributes import from_item
from common.web import metrics
from push.repository import SubscriptionRepository
from review.queue import ReviewQueue, queue_from_environment
from review.repository import DynamoReviews, ReviewRepository

from notify.decide import notices
from notify.games import GameReader, GameStates
from notify.gate import PushGate
from notify.notifier import Notifier
from notify.reviews import ask_for_review
from notify.sender import Sender, WebPushSender

logger = Logger()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
DEFAULT_SUBJECT = "mailto:push@ubao.invalid"

_state: dict[str, Any] = {}


def configure(
    games: GameReader | None = None,
    subscriptions: SubscriptionRepository | None = None,
    sender: Sender | None = None,
    clock: Callable[[], float] | None = None,
    gate: PushGate | None = None,
    reviews: ReviewRepository | None = None,
    review_queue: ReviewQueue | None = None,
) -> None:
    """Forget what was built (it is built again from the environment on use); tests pass their own parts."""
    _state.clear()
    _state.update(
        {
            name: part
            for name, part in (
                ("games", games),
                ("subscriptions", subscriptions),
                ("sender", sender),
                ("clock", clock),
                ("gate", gate),
                ("reviews", reviews),
                ("review_queue", review_queue),
            )
            if part is not None
        }
    )


def part(name: str) -> Any:
    """One part of the function (games, subscriptions, sender, clock), built from the environment on first use."""
    if name not in _state:
        _state[name] = _BUILDERS[name]()
    return _state[name]


def default_sender() -> Sender:
    from push.vapid import vapid_key

    return WebPushSender(vapid_key().signer(), os.environ.get("VAPID_SUBJECT") or DEFAULT_SUBJECT)


def _subscriptions() -> SubscriptionRepository:
    from push.repository import DynamoSubscriptions

    return DynamoSubscriptions()


def _gate() -> PushGate:
    from common.players.repository import PlayerStore
    from common.web.ratelimit import default_buckets

    return PushGate(PlayerStore(), default_buckets(), part("clock"))


def _reviews() -> ReviewRepository:
    return DynamoReviews()


_BUILDERS: dict[str, Callable[[], Any]] = {
    "reviews": _reviews,
    "review_queue": queue_from_environment,
    "games": GameStates,
    "gate": _gate,
    "subscriptions": _subscriptions,
    "sender": default_sender,
    "clock": lambda: time.time,
}


def notifier() -> Notifier:
    return Notifier(part("subscriptions"), part("sender"), part("clock"))


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


def handle_record(record: DynamoDBRecord) -> None:
    found = game_event(record)
    if found is None:
        return
    from games.repository import read_event

    game_id, item = found
    event = read_event(item)
    state = part("games").state_after(game_id, event)
    if state is None:
        logger.warning("event of an unknown game", extra={"game_id": game_id, "seq": event.seq})
        return
    deliver, gate = notifier().deliver, part("gate")
    for notice in notices(event, state):
        admitted = gate.admit(notice)  # blocks, and the cap per sender
        if admitted is not None:
            deliver(admitted)
    # A rated game's end: its review, made by itself (notify/reviews.py).
    ask_for_review(event, state, part("reviews"), part("review_queue"), int(part("clock")() * 1000))


@logger.inject_lambda_context
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    try:
        return dict(
            process_partial_response(event=event, record_handler=handle_record, processor=processor, context=context)
        )
    finally:
        metrics.flush()  # the batch's PushSent and PushFailed, one line
