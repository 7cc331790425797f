"""The local runner's stand-in for the games table's stream (local/streams.py), on moto: it starts at the
table's end, feeds each new event item once, in key order, and feeds again what the function reported as
failed (or everything of a batch it crashed on), as Lambda's event source mapping does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from local.streams import StreamFeeder, TableTail, event_items

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef


def put(sk: str, game: str = "g1") -> None:
    from common.persistence.store import client

    client().put_item(TableName="GamesTable", Item={"pk": {"S": game}, "sk": {"S": sk}, "seq": {"N": sk[1:] or "0"}})


class Function:
    """What the feeder invokes: records what it was given, answers as told."""

    def __init__(self):
        self.batches: list[list[tuple[str, str]]] = []
        self.answers: list = []

    def __call__(self, event: dict):
        keys = [(r["dynamodb"]["Keys"]["pk"]["S"], r["dynamodb"]["Keys"]["sk"]["S"]) for r in event["Records"]]
        self.batches.append(keys)
        answer = self.answers.pop(0) if self.answers else {"batchItemFailures": []}
        if isinstance(answer, Exception):
            raise answer
        return answer(event) if callable(answer) else answer


def feeder(function) -> StreamFeeder:
    from common.persistence.store import client

    made = StreamFeeder(TableTail(client, "GamesTable"), function, keep=event_items)
    made.tail.new_records(keep=lambda item: False)  # what start() does first: the table's end
    return made


def test_new_event_items_are_fed_once_in_order_from_the_tables_end(aws):
    put("E000001", "old")
    function = Function()
    stream = feeder(function)
    put("E000002")
    put("E000001")
    put("H")  # the head: not an event, filtered out as the template's FilterCriteria does
    assert stream.feed() == 2
    assert function.batches == [[("g1", "E000001"), ("g1", "E000002")]]
    assert stream.feed() == 0 and len(function.batches) == 1


def test_a_reported_failure_is_fed_again_and_a_crash_feeds_the_whole_batch_again(aws):
    function = Function()
    stream = feeder(function)
    put("E000001")
    put("E000002")
    function.answers = [
        lambda event: {"batchItemFailures": [{"itemIdentifier": event["Records"][1]["dynamodb"]["SequenceNumber"]}]},
        RuntimeError("the function crashed"),
    ]
    stream.feed()
    stream.feed()  # only the failed one again; this time the function crashes
    stream.feed()  # so again
    assert function.batches == [[("g1", "E000001"), ("g1", "E000002")], [("g1", "E000002")], [("g1", "E000002")]]


def test_a_record_that_always_fails_is_dropped_after_the_last_attempt(aws):
    from local.streams import MAX_ATTEMPTS

    function = Function()
    stream = feeder(function)
    put("E000001")
    function.answers = [RuntimeError("always")] * (MAX_ATTEMPTS + 5)
    for _ in range(MAX_ATTEMPTS + 3):
        stream.feed()
    assert len(function.batches) == MAX_ATTEMPTS


def written(run) -> list[dict]:
    """What an instance reports of the writes ``run()`` makes (local/probe.py's meter), through JSON as over its
    pipe to the runner."""
    import json

    from local.probe import Meter

    meter = Meter()
    meter.listen()
    answer = meter.measure(lambda: run() or {"result": None})
    return json.loads(json.dumps(answer["usage"]["writes"]))


def kept(records: list[dict]):
    """An answer of the fed function that keeps the records it was given."""

    def answer(event: dict) -> dict:
        records.extend(event["Records"])
        return {"batchItemFailures": []}

    return answer


def test_the_items_an_invocation_wrote_are_fed_at_once_without_a_scan(aws, monkeypatch):
    from common.persistence.store import client

    function = Function()
    stream = feeder(function)

    def writes() -> None:
        item: dict[str, AttributeValueTypeDef] = {
            "pk": {"S": "g1"},
            "sk": {"S": "E000001"},
            "key": {"B": b"\x00\xff"},
            "kind": {"S": "move"},
        }
        client().put_item(TableName="GamesTable", Item=item)
        client().update_item(TableName="GamesTable", Key={"pk": {"S": "g1"}, "sk": {"S": "H"}},
                             UpdateExpression="SET seq = :s", ExpressionAttributeValues={":s": {"N": "1"}})  # fmt: skip
        try:  # refused: no write, nothing reported
            client().put_item(TableName="GamesTable", Item=item, ConditionExpression="attribute_not_exists(pk)")
        except client().exceptions.ConditionalCheckFailedException:
            pass

    reported = written(writes)
    assert [(write["operation"], write["table"]) for write in reported] == [
        ("PutItem", "GamesTable"),
        ("UpdateItem", "GamesTable"),
    ]
    monkeypatch.setattr(
        stream.tail, "scan", lambda: (_ for _ in ()).throw(AssertionError("no scan for reported writes"))
    )
    sent: list[dict] = []
    function.answers = [kept(sent)]
    assert stream.feed_written(reported) == 1  # the head is not an event item: filtered out
    assert function.batches == [[("g1", "E000001")]]
    assert sent[0]["dynamodb"]["NewImage"]["key"] == {"B": "AP8="}  # binary as AWS sends it: base64
    assert stream.feed_written(reported) == 0  # each item once


def test_a_changed_item_is_fed_with_its_old_image(aws):
    from common.persistence.store import client

    from local.live_feed import ChangeTail, tournament_items

    function = Function()
    stream = StreamFeeder(ChangeTail(client, "GamesTable"), function, keep=tournament_items)
    key = {"pk": {"S": "t#T1"}, "sk": {"S": "A"}}

    def update(state: str) -> None:
        client().update_item(TableName="GamesTable", Key=key, UpdateExpression="SET #s = :s",
                             ExpressionAttributeNames={"#s": "state"}, ExpressionAttributeValues={":s": {"S": state}})  # fmt: skip

    records: list[dict] = []
    function.answers = [kept(records)] * 2
    stream.feed_written(written(lambda: update("open")))
    stream.feed_written(written(lambda: update("running")))
    assert [record["eventName"] for record in records] == ["INSERT", "MODIFY"]
    assert records[1]["dynamodb"]["OldImage"]["state"] == {"S": "open"}
    assert records[1]["dynamodb"]["NewImage"]["state"] == {"S": "running"}
