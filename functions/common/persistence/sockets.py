"""API Gateway's WebSocket management API (``PostToConnection``), the one other AWS service a function talks to
besides DynamoDB: boto3 is imported here, on first use, as ``common.persistence.store`` does for DynamoDB.

A connection that is gone (the client left, or API Gateway closed it) answers 410 ``GoneException``: the
answer is False, and the caller forgets the connection. A throttled or failing call is logged and counted
as not sent (True: the connection is not known to be gone); the message is not retried, since the next one
carries the game as it stands and the page's own poll catches up meanwhile.

mypy checks the request as boto3's typed client would (``client`` is an ``ApiGatewayManagementApiClient``, from
boto3's stubs: a development dependency imported under ``TYPE_CHECKING`` only, as ``common.persistence.store`` does).
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # boto3's stubs are a development dependency: Lambda never loads them
    from mypy_boto3_apigatewaymanagementapi import ApiGatewayManagementApiClient

_clients: dict[tuple[str, str], ApiGatewayManagementApiClient] = {}
_lock = threading.Lock()


def client(endpoint: str) -> ApiGatewayManagementApiClient:
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    key = (endpoint, region)
    with _lock:  # boto3's default session is not thread-safe while it builds a client
        if key not in _clients:
            import boto3
            from botocore.config import Config

            options: dict[str, Any] = {
                "endpoint_url": endpoint,
                "region_name": region,
                # as many connections as the fan-out's sends at once (live.service.SENDS_AT_ONCE)
                "config": Config(
                    connect_timeout=1, read_timeout=2, retries={"total_max_attempts": 2}, max_pool_connections=16
                ),
            }
            if not (os.environ.get("AWS_ACCESS_KEY_ID") or os.environ.get("AWS_PROFILE")):
                options.update(aws_access_key_id="local", aws_secret_access_key="local")  # the local stand-in
            _clients[key] = boto3.session.Session().client("apigatewaymanagementapi", **options)
        return _clients[key]


def post_to_connection(endpoint: str, connection_id: str, data: bytes) -> bool:
    """Send one message; False when the connection is gone (410)."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        client(endpoint).post_to_connection(ConnectionId=connection_id, Data=data)
        return True
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if code == "GoneException" or status == 410:
            return False
        _logger().warning("PostToConnection refused", extra={"code": code, "status": status})
        return True
    except BotoCoreError as error:
        _logger().warning("PostToConnection failed", extra={"error": type(error).__name__})
        return True


def reset_clients() -> None:
    with _lock:
        _clients.clear()


def _logger() -> Any:
    from aws_lambda_powertools import Logger

    return Logger(child=True)
