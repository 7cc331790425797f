"""DynamoDB Streams records, shaped as AWS delivers them to a function, for a local table.

dynalite and moto's in-process tables have no stream a function can be fed from, so this module makes the
records: ``insert_record`` turns an item (in DynamoDB JSON, as the low-level client returns it) into the
record an ``INSERT`` produces with ``StreamViewType: NEW_IMAGE``; ``TableTail`` finds the items written
since it last looked and returns their records in key order (per game: the event order), each once.

The notify function (functions/notify/stream.py) takes these exactly as it takes AWS's; the tests feed it
with them, and the local runner is to do the same after each request to the games function (docs/notifications.md).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable, Iterable
from typing import Any

ACCOUNT = "000000000000"


def stream_json(attribute: dict) -> dict:
    """One attribute in a stream record's JSON: binary values are base64 text, as in AWS's event payloads."""
    ((kind, value),) = attribute.items()
    if kind == "B":
        return {"B": base64.b64encode(bytes(value)).decode("ascii")}
    if kind == "BS":
        return {"BS": [base64.b64encode(bytes(item)).decode("ascii") for item in value]}
    if kind == "M":
        return {"M": {name: stream_json(item) for name, item in value.items()}}
    if kind == "L":
        return {"L": [stream_json(item) for item in value]}
    return {kind: value}


def insert_record(
    item: dict, table: str, key_names: Iterable[str], sequence: int, region: str = "us-east-1", now: float | None = None
) -> dict:
    """The stream record of ``item``'s ``INSERT`` (a ``NEW_IMAGE`` stream)."""
    image = {name: stream_json(value) for name, value in item.items()}
    keys = {name: image[name] for name in key_names}
    arn = f"arn:aws:dynamodb:{region}:{ACCOUNT}:table/{table}/stream/1970-01-01T00:00:00.000"
    return {
        "eventID": f"{sequence:032x}",
        "eventName": "INSERT",
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": region,
        "dynamodb": {
            "ApproximateCreationDateTime": int(now if now is not None else time.time()),
            "Keys": keys,
            "NewImage": image,
            "SequenceNumber": f"{sequence:021d}",
            "SizeBytes": len(json.dumps(image)),
            "StreamViewType": "NEW_IMAGE",
        },
        "eventSourceARN": arn,
    }


class TableTail:
    """The items of a table not seen before, as stream records (a scan each time: for local tables only)."""

    def __init__(self, client: Callable[[], Any], table: str, key_names: tuple[str, ...] = ("pk", "sk")):
        self.client = client
        self.table = table
        self.key_names = key_names
        self.seen: set[tuple] = set()
        self.sequence = 0

    def new_records(self, keep: Callable[[dict], bool] = lambda item: True) -> list[dict]:
        items, params = [], {"TableName": self.table, "ConsistentRead": True}
        while True:
            answer = self.client().scan(**params)
            items.extend(answer.get("Items", ()))
            if "LastEvaluatedKey" not in answer:
                break
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        records = []
        for item in sorted(items, key=self._key):
            key = self._key(item)
            if key in self.seen:
                continue
            self.seen.add(key)
            if keep(item):
                self.sequence += 1
                records.append(insert_record(item, self.table, self.key_names, self.sequence))
        return records

    def _key(self, item: dict) -> tuple:
        return tuple(next(iter(item[name].values())) for name in self.key_names)


def event_items(item: dict) -> bool:
    """The games table's event items (``sk`` ``E...``): what NotifyFunction's event source mapping lets through."""
    return item.get("sk", {}).get("S", "").startswith("E")
