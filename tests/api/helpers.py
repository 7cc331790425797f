"""Calling a handler the way API Gateway does: a payload-2.0 event in, a payload-2.0 response out."""

from __future__ import annotations

import base64
import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from local.events import LambdaContext, http_api_event
from shared_rules.errors import MOVE_REASONS


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any  # parsed JSON
    raw: dict  # the handler's return value

    @property
    def error_code(self) -> str | None:
        return self.body["error"]["code"] if isinstance(self.body, dict) and "error" in self.body else None


def call(
    handler,
    method: str,
    path: str,
    body: bytes | str | None = None,
    headers: dict[str, str] | None = None,
    *,
    base64_body: bool = False,
    request_id: str | None = None,
) -> Answer:
    headers = {"content-type": "application/json", **(headers or {})}
    event = http_api_event(method, path, headers=headers, body=body, request_id=request_id)
    if base64_body and body is not None:
        raw = body.encode("utf-8") if isinstance(body, str) else body
        event["body"], event["isBase64Encoded"] = base64.b64encode(raw).decode("ascii"), True
    result = handler(event, LambdaContext(function_name="test"))
    assert set(result) >= {"statusCode", "body", "headers"}, result
    text = base64.b64decode(result["body"]).decode() if result.get("isBase64Encoded") else result["body"]
    lowered = {name.lower(): value for name, value in result["headers"].items()}
    return Answer(result["statusCode"], lowered, json.loads(text) if text else None, result)


def assert_error(answer: Answer, status: int, code: str) -> str:
    """The answer is the API's error shape with this status and code; returns the message."""
    assert answer.status == status, (answer.status, answer.body)
    assert answer.headers["content-type"] == "application/json"
    assert set(answer.body) == {"error"}, answer.body
    assert set(answer.body["error"]) - {"reason"} == {"code", "message"}, answer.body
    assert answer.body["error"].get("reason", MOVE_REASONS[0]) in MOVE_REASONS, answer.body  # only a refused move's
    assert answer.body["error"]["code"] == code, answer.body
    message = answer.body["error"]["message"]
    assert isinstance(message, str) and message.strip()
    assert "Traceback" not in message and 'File "' not in message
    return message


@contextmanager
def logged_lines() -> Iterator[io.StringIO]:
    """What the functions' logger writes meanwhile (one JSON object a line)."""
    from common.web.api import logger

    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        yield stream
    finally:
        if previous is not None:
            handler.setStream(previous)
