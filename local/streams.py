"""DynamoDB Streams records, shaped as AWS delivers them to a function, for a local table.

dynalite and moto's in-process tables have no stream a function can be fed from, so this module makes the
records: ``insert_record`` turns an item (in DynamoDB JSON, as the low-level client returns it) into the
record an ``INSERT`` produces with ``StreamViewType: NEW_IMAGE``; ``TableTail`` finds the items written
since it last looked and returns their records in key order (per game: the event order), each once.

The notify function (functions/notify/handler/stream.py) takes these exactly as it takes AWS's; the tests feed it
with them, and so does the local runner (``LocalNotifications``: ``StreamFeeder`` after each request to the
games function and every few seconds, ``Every`` for the reminder sweep; docs/notifications.md).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # boto3's stubs (a development dependency)
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import ScanInputTypeDef

ACCOUNT = "000000000000"


def stream_json(attribute: dict[str, Any]) -> dict[str, Any]:
    """One attribute in a stream record's JSON: binary values are base64 text, as in AWS's event payloads."""
    return _binary_as(attribute, _base64_text)


def stored_json(attribute: dict[str, Any]) -> dict[str, Any]:
    """``stream_json``'s inverse: an attribute as the low-level client takes it (binary values as bytes)."""
    return _binary_as(attribute, base64.b64decode)


def _base64_text(value: Any) -> str:
    return base64.b64encode(bytes(value)).decode("ascii")


