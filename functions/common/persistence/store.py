"""The DynamoDB client every repository shares: every DynamoDB call of ubao goes through ``call`` (or ``read``),
within the request's deadline, and nothing else imports boto3. The repositories (``games.repository``,
``common.players.repository``, ``puzzles_api.repository``, ``push.repository``) build the requests.

The same code runs on AWS, on moto (the tests) and on dynalite (``make run``), because it uses only what
all three share: single-item conditional writes, ``GetItem`` and ``Query`` (no transactions, no
``ReturnValuesOnConditionCheckFailure``, which dynalite ignores).

* ``DYNAMODB_ENDPOINT`` points the client at another DynamoDB (dynalite, DynamoDB Local); unset, the
  client talks to AWS in ``AWS_REGION``. Table names come from ``GAMES_TABLE`` and ``PLAYERS_TABLE``
  (``template.yaml`` sets them with ``!Ref``).
* The client is created on first use, not at import: a cold start that never touches the store does not
  pay for boto3, and tests create it inside moto's mock.
* Throttling, a DynamoDB 5xx or a network failure raise ``StoreUnavailable``: the API answers 503 with
  ``Retry-After``. Every call's total time (connect, read, retries) fits in what the request has left
  (``common.persistence.deadline``), so the 503 comes before the Lambda timeout. A conditional write that loses its condition is not an error: the methods return
  ``False`` and the caller decides (see docs/games.md for the protocol).

Items are plain dicts of ``str``, ``int``, ``bool``, ``bytes``, ``None`` (omitted), ``list`` and ``dict``;
this module converts them to and from DynamoDB's typed attributes.

The games table (``GamesTable``) holds one partition per game: the head item (``sk = "H"``, the game's
current state, a cache of the event log; the fields DynamoDB does not read are one JSON attribute, ``doc``)
and one item per event (``sk = "E000001"`` ...). The players
table and the puzzle progress table have their repositories beside their services
(``common.players.repository``, ``puzzles_api.repository``), on this module's ``call`` and ``read``.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any

from common.persistence.attributes import from_attribute, from_item, item_size, to_attribute, to_item
from common.persistence.deadline import BUDGETS, RETRY_AFTER_SECONDS, CallBudget, StoreUnavailable, call_budget

__all__ = [
    "RETRY_AFTER_SECONDS",
    "StoreUnavailable",
    "GameStore",
    "from_attribute",
    "from_item",
    "item_size",
    "to_attribute",
    "to_item",
]

HEAD_KEY = "H"
EVENT_PREFIX = "E"
EVENT_DIGITS = 6  # "E000001": 999,999 events, far beyond any game (chess ends by rule before 12,000 plies)
#: Sort keys of events sort before the head ("E..." < "H"), so one Query returns the log then the head.
_AFTER_EVENTS = "F"

#: DynamoDB error codes that mean "try again later", not "your request is wrong".
_UNAVAILABLE_CODES = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "InternalFailure",
        "ServiceUnavailable",
        "ResourceNotFoundException",  # a table missing while a deployment settles (logged)
    }
)

#: The head's fields that stay attributes of their own: its key, the keys of the players' and the
#: reminders' indexes, and what its conditional write reads (``seq``, and ``fen``, whose absence marks a
#: format this version cannot read); any ``bytes`` value too. Every other field travels in one JSON string,
#: ``doc``: converting a dozen attributes rather than some thirty, nested maps and lists among them, is
#: about a tenth of a move request's CPU (issue 17, ``make bench length``).
HEAD_ATTRIBUTES = frozenset(
    {"pk", "sk", "seq", "fen", "white_id", "white_order", "black_id", "black_order", "reminder_due", "reminder_hour"}
)
HEAD_DOCUMENT = "doc"

GAMES_BY_WHITE = "GamesByWhitePlayer"
GAMES_BY_BLACK = "GamesByBlackPlayer"


# ------------------------------------------------------------------------------------------- the client
_clients: dict[tuple[str | None, str, CallBudget], Any] = {}
_clients_lock = threading.Lock()


def client(budget: CallBudget = BUDGETS[0]) -> Any:
    """The DynamoDB client for the current ``DYNAMODB_ENDPOINT``, region and call budget, created on first use
    (one per budget: a request near its deadline gets a client that gives up sooner)."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT") or None
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    key = (endpoint, region, budget)
    found = _clients.get(key)
    if found is not None:
        return found
    with _clients_lock:  # boto3's default session is not thread-safe while it builds a client
        if key not in _clients:
            _clients[key] = _new_client(endpoint, region, budget)
        return _clients[key]


