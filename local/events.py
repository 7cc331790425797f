"""API Gateway HTTP API (payload format 2.0) events and Lambda contexts, as AWS builds them.

The shape follows AWS's documentation of the 2.0 payload: lower-case header names with repeated headers
joined by commas, cookies moved out of the headers into ``cookies``, query parameters decoded and
repeated ones joined by commas, a binary body base64-encoded.
"""

from __future__ import annotations

import base64
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Any
from urllib.parse import parse_qsl

#: Content types API Gateway passes as text; any other body arrives base64-encoded.
_TEXT_TYPES = ("text/", "application/json", "application/x-www-form-urlencoded", "application/xml", "+json", "+xml")


def http_api_event(
    method: str,
    path: str,
    *,
    route_key: str | None = None,
    path_parameters: dict[str, str] | None = None,
    query: str = "",
    headers: Iterable[tuple[str, str]] | dict[str, str] = (),
    body: bytes | str | None = None,
    source_ip: str = "127.0.0.1",
    request_id: str | None = None,
) -> dict[str, Any]:
    """The event API Gateway sends to a function for one request."""
    pairs = list(headers.items()) if isinstance(headers, dict) else list(headers)
    merged: dict[str, str] = {}
    cookies: list[str] = []
    for name, value in pairs:
        name = name.lower()
        if name == "cookie":
            cookies.extend(part.strip() for part in value.split(";") if part.strip())
            continue
        merged[name] = f"{merged[name]},{value}" if name in merged else value
    method = method.upper()
    request_id = request_id or _request_id()
    now = time.time()
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key or f"{method} {path}",
        "rawPath": path,
        "rawQueryString": query,
        "headers": merged,
        "requestContext": {
            "accountId": "000000000000",
            "apiId": "local",
            "domainName": merged.get("host", "127.0.0.1"),
            "domainPrefix": merged.get("host", "127.0.0.1").split(".")[0],
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": merged.get("user-agent", ""),
            },
            "requestId": request_id,
            "routeKey": route_key or f"{method} {path}",
            "stage": "$default",
            "time": formatdate(now, usegmt=True),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = cookies
    if query:
        parameters: dict[str, str] = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            parameters[name] = f"{parameters[name]},{value}" if name in parameters else value
        event["queryStringParameters"] = parameters
    if path_parameters:
        event["pathParameters"] = dict(path_parameters)
    if body is not None and body != b"":
        raw = body.encode("utf-8") if isinstance(body, str) else body
        if _is_text(merged.get("content-type", "")):
            try:
                event["body"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                event["body"], event["isBase64Encoded"] = base64.b64encode(raw).decode("ascii"), True
        else:
            event["body"], event["isBase64Encoded"] = base64.b64encode(raw).decode("ascii"), True
    return event


def _is_text(content_type: str) -> bool:
    content_type = content_type.split(";")[0].strip().lower()
    return not content_type or any(marker in content_type for marker in _TEXT_TYPES)


def _request_id() -> str:
    return base64.b32encode(uuid.uuid4().bytes[:10]).decode("ascii").rstrip("=")


@dataclass
class LambdaContext:
    """The context object Lambda passes to a handler (the attributes Powertools and handlers use)."""

    function_name: str
    memory_limit_in_mb: int = 1024
    timeout_seconds: float = 10  # whole seconds on Lambda; a test may give a fraction
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    started: float = field(default_factory=time.monotonic)

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:local:000000000000:function:{self.function_name}"

    @property
    def log_group_name(self) -> str:
        return f"/aws/lambda/{self.function_name}"

    @property
    def log_stream_name(self) -> str:
        return "local"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.timeout_seconds - (time.monotonic() - self.started)) * 1000))