def _binary_as(attribute: dict[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    """The attribute with each binary value (of B and BS, in maps and lists too) converted."""
    ((kind, value),) = attribute.items()
    nested: dict[str, Callable[[], Any]] = {
        "B": lambda: convert(value),
        "BS": lambda: [convert(item) for item in value],
        "M": lambda: {name: _binary_as(item, convert) for name, item in value.items()},
        "L": lambda: [_binary_as(item, convert) for item in value],
    }
    return {kind: nested[kind]() if kind in nested else value}


def insert_record(
    item: dict[str, Any],
    table: str,
    key_names: Iterable[str],
    sequence: int,
    region: str = "us-east-1",
    now: float | None = None,
) -> dict[str, Any]:
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

    def __init__(self, client: Callable[[], DynamoDBClient], table: str, key_names: tuple[str, ...] = ("pk", "sk")):
        self.client = client
        self.table = table
        self.key_names = key_names
        self.seen: set[tuple[Any, ...]] = set()
        self.sequence = 0

    def new_records(self, keep: Callable[[dict[str, Any]], bool] = lambda item: True) -> list[dict[str, Any]]:
        return self.records_of(sorted(self.scan(), key=self._key), keep)

    def records_of(self, items: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """The records of ``items`` just written (reported by the functions that wrote them), each once."""
        records = []
        for item in items:
            key = self._key(item)
            if key in self.seen:
                continue
            self.seen.add(key)
            if keep(item):
                self.sequence += 1
                records.append(insert_record(item, self.table, self.key_names, self.sequence))
        return records

    def scan(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        params: ScanInputTypeDef = {"TableName": self.table, "ConsistentRead": True}
        while True:
            answer = self.client().scan(**params)
            items.extend(answer.get("Items", ()))
            if "LastEvaluatedKey" not in answer:
                return items
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def forget(self, key: tuple[Any, ...]) -> None:
        """Let the item with this key be returned again (its record failed)."""
        self.seen.discard(key)

    def key_of_record(self, record: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(next(iter(record["dynamodb"]["Keys"][name].values())) for name in self.key_names)

    def _key(self, item: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(next(iter(item[name].values())) for name in self.key_names)


def event_items(item: dict[str, Any]) -> bool:
    """The games table's event items (``sk`` ``E...``): what NotifyFunction's event source mapping lets through."""
    return str(item.get("sk", {}).get("S", "")).startswith("E")


# -- the local runner's stand-in for the stream and the schedule -----------------------------------------
#: How often the feeder looks at the table without being poked (a crash after the store never pokes it).
POLL_SECONDS_VARIABLE = "STREAM_POLL_SECONDS"
#: How often the reminder sweep runs (EventBridge Scheduler's rate in template.yaml: 15 minutes).
SWEEP_SECONDS_VARIABLE = "REMINDER_SWEEP_SECONDS"
#: How often the tournaments' schedule runs under ``make run`` (issue 40; 15 minutes on AWS).
TOURNAMENT_SCHEDULE_VARIABLE = "TOURNAMENT_SCHEDULE_SECONDS"
#: The feeders started in this process (the runner's one), for ``stream_looks``.
RUNNING: list[StreamFeeder] = []
#: A record the function keeps failing is dropped after this many attempts (the template's MaximumRetryAttempts).
MAX_ATTEMPTS = 10


def stream_looks() -> int:
    """The looks the running feeders have completed: a test that waits for two more after a write knows a
    whole look began after it, and so that the write's records were fed (and their pushes sent)."""
    return sum(feeder.looks for feeder in RUNNING)


class StreamFeeder:
    """Feeds a table's new items, as stream records, to a function, on a thread of its own.

    Driven by what is in the table: ``offer(writes)`` (after each invocation, the items it wrote, as its
    instance's meter saw them: local/probe.py) feeds those at once, as DynamoDB Streams does from its log, with
    no look at the rest of the table; ``poke()`` (after a request to a writing function whose writes are not
    known) makes it scan the table at once; and it scans every ``poll_seconds``, so an item stored by a request
    that crashed right after is still fed. It starts at the table's end (``StartingPosition:
    LATEST``): items already there are not fed. A record the function reports in ``batchItemFailures`` (or
    every record of a batch it crashed on) is fed again on the next look, at most ``MAX_ATTEMPTS`` times.
    """

    def __init__(
        self,
        tail: TableTail,
        deliver: Callable[[dict[str, Any]], Any],
        keep: Callable[[dict[str, Any]], bool] = lambda item: True,
        poll_seconds: float = 5.0,
    ):
        self.tail = tail
        self.deliver = deliver
        self.keep = keep
        self.poll_seconds = poll_seconds
        self.attempts: dict[tuple[Any, ...], int] = {}
        self.looks = 0  # looks completed, what was found fed (tests wait on it: GET /v1/_local/stats)
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._offered: list[dict[str, Any]] = []  # writes reported, waiting for the feeder's thread
        self._scan = False  # a scan asked for (a poke)

    def start(self) -> StreamFeeder:
        RUNNING.append(self)
        self._thread = threading.Thread(target=self._run, name="local-stream", daemon=True)
        self._thread.start()
        return self

    def poke(self) -> None:
        with self._lock:
            self._scan = True
        self._wake.set()

    def offer(self, writes: list[dict[str, Any]]) -> None:
        """Feed these writes (``local.probe``'s notes: table, operation, item or key) of this feeder's table."""
        mine = [write for write in writes if write.get("table") == self.tail.table]
        if mine:
            with self._lock:
                self._offered.extend(mine)
            self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self in RUNNING:
            RUNNING.remove(self)

    def _run(self) -> None:
        started = False
        while not self._stopped.is_set():
            if not started:  # the table's end: what is there now was written before the runner started
                started = self._look(lambda: self.tail.new_records(keep=lambda item: False))
                if not started:
                    self._stopped.wait(self.poll_seconds)
                continue
            woken = self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._stopped.is_set():
                break
            with self._lock:
                offered, self._offered = self._offered, []
                scan, self._scan = self._scan or not woken, False
            if offered:
                self._look(functools.partial(self.feed_written, offered))
            if scan:
                self._look(self.feed)
            self.looks += 1

    @staticmethod
    def _look(action: Callable[[], Any]) -> bool:
        try:
            action()
            return True
        except Exception:
            traceback.print_exc()
            return False

    def feed(self) -> int:
        """Feed the records of the items written since the last look; how many were fed."""
        return self._deliver(self.tail.new_records(keep=self.keep))

    def feed_written(self, writes: list[dict[str, Any]]) -> int:
        """Feed the records of these writes: a put's item as written, an update's item as it is now (one read);
        a deletion feeds nothing (no consumer takes REMOVE records)."""
        items: list[dict[str, Any]] = []
        for write in writes:
            if write.get("operation") == "PutItem" and write.get("item"):
                items.append({name: stored_json(value) for name, value in write["item"].items()})
            elif write.get("operation") == "UpdateItem" and write.get("key"):
                key = {name: stored_json(value) for name, value in write["key"].items()}
                found = self.tail.client().get_item(TableName=self.tail.table, Key=key, ConsistentRead=True)
                items.extend([found["Item"]] if "Item" in found else [])
        return self._deliver(self.tail.records_of(items, self.keep))

    def _deliver(self, records: list[dict[str, Any]]) -> int:
        if not records:
            return 0
        keys = {record["dynamodb"]["SequenceNumber"]: self.tail.key_of_record(record) for record in records}
        try:
            answer = self.deliver({"Records": records})
            failed = {failure["itemIdentifier"] for failure in (answer or {}).get("batchItemFailures", ())}
        except Exception:
            traceback.print_exc()
            failed = set(keys)
        for sequence in failed:
            key = keys.get(sequence)
            if key is None:
                continue
            self.attempts[key] = self.attempts.get(key, 0) + 1
            if self.attempts[key] < MAX_ATTEMPTS:
                self.tail.forget(key)  # looked at again next time
        return len(records)


class Every:
    """Calls ``action`` every ``seconds`` on a thread of its own (a schedule's stand-in)."""

    def __init__(self, seconds: float, action: Callable[[], Any]):
        self.seconds = seconds
        self.action = action
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="local-schedule", daemon=True)

    def start(self) -> Every:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stopped.wait(self.seconds):
            try:
                self.action()
            except Exception:
                traceback.print_exc()


class LocalNotifications:
    """What AWS wires for Web Push, for ``make run``: the games table's stream into NotifyFunction (the
    template's filter: INSERTs of event items) and ReminderFunction on its schedule. Both run off the
    requests' latency, on their own threads; ``invoke(function name, event)`` runs a function as the runner
    does (one at a time with the requests: the functions share this process's environment)."""

    def __init__(
        self,
        invoke: Callable[[str, dict[str, Any]], Any],
        games_table: str,
        client: Callable[[], DynamoDBClient],
        tournaments: bool = False,
    ):
        poll = float(os.environ.get(POLL_SECONDS_VARIABLE) or 5.0)
        sweep = float(os.environ.get(SWEEP_SECONDS_VARIABLE) or 15 * 60)
        self.feeder = StreamFeeder(
            TableTail(client, games_table),
            lambda event: invoke("NotifyFunction", event),
            keep=event_items,
            poll_seconds=poll,
        )
        self.schedule = Every(sweep, lambda: invoke("ReminderFunction", scheduled_event()))
        # -- tournaments (issue 40): the same stream into TournamentResultsFunction, a consumer of its own
        self.tournaments = (
            TournamentFeeder(
                TableTail(client, games_table),
                lambda event: invoke("TournamentResultsFunction", event),
                keep=event_items,
                poll_seconds=poll,
            )
            if tournaments
            else None
        )
        schedule = float(os.environ.get(TOURNAMENT_SCHEDULE_VARIABLE) or 60)  # AWS: 15 minutes; here every minute
        self.tournament_schedule = (
            Every(schedule, lambda: invoke("TournamentScheduleFunction", scheduled_event())) if tournaments else None
        )

    def _threads(self) -> list[StreamFeeder | Every]:
        """The feeders and schedules that run, each on a thread of its own (the tournaments' only when asked)."""
        parts = (self.feeder, self.schedule, self.tournaments, self.tournament_schedule)
        return [part for part in parts if part is not None]

    def start(self) -> LocalNotifications:
        for part in self._threads():
            part.start()
        return self

    def after_request(self, function_name: str, writes: list[dict[str, Any]] | None = None) -> None:
        """Called by the runner after each invocation, whatever it answered, with the items it wrote (None when
        they are not known: the games function's then make the feeders scan)."""
        for feeder in (self.feeder, self.tournaments):
            if feeder is None:
                continue
            if writes is not None:
                feeder.offer(writes)
            elif function_name == "GamesFunction":
                feeder.poke()

    def stop(self) -> None:
        for part in self._threads():
            part.stop()


class TournamentFeeder(StreamFeeder):
    """The tournaments' results feeder: not counted in ``stream_looks`` (the push tests wait on notify's)."""

    def start(self) -> StreamFeeder:
        super().start()
        RUNNING.remove(self)
        return self

    def stop(self) -> None:
        RUNNING.append(self)
        super().stop()


def scheduled_event(now: float | None = None) -> dict[str, Any]:
    """The event EventBridge Scheduler gives ReminderFunction (the function reads nothing from it)."""
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now if now is not None else time.time()))
    return {"source": "aws.scheduler", "detail-type": "Scheduled Event", "time": at, "detail": {}}


def start_local_notifications(api: Any, template: Any) -> LocalNotifications | None:
    """The stream and the schedule for the runner's ``api``, or None when there is no local DynamoDB or the
    template has no notify function (a message says so)."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT")
    notify = template.functions.get("NotifyFunction")
    if not endpoint or notify is None or "ReminderFunction" not in template.functions:
        return None
    table = notify.environment.get("GAMES_TABLE", "GamesTable")

    def invoke(name: str, event: dict[str, Any]) -> Any:
        return api.invoke(name, event, background=True)  # beside the requests, never holding them up

    tournaments = {"TournamentResultsFunction", "TournamentScheduleFunction"} <= set(template.functions)
    notifications = LocalNotifications(invoke, table, lambda: _client(endpoint), tournaments).start()
    print(f"  push: the {table} stream feeds NotifyFunction; reminders every {notifications.schedule.seconds:g} s",
          file=sys.stderr, flush=True)  # fmt: skip
    return notifications


_clients: dict[str, DynamoDBClient] = {}


def local_client(endpoint: str) -> DynamoDBClient:
    """The DynamoDB client of a local endpoint, made once (the feeders' scans)."""
    return _client(endpoint)


def _client(endpoint: str) -> DynamoDBClient:
    if endpoint not in _clients:
        import boto3

        _clients[endpoint] = boto3.client(
            "dynamodb",
            endpoint_url=endpoint,
            region_name=os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
            aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID") or "local",
            aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY") or "local",
        )
    return _clients[endpoint]