def _new_client(endpoint: str | None, region: str, budget: CallBudget) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=budget.connect_seconds,
        read_timeout=budget.read_seconds,
        retries={"total_max_attempts": budget.attempts, "mode": "standard"},
        tcp_keepalive=True,
        # This module builds every request from typed items (``common.persistence.attributes``), and DynamoDB checks them
        # again: botocore's own check of each parameter was a third of a move request's CPU (issue 17).
        parameter_validation=False,
    )
    options: dict[str, Any] = {"region_name": region, "config": config}
    if endpoint:
        options["endpoint_url"] = endpoint
        # A local DynamoDB accepts any credentials; do not make a developer configure AWS for it.
        if not (os.environ.get("AWS_ACCESS_KEY_ID") or os.environ.get("AWS_PROFILE")):
            options.update(aws_access_key_id="local", aws_secret_access_key="local")
    global _session
    if _session is None:  # one session: its loader parses the service model once, not per client
        _session = boto3.session.Session()
    return _session.client("dynamodb", **options)


_session = None


def reset_clients(session: bool = False) -> None:
    """Forget the cached clients (tests switch between moto and dynalite), and with ``session`` the session."""
    global _session
    with _clients_lock:
        _clients.clear()
        if session:
            _session = None


def call(operation: str, **params: Any) -> dict[str, Any] | None:
    """Run one DynamoDB operation; ``None`` when a condition failed; ``StoreUnavailable`` when it cannot run."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        answer: dict[str, Any] = getattr(client(call_budget()), operation)(**params)
        return answer
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code == "ConditionalCheckFailedException":
            return None
        if code in _UNAVAILABLE_CODES or error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) >= 500:
            _logger().warning("DynamoDB unavailable", extra={"operation": operation, "code": code})
            raise StoreUnavailable() from error
        raise
    except BotoCoreError as error:  # connection refused or reset, timeouts, no credentials
        _logger().warning("DynamoDB unreachable", extra={"operation": operation, "error": type(error).__name__})
        raise StoreUnavailable() from error


def read(operation: str, **params: Any) -> dict[str, Any]:
    """A call without a condition (a read, or an unconditional update): its answer is never ``None``."""
    answer = call(operation, **params)
    assert answer is not None, f"{operation} has no condition to fail"
    return answer


def _logger() -> Any:
    from aws_lambda_powertools import Logger

    return Logger(child=True)


# ------------------------------------------------------------------------------------------ the games
def event_key(seq: int) -> str:
    return f"{EVENT_PREFIX}{seq:0{EVENT_DIGITS}d}"


class GameStore:
    """The games table: per game, an append-only event log and a head item that caches its fold."""

    def __init__(self, table: str | None = None):
        self.table = table or os.environ.get("GAMES_TABLE") or "GamesTable"

    def get_head(self, game_id: str) -> dict[str, Any] | None:
        """The head item (strongly consistent), or None. One read."""
        answer = call("get_item", TableName=self.table, Key=_key(game_id, HEAD_KEY), ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return _head(item) if item else None

    def get_event(self, game_id: str, seq: int) -> dict[str, Any] | None:
        answer = call("get_item", TableName=self.table, Key=_key(game_id, event_key(seq)), ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return _event(from_item(item)) if item else None

    def append_event(self, game_id: str, event: dict[str, Any]) -> bool:
        """Write event ``event["seq"]`` if no event has that number yet; False if one has (someone was first).

        This conditional write is the game's lock: of two writers at the same sequence number exactly one
        succeeds, so the log has no gap and no duplicate.
        """
        record = {key: value for key, value in event.items() if key != "seq"}
        item = to_item({"pk": game_id, "sk": event_key(event["seq"]), **record})
        answer = call("put_item", TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(sk)")
        return answer is not None

    def save_head(self, head: dict[str, Any]) -> bool:
        """Store the head for event ``head["seq"]`` unless the stored head is as new or newer.

        Every head is the fold of the log up to its ``seq``, so a newer head contains an older one: the
        condition makes the head only ever move forward, whoever writes it and in whatever order.
        """
        answer = call(
            "put_item",
            TableName=self.table,
            Item=_head_item(head),
            # An older head format (no ``fen``) is replaced whatever its seq: this version cannot read it.
            ConditionExpression="attribute_not_exists(pk) OR seq < :seq OR attribute_not_exists(fen)",
            ExpressionAttributeValues={":seq": to_attribute(head["seq"])},
        )
        return answer is not None

    def load(self, game_id: str, after_seq: int = 0) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """The head and the events after ``after_seq``, in order, in one (paginated) Query."""
        start = event_key(after_seq + 1) if after_seq > 0 else EVENT_PREFIX
        items = self._query_partition(game_id, start, HEAD_KEY)
        head = None
        if items and items[-1]["sk"] == HEAD_KEY:
            head = _head_record(items.pop())
        return head, [_event(item) for item in items]

    def latest(
        self, game_id: str, limit: int, before_seq: int | None = None
    ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """The newest ``limit`` events (with ``before_seq``: the ``limit`` events before that number), newest
        first, and without ``before_seq`` the head too. One Query whatever the game's length: a page of the log."""
        high = HEAD_KEY if before_seq is None else event_key(max(before_seq - 1, 0))
        answer = read(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :low AND :high",
            ExpressionAttributeValues={":pk": {"S": game_id}, ":low": {"S": EVENT_PREFIX}, ":high": {"S": high}},
            ScanIndexForward=False,
            Limit=limit + (1 if before_seq is None else 0),
            ConsistentRead=True,
        )
        items = [from_item(item) for item in answer.get("Items", ())]
        head = _head_record(items.pop(0)) if items and items[0]["sk"] == HEAD_KEY else None
        return head, [_event(item) for item in items]

    def events_after(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The events after ``seq``, in order. One (paginated) Query."""
        return [_event(item) for item in self._query_partition(game_id, event_key(seq + 1), _AFTER_EVENTS)]

    def _query_partition(self, game_id: str, low: str, high: str) -> list[dict[str, Any]]:
        params: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
            "ExpressionAttributeValues": {":pk": {"S": game_id}, ":low": {"S": low}, ":high": {"S": high}},
            "ConsistentRead": True,
        }
        items: list[dict[str, Any]] = []
        while True:
            answer = read("query", **params)
            items.extend(from_item(item) for item in answer.get("Items", ()))
            if "LastEvaluatedKey" not in answer:
                return items
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def games_of_player(
        self, player_id: str, color: str, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[dict[str, Any]], bool]:
        """Heads of the games where ``player_id`` holds ``color``, with ``low <= order <= high``, highest
        order first, starting after the (order, game id) ``after``. Returns (heads, more_may_follow)."""
        index = GAMES_BY_WHITE if color == "white" else GAMES_BY_BLACK
        player_key, order_key = f"{color}_id", f"{color}_order"
        params: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": index,
            "KeyConditionExpression": "#player = :player AND #order BETWEEN :low AND :high",
            "ExpressionAttributeNames": {"#player": player_key, "#order": order_key},
            "ExpressionAttributeValues": {
                ":player": {"S": player_id},
                ":low": to_attribute(low),
                ":high": to_attribute(high),
            },
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if after is not None:
            order, game_id = after
            params["ExclusiveStartKey"] = {
                "pk": {"S": game_id},
                "sk": {"S": HEAD_KEY},
                player_key: {"S": player_id},
                order_key: to_attribute(order),
            }
        answer = read("query", **params)
        heads = [_head(item) for item in answer.get("Items", ())]
        return heads, "LastEvaluatedKey" in answer


def _key(game_id: str, sort_key: str) -> dict[str, Any]:
    return {"pk": {"S": game_id}, "sk": {"S": sort_key}}


def _head_item(head: dict[str, Any]) -> dict[str, Any]:
    """The DynamoDB item of a head record: what DynamoDB reads as attributes, the rest as one document."""
    attributes: dict[str, Any] = {"pk": head["id"], "sk": HEAD_KEY}
    document: dict[str, Any] = {}
    for name, value in head.items():
        if name == "id":
            continue
        if name in HEAD_ATTRIBUTES or isinstance(value, bytes):  # JSON has no bytes; they stay Binary
            attributes[name] = value
        elif value is not None:
            document[name] = value
    attributes[HEAD_DOCUMENT] = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return to_item(attributes)


def _head(item: dict[str, Any]) -> dict[str, Any]:
    return _head_record(from_item(item))


def _head_record(item: dict[str, Any]) -> dict[str, Any]:
    """A head record from its (converted) item: ``pk`` becomes ``id``, the sort key goes, the document is
    opened. An item written before the document (every field an attribute) reads the same."""
    record = dict(item)
    record["id"] = record.pop("pk")
    record.pop("sk", None)
    document = record.pop(HEAD_DOCUMENT, None)
    if document is not None:
        record.update(json.loads(document))
    return record


def _event(item: dict[str, Any]) -> dict[str, Any]:
    item = dict(item)
    item["seq"] = int(item.pop("sk")[len(EVENT_PREFIX) :])
    item.pop("pk", None)
    return item
