"""Where listings are kept: beside the games, in the games table (``GamesTable``), one item per seated player
of a game (``pk`` the game, ``sk`` ``L<colour>``: after the head, so no read of a game's log meets them), with
the keys of the per-player index ``GamesByPlayer`` (``lister``: the player, ``listed``: creation time and game
id, newest last). A page is one Query of that index, newest first, reading at most ``EVALUATED`` listings
whatever the filters let through.

``ListingRecords`` is the protocol; ``InMemoryListings`` keeps it in a dict (the games' in-memory store holds
one), ``DynamoListings`` on DynamoDB (the games' ``GameStore`` holds one). The contract, on all three stores:
``tests/games/test_history_store.py``.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import Record
from common.persistence.store import call, from_item, read, to_attribute, to_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import PutItemInputTypeDef, QueryInputTypeDef

LISTING_PREFIX = "L"
PLAYER_INDEX = "GamesByPlayer"


class ListingRecords(Protocol):
    def put_listing(self, record: Record, missing_only: bool = False) -> bool:
        """Store a listing unless the stored one is of the game's same or a later event (``seq``); with
        ``missing_only``, unless there is one at all (the back-fill: a listing that stands is the game's own)."""
        ...

    def listings_of_player(
        self, player_id: str, below: str | None, conditions: Sequence[tuple[str, Any]], evaluate: int
    ) -> tuple[list[Record], str | None]:
        """Among the player's ``evaluate`` newest listings whose key is below ``below`` (all: None), those whose
        attributes equal ``conditions``, newest first; and the key of the last one read when more may follow."""
        ...


class InMemoryListings:
    """``ListingRecords`` in a dict, for the in-memory games store."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], Record] = {}
        self.calls = 0
        self._lock = threading.Lock()

    def put_listing(self, record: Record, missing_only: bool = False) -> bool:
        self.calls += 1
        with self._lock:
            key = (record["game_id"], record["color"])
            stored = self.items.get(key)
            if stored is not None and (missing_only or stored["seq"] >= record["seq"]):
                return False
            self.items[key] = {name: copy.deepcopy(value) for name, value in record.items() if value is not None}
            return True

    def listings_of_player(
        self, player_id: str, below: str | None, conditions: Sequence[tuple[str, Any]], evaluate: int
    ) -> tuple[list[Record], str | None]:
        self.calls += 1
        mine = sorted(
            (
                record
                for record in self.items.values()
                if record["lister"] == player_id and (below is None or record["listed"] < below)
            ),
            key=lambda record: record["listed"],
            reverse=True,
        )
        read_now = mine[:evaluate]
        matched = [copy.deepcopy(record) for record in read_now if _matches(record, conditions)]
        last = read_now[-1]["listed"] if len(mine) > evaluate else None
        return matched, last


def _matches(record: Record, conditions: Sequence[tuple[str, Any]]) -> bool:
    # DynamoDB's filter: an absent attribute equals no value (the listings write every flag, never absent).
    return all(name in record and record[name] == value for name, value in conditions)


class DynamoListings:
    """``ListingRecords`` in the games table (``table``) and its index ``GamesByPlayer``."""

    def __init__(self, table: str):
        self.table = table

    def put_listing(self, record: Record, missing_only: bool = False) -> bool:
        item = to_item({"pk": record["game_id"], "sk": LISTING_PREFIX + record["color"], **record})
        params: PutItemInputTypeDef = {"TableName": self.table, "Item": item}
        if missing_only:
            params["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            params["ConditionExpression"] = "attribute_not_exists(pk) OR seq < :seq"
            params["ExpressionAttributeValues"] = {":seq": to_attribute(record["seq"])}
        return call("put_item", **params) is not None

    def listings_of_player(
        self, player_id: str, below: str | None, conditions: Sequence[tuple[str, Any]], evaluate: int
    ) -> tuple[list[Record], str | None]:
        names = {"#lister": "lister"}
        values: dict[str, Any] = {":lister": {"S": player_id}}
        key = "#lister = :lister"
        if below is not None:
            names["#listed"] = "listed"
            values[":below"] = {"S": below}
            key += " AND #listed < :below"
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "IndexName": PLAYER_INDEX,
            "KeyConditionExpression": key,
            "ScanIndexForward": False,
            "Limit": evaluate,
        }
        tests = []
        for number, (name, value) in enumerate(conditions):
            names[f"#f{number}"] = name
            values[f":f{number}"] = to_attribute(value)
            tests.append(f"#f{number} = :f{number}")
        if tests:
            params["FilterExpression"] = " AND ".join(tests)
        params["ExpressionAttributeNames"] = names
        params["ExpressionAttributeValues"] = values
        answer = read("query", **params)
        records = [_record(item) for item in answer.get("Items", ())]
        last = answer.get("LastEvaluatedKey")
        return records, (last["listed"]["S"] if last else None)


def _record(item: dict[str, Any]) -> Record:
    record = from_item(item)
    record.pop("pk", None)
    record.pop("sk", None)
    return record
