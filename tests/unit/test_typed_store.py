"""mypy checks every DynamoDB request a repository sends through ``common.persistence.store`` against boto3's stubs
(``common.persistence.operations``), and the SQS and API Gateway requests of ``common.persistence.queue`` and
``common.persistence.sockets`` against their typed clients: a misspelt parameter, an operation the store does not
send or a value the operation does not take is an error before anything runs. Shown on planted modules, checked as
the project is (its pyproject.toml), the same calls once spelt wrong and once spelt right."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[2]

#: Each planted request, spelt right, and the same request with one mistake.
REQUESTS = [
    (
        'read("get_item", TableName="T", Key={"pk": {"S": "a"}}, ConsistentRead=True)',
        'read("get_item", TableNmae="T", Key={"pk": {"S": "a"}}, ConsistentRead=True)',
    ),
    (
        'call("put_item", TableName="T", Item={"pk": {"S": "a"}}, ConditionExpression="attribute_not_exists(pk)")',
        'call("put_itme", TableName="T", Item={"pk": {"S": "a"}}, ConditionExpression="attribute_not_exists(pk)")',
    ),
    (
        'call("update_item", TableName="T", Key={"pk": {"S": "a"}}, UpdateExpression="SET n = :n", ReturnValues="ALL_NEW")',
        'call("update_item", TableName="T", Key={"pk": {"S": "a"}}, UpdateExpression="SET n = :n", ReturnValues="ALL")',
    ),
    (
        'query_all(TableName="T", KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": {"S": "a"}})',
        'query_all(TableName="T", KeyConditionExpresion="pk = :pk", ExpressionAttributeValues={":pk": {"S": "a"}})',
    ),
    (  # parameters built first and passed with ``**``: checked where the dict is built, by its annotation
        'params: QueryInputTypeDef = {"TableName": "T", "KeyConditionExpression": "pk = :pk"}',
        'params: QueryInputTypeDef = {"TableName": "T", "KeyConditonExpression": "pk = :pk"}',
    ),
    (  # the other clients: SQS (the review queue) and API Gateway's management API (the live sockets)
        'queue.client("r").send_message(QueueUrl="https://q", MessageBody="{}")',
        'queue.client("r").send_message(QueueURL="https://q", MessageBody="{}")',
    ),
    (
        'sockets.client("https://e").post_to_connection(ConnectionId="c", Data=b"{}")',
        'sockets.client("https://e").post_to_connection(ConnectionID="c", Data=b"{}")',
    ),
]

HEADER = """from __future__ import annotations

from typing import TYPE_CHECKING

from common.persistence import queue, sockets
from common.persistence.store import call, query_all, read

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef


def requests() -> None:
"""


def planted(path: Path, lines: list[str]) -> int:
    """Write a module sending ``lines`` in one function; the line number of the first."""
    path.write_text(HEADER + "".join(f"    {line}\n" for line in lines))
    return HEADER.count("\n") + 1


@pytest.mark.slow
def test_mypy_refuses_each_misspelt_request_and_passes_the_same_requests_spelt_right(tmp_path, monkeypatch):
    first_wrong = planted(tmp_path / "wrong_requests.py", [wrong for _, wrong in REQUESTS])
    planted(tmp_path / "right_requests.py", [right for right, _ in REQUESTS])
    monkeypatch.chdir(ROOT)  # the project's settings: its mypy_path is relative to the repository
    report, errors, status = api.run(
        [
            *("--config-file", str(ROOT / "pyproject.toml")),
            *("--cache-dir", str(tmp_path / "cache")),
            *("--no-error-summary", "--hide-error-context", "--show-error-codes"),
            str(tmp_path / "wrong_requests.py"),
            str(tmp_path / "right_requests.py"),
        ]
    )
    assert errors == ""
    found = [line for line in report.splitlines() if ": error:" in line]
    assert status == 1, report
    assert not [line for line in found if "right_requests.py" in line], report
    wrong_lines = {int(line.split(":")[1]) for line in found if "wrong_requests.py" in line}
    assert wrong_lines == set(range(first_wrong, first_wrong + len(REQUESTS))), report
