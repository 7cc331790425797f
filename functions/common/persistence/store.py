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
  ``Retry-After``. So does an answer that is not DynamoDB's whole answer: botocore reads a body cut short (a
  connection reset mid-answer), an empty one or one that is not JSON as an answer with no fields, which would
  be a missing item or a write that seemed to succeed (``_check_answer``), and an error without DynamoDB's
  error document (a bare 4xx from something in between). Every call's total time (connect, read, retries) fits in what the request has left
  (``common.persistence.deadline``), so the 503 comes before the Lambda timeout. A conditional write that loses its condition is not an error: the methods return
  ``False`` and the caller decides (see docs/games.md for the protocol).

Items are plain dicts of ``str``, ``int``, ``bool``, ``bytes``, ``None`` (omitted), ``list`` and ``dict``;
this module converts them to and from DynamoDB's typed attributes.

The games table's requests are built by the games repository (``games.repository.dynamodb``); the players
table and the puzzle progress table have their repositories beside their services
(``common.players.repository``, ``puzzles_api.repository``): all of them through ``call`` and ``read`` here.
mypy checks each request as boto3's typed client would (``client()`` is a ``DynamoDBClient``; ``call``,
``read`` and ``query_all`` take each operation's own parameters: ``common.persistence.operations``), from
boto3's stubs, a development dependency imported under ``TYPE_CHECKING`` only.
"""

from __future__ import annotations

import os
import threading
import zlib
from typing import TYPE_CHECKING, Any, NoReturn, Unpack

from common.persistence.attributes import from_attribute, from_item, item_size, to_attribute, to_item, with_version
from common.persistence.deadline import BUDGETS, RETRY_AFTER_SECONDS, CallBudget, StoreUnavailable, call_budget

if TYPE_CHECKING:  # boto3's stubs are a development dependency: Lambda never loads them
    from boto3.session import Session
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import PutItemInputTypeDef, QueryInputTypeDef

    from common.persistence.operations import Sender

__all__ = [
    "RETRY_AFTER_SECONDS",
    "StoreUnavailable",
    "from_attribute",
    "from_item",
    "item_size",
    "to_attribute",
    "to_item",
]

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

# ------------------------------------------------------------------------------------------- the client
_clients: dict[tuple[str | None, str, CallBudget], DynamoDBClient] = {}
_clients_lock = threading.Lock()


def client(budget: CallBudget = BUDGETS[0]) -> DynamoDBClient:
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


def _new_client(endpoint: str | None, region: str, budget: CallBudget) -> DynamoDBClient:
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=budget.connect_seconds,
        read_timeout=budget.read_seconds,
        retries={"total_max_attempts": budget.attempts, "mode": "standard"},
        tcp_keepalive=True,
        # This module builds every request from typed items (``common.persistence.attributes``), and DynamoDB checks them
        # again: botocore's own check of each parameter was a third of a move request's CPU.
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
    made = _session.client("dynamodb", **options)
    made.meta.events.register("after-call.dynamodb", _check_answer)
    return made


class BrokenAnswer(Exception):
    """A 200 whose body is not a whole JSON object from DynamoDB (``_check_answer``)."""


def _check_answer(http_response: Any = None, **_: Any) -> None:
    """Refuse a 200 that is not a whole answer: shorter than its ``Content-Length``, not matching its
    ``x-amz-crc32`` (botocore retries such an answer but returns the last one it got), empty, or not a JSON
    object. Checked on the bytes, without parsing them twice."""
    if http_response is None or http_response.status_code != 200:
        return
    body: bytes = http_response.content or b""
    headers = http_response.headers
    length, checksum = headers.get("content-length"), headers.get("x-amz-crc32")
    if length is not None and length.isdigit() and int(length) != len(body):
        raise BrokenAnswer(f"{len(body)} bytes of the {length} announced")
    if checksum is not None and checksum.isdigit() and zlib.crc32(body) != int(checksum):
        raise BrokenAnswer("the body does not match its checksum")
    stripped = body.strip()
    if not (stripped.startswith(b"{") and stripped.endswith(b"}")):
        raise BrokenAnswer("the body is not a JSON object")


_session: Session | None = None


def reset_clients(session: bool = False) -> None:
    """Forget the cached clients (tests switch between moto and dynalite), and with ``session`` the session."""
    global _session
    with _clients_lock:
        _clients.clear()
        if session:
            _session = None


def _call(operation: str, **params: Any) -> dict[str, Any] | None:
    """Run one DynamoDB operation; ``None`` when a condition failed; ``StoreUnavailable`` when it cannot run."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        answer: dict[str, Any] = getattr(client(call_budget()), operation)(**params)
        return answer
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code == "ConditionalCheckFailedException":
            return None
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        # A code of digits: botocore found no DynamoDB error document in the answer, so it came from elsewhere.
        if code in _UNAVAILABLE_CODES or code.isdigit() or status >= 500:
            _logger().warning("DynamoDB unavailable", extra={"operation": operation, "code": code})
            raise StoreUnavailable() from error
        raise
    except (BotoCoreError, BrokenAnswer) as error:  # connection refused or reset, timeouts, a broken answer
        _logger().warning("DynamoDB unreachable", extra={"operation": operation, "error": type(error).__name__})
        raise StoreUnavailable() from error


#: ``call("get_item", TableName=..., Key=...)``: one operation by its client method's name, its parameters checked
#: by mypy as boto3's typed client checks them (``common.persistence.operations``); ``None`` when its condition
#: failed.
call: Sender[None] = _call


def put_new(table: str, record: dict[str, Any], schema_version: int, key: str) -> bool:
    """Store ``record`` (with its layout's ``schema_version``) unless an item with its key is there already (one
    conditional PutItem, ``key`` the item's key attribute that must not exist); False when there is one."""
    answer = call(
        "put_item",
        TableName=table,
        Item=to_item(with_version(record, schema_version)),
        ConditionExpression=f"attribute_not_exists({key})",
    )
    return answer is not None


def put(table: str, record: dict[str, Any], schema_version: int, condition: str | None = None) -> bool:
    """Store ``record`` with its layout's ``schema_version`` (one PutItem, on ``condition`` if given); False when
    the condition failed."""
    params: PutItemInputTypeDef = {"TableName": table, "Item": to_item(with_version(record, schema_version))}
    if condition:
        params["ConditionExpression"] = condition
    return call("put_item", **params) is not None


def _read(operation: str, **params: Any) -> dict[str, Any]:
    """``_call`` for a request without a condition."""
    answer = _call(operation, **params)
    assert answer is not None, f"{operation} has no condition to fail"
    return answer


#: A call without a condition (a read, or an unconditional update): its answer is never ``None``.
read: Sender[NoReturn] = _read


def query_all(**params: Unpack[QueryInputTypeDef]) -> list[dict[str, Any]]:
    """Every item a Query finds, as DynamoDB writes them, page after page past its 1 MB pages: each page is
    one ``read`` within the request's deadline."""
    items: list[dict[str, Any]] = []
    while True:
        answer = read("query", **params)
        items.extend(answer.get("Items", ()))
        if "LastEvaluatedKey" not in answer:
            return items
        params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def _logger() -> Any:
    from aws_lambda_powertools import Logger

    return Logger(child=True)
