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
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from typing import Any

ACCOUNT = "000000000000"


def stream_json(attribute: dict[str, Any]) -> dict[str, Any]:
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

    def __init__(self, client: Callable[[], Any], table: str, key_names: tuple[str, ...] = ("pk", "sk")):
        self.client = client
        self.table = table
        self.key_names = key_names
        self.seen: set[tuple[Any, ...]] = set()
        self.sequence = 0

    def new_records(self, keep: Callable[[dict[str, Any]], bool] = lambda item: True) -> list[dict[str, Any]]:
        items = self.scan()
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

    def scan(self) -> list[dict[str, Any]]:
        items, params = [], {"TableName": self.table, "ConsistentRead": True}
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


class ChangeTail(TableTail):
    """A ``TableTail`` that also finds the items changed since it last looked (a ``NEW_AND_OLD_IMAGES`` stream's
    ``MODIFY`` records, the old image the one it saw last): for small tables (the tournaments')."""

    def __init__(self, client: Callable[[], Any], table: str, key_names: tuple[str, ...] = ("pk", "sk")):
        super().__init__(client, table, key_names)
        self.images: dict[tuple[Any, ...], dict[str, Any]] = {}

    def new_records(self, keep: Callable[[dict[str, Any]], bool] = lambda item: True) -> list[dict[str, Any]]:
        items = self.scan()
        records = []
        for item in sorted(items, key=self._key):
            key = self._key(item)
            old = self.images.get(key)
            if old == item:
                continue
            self.images[key] = item
            if keep(item):
                self.sequence += 1
                record = insert_record(item, self.table, self.key_names, self.sequence)
                if old is not None:
                    record["eventName"] = "MODIFY"
                    record["dynamodb"].update(OldImage={name: stream_json(value) for name, value in old.items()},
                                              StreamViewType="NEW_AND_OLD_IMAGES")  # fmt: skip
                records.append(record)
        return records

    def forget(self, key: tuple[Any, ...]) -> None:
        self.images.pop(key, None)


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

    Driven by what is in the table, not by what a request answered: ``poke()`` (after each request to the
    writing function) makes it look at once, and it also looks every ``poll_seconds``, so an item stored by a
    request that crashed right after is still fed. It starts at the table's end (``StartingPosition:
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

    def start(self) -> StreamFeeder:
        RUNNING.append(self)
        self._thread = threading.Thread(target=self._run, name="local-stream", daemon=True)
        self._thread.start()
        return self

    def poke(self) -> None:
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
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._stopped.is_set():
                break
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
        records = self.tail.new_records(keep=self.keep)
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
        client: Callable[[], Any],
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

    def start(self) -> LocalNotifications:
        self.feeder.start()
        self.schedule.start()
        if self.tournaments is not None:
            self.tournaments.start()
        if self.tournament_schedule is not None:
            self.tournament_schedule.start()
        return self

    def after_request(self, function_name: str) -> None:
        """Called by the runner after each invocation, whatever it answered."""
        if function_name == "GamesFunction":
            self.feeder.poke()
            if self.tournaments is not None:
                self.tournaments.poke()

    def stop(self) -> None:
        self.feeder.stop()
        self.schedule.stop()
        if self.tournaments is not None:
            self.tournaments.stop()
        if self.tournament_schedule is not None:
            self.tournament_schedule.stop()


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


_clients: dict[str, Any] = {}


def local_client(endpoint: str) -> Any:
    """The DynamoDB client of a local endpoint, made once (the feeders' scans)."""
    return _client(endpoint)


def _client(endpoint: str) -> Any:
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
