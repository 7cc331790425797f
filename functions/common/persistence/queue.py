"""Sending a message to an SQS queue: the one place besides ``store`` that speaks to AWS (boto3 imported on
first use, as the store's client is).

``send(queue_url, body)`` sends one JSON message. A throttled, failing or unreachable SQS raises
``StoreUnavailable``, as a busy DynamoDB does, so the API answers 503 with ``Retry-After`` and the client's
retry is safe wherever the caller made its write conditional first.

mypy checks the request as boto3's typed client would (``_client`` is an ``SQSClient``, from boto3's stubs: a
development dependency imported under ``TYPE_CHECKING`` only, as ``common.persistence.store`` does).
"""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING, Any

from common.persistence.deadline import StoreUnavailable

if TYPE_CHECKING:  # boto3's stubs are a development dependency: Lambda never loads them
    from mypy_boto3_sqs import SQSClient

_clients: dict[str, SQSClient] = {}
_lock = threading.Lock()


def client(region: str) -> SQSClient:
    with _lock:
        if region not in _clients:
            import boto3
            from botocore.config import Config

            config = Config(connect_timeout=1, read_timeout=2, retries={"total_max_attempts": 3, "mode": "standard"})
            _clients[region] = boto3.session.Session().client("sqs", region_name=region, config=config)
        return _clients[region]


def send(queue_url: str, body: dict[str, Any]) -> None:
    """Send ``body`` as one JSON message to ``queue_url``; ``StoreUnavailable`` when SQS cannot take it."""
    from botocore.exceptions import BotoCoreError, ClientError

    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    try:
        client(region).send_message(QueueUrl=queue_url, MessageBody=json.dumps(body, separators=(",", ":")))
    except (BotoCoreError, ClientError) as error:
        raise StoreUnavailable() from error


def reset_clients() -> None:
    """Forget the clients (tests switch moto on and off)."""
    with _lock:
        _clients.clear()
