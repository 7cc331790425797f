"""The local runner's answers as API Gateway gives them: a function's payload-2.0 result read as API Gateway reads
it, the API's own JSON 405, and API Gateway's own errors (``{"message": ...}``)."""

from __future__ import annotations

import base64
import json
from http import HTTPStatus
from typing import Any

from local.static import Answer


def lambda_response(result: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """API Gateway's reading of a payload-2.0 response (a dict without statusCode is a JSON 200 body)."""
    if not isinstance(result, dict) or "statusCode" not in result:
        return 200, [("Content-Type", "application/json")], json.dumps(result).encode("utf-8")
    headers = [(str(name), str(value)) for name, value in (result.get("headers") or {}).items()]
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((str(name), str(value)) for value in values)
    headers.extend(("Set-Cookie", str(cookie)) for cookie in result.get("cookies") or ())
    body = result.get("body") or ""
    raw = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode("utf-8")
    return int(result["statusCode"]), headers, raw


def method_not_allowed(method: str, path: str, allowed: list[str]) -> tuple[int, list[tuple[str, str]], bytes]:
    """The API's JSON 405 (``method_not_allowed``, as ``common.web.errors`` spells it) with its ``Allow``."""
    message = f"{method} is not allowed on {path}" + (f"; use {', '.join(allowed)}" if allowed else "")
    body = json.dumps({"error": {"code": "method_not_allowed", "message": message}}).encode()
    headers = [("Content-Type", "application/json")] + ([("Allow", ", ".join(allowed))] if allowed else [])
    return int(HTTPStatus.METHOD_NOT_ALLOWED), headers, body


def api_gateway_error(status: HTTPStatus, message: str) -> Answer:
    return int(status), [("Content-Type", "application/json")], json.dumps({"message": message}).encode()
