"""The games table on DynamoDB (``GamesTable``, ``GAMES_TABLE``): ``GameStore`` keeps the ``GameRecords``
contract (``games.repository.records``) through ``common.persistence.store``'s ``call`` and ``read``.

One partition per game: the head item (``sk = "H"``, the game's current state, a cache of the event log;
the fields DynamoDB does not read are one JSON attribute, ``doc``) and one item per event
(``sk = "E000001"`` ...). Heads carry the keys of the players' indexes (``GamesByWhitePlayer``,
``GamesByBlackPlayer``) and, while a reminder is coming, of the sparse reminder index
(``GamesByReminderHour``, read by the reminder sweep of the notify function); the head of an open challenge
of the lobby carries the keys of the sparse ``SeeksByGame`` (``games.lobby.repository``).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from common.persistence.reminder_schedule import index_key, index_keys
from common.persistence.store import call, from_item, query_all, read, to_attribute, to_item
from common.persistence.table import item_key, newest_first

from games.history.repository import DynamoListings, ListingRecords

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef, ScanInputTypeDef

HEAD_KEY = "H"
EVENT_PREFIX = "E"
EVENT_DIGITS = 6  # "E000001": 999,999 events, far beyond any game (chess ends by rule before 12,000 plies)
#: Sort keys of events sort before the head ("E..." < "H"), so one Query returns the log then the head.
_AFTER_EVENTS = "F"

#: The head's fields that stay attributes of their own: its key, the keys of the players' and the
#: reminders' indexes, and what its conditional write reads (``seq``, and ``fen``, whose absence marks a
#: format this version cannot read); any ``bytes`` value too. Every other field travels in one JSON string,
#: ``doc``: converting a dozen attributes rather than some thirty, nested maps and lists among them, is
#: about a tenth of a move request's CPU (``make bench length``).
HEAD_ATTRIBUTES = frozenset(
    {
        "pk",
        "sk",
        "seq",
        "fen",
        "white_id",
        "white_order",
        "black_id",
        "black_order",
        "reminder_due",
        "reminder_hour",
        "seek_game",
        "seek_created",
        "air_game",
        "air_order",
        "seek_expires",
    }  # fmt: skip
)
HEAD_DOCUMENT = "doc"

GAMES_BY_WHITE = "GamesByWhitePlayer"
GAMES_BY_BLACK = "GamesByBlackPlayer"


REMINDER_INDEX = "GamesByReminderHour"
ON_AIR_INDEX = "GamesOnAir"


def event_key(seq: int) -> str:
    return f"{EVENT_PREFIX}{seq:0{EVENT_DIGITS}d}"


class GameStore:
    """The games table: per game, an append-only event log and a head item that caches its fold."""

    def __init__(self, table: str | None = None):
        self.table = table or os.environ.get("GAMES_TABLE") or "GamesTable"
        self.listings: ListingRecords = DynamoListings(self.table)

    def get_head(self, game_id: str) -> dict[str, Any] | None:
        """The head item (strongly consistent), or None. One read."""
        answer = call("get_item", TableName=self.table, Key=item_key(game_id, HEAD_KEY), ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return head_of_item(item) if item else None

    def get_event(self, game_id: str, seq: int) -> dict[str, Any] | None:
        answer = call("get_item", TableName=self.table, Key=item_key(game_id, event_key(seq)), ConsistentRead=True)
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

    def rewrite_event(self, game_id: str, event: dict[str, Any]) -> bool:
        record = {key: value for key, value in event.items() if key != "seq"}
        item = to_item({"pk": game_id, "sk": event_key(event["seq"]), **record})
        answer = call("put_item", TableName=self.table, Item=item, ConditionExpression="attribute_exists(sk)")
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
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
            "ExpressionAttributeValues": {":pk": {"S": game_id}, ":low": {"S": low}, ":high": {"S": high}},
            "ConsistentRead": True,
        }
        return [from_item(item) for item in query_all(**params)]

    def games_of_player(
        self, player_id: str, color: str, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[dict[str, Any]], bool]:
        """Heads of the games where ``player_id`` holds ``color``, with ``low <= order <= high``, highest
        order first, starting after the (order, game id) ``after``. Returns (heads, more_may_follow)."""
        index = GAMES_BY_WHITE if color == "white" else GAMES_BY_BLACK
        player_key, order_key = f"{color}_id", f"{color}_order"
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "IndexName": index,
            "KeyConditionExpression": "#player = :player AND #order BETWEEN :low AND :high",
            "ExpressionAttributeNames": {"#player": player_key, "#order": order_key},
            "ExpressionAttributeValues": {
                ":player": {"S": player_id},
                ":low": to_attribute(low),
                ":high": to_attribute(high),
            },
        }
        start = None
        if after is not None:
            order, game_id = after
            start = {
                "pk": {"S": game_id},
                "sk": {"S": HEAD_KEY},
                player_key: {"S": player_id},
                order_key: to_attribute(order),
            }
        answer = newest_first(params, limit, start)
        heads = [head_of_item(item) for item in answer.get("Items", ())]
        return heads, "LastEvaluatedKey" in answer

    def on_air(self, game: str, low: int, limit: int) -> list[dict[str, Any]]:
        """The heads on the air in ``game`` with ``air_order >= low``, highest first: one Query of the sparse
        ``GamesOnAir`` (Tazama; ``games.watch``), eventually consistent like every index."""
        answer = read(
            "query",
            TableName=self.table,
            IndexName=ON_AIR_INDEX,
            KeyConditionExpression="air_game = :game AND air_order >= :low",
            ExpressionAttributeValues={":game": {"S": game}, ":low": to_attribute(low)},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [head_of_item(item) for item in answer.get("Items", ())]

    def due_for_reminders(self, hour: int, now_ms: int) -> list[str]:
        """The games whose head has a reminder due by ``now_ms`` in the hour ``hour`` (the sparse index): one
        Query per key of the hour (``index_keys``: its shards, and the hour itself for older heads)."""
        return [game_id for key in index_keys(hour) for game_id in self._due_at(key, now_ms)]

    def _due_at(self, key: int, now_ms: int) -> list[str]:
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "IndexName": REMINDER_INDEX,
            "KeyConditionExpression": "reminder_hour = :hour AND reminder_due <= :now",
            "ExpressionAttributeValues": {":hour": {"N": str(key)}, ":now": {"N": str(now_ms)}},
        }
        ids: list[str] = []
        while True:
            answer = read("query", **params)
            ids.extend(item["pk"]["S"] for item in answer.get("Items", ()) if item["sk"]["S"] == HEAD_KEY)
            if "LastEvaluatedKey" not in answer:
                return ids
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def advance_reminder(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool:
        """Move the head's reminder on to ``next_due`` (None: no more), if the head is still the one read."""
        values = {":seq": {"N": str(seq)}, ":due": {"N": str(due)}}
        if next_due is None:
            update = "REMOVE reminder_due, reminder_hour"
        else:
            update = "SET reminder_due = :next, reminder_hour = :hour"
            values.update({":next": {"N": str(next_due)}, ":hour": {"N": str(index_key(game_id, next_due))}})
        answer = call(
            "update_item",
            TableName=self.table,
            Key=item_key(game_id, HEAD_KEY),
            UpdateExpression=update,
            ConditionExpression="seq = :seq AND reminder_due = :due",
            ExpressionAttributeValues=values,
        )
        return answer is not None

    def heads_page(self, after: str | None, limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """One Scan page of ``limit`` items read (events and listings too: only the heads come back); ``after``
        is the last key read, the game's id, as the previous page gave it."""
        params: ScanInputTypeDef = {
            "TableName": self.table,
            "Limit": limit,
            "FilterExpression": "sk = :head",
            "ExpressionAttributeValues": {":head": {"S": HEAD_KEY}},
        }
        if after is not None:
            game_id, _, sort_key = after.partition("\n")
            params["ExclusiveStartKey"] = item_key(game_id, sort_key)
        answer = read("scan", **params)
        last = answer.get("LastEvaluatedKey")
        more = f"{last['pk']['S']}\n{last['sk']['S']}" if last else None
        return [head_of_item(item) for item in answer.get("Items", ())], more


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


def head_of_item(item: dict[str, Any]) -> dict[str, Any]:
    """The head record of a head item as DynamoDB answers it (the lobby's reads of heads use it too)."""
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
