"""Around every request: only what came through CloudFront, the viewer's host, one log line, the metrics.

``Api`` wraps its handler with ``around_requests`` (one line in common/web/api.py), so every function does this:

* **Only through CloudFront.** CloudFront adds the header ``X-Origin-Verify`` with a secret that the function
  also gets as ``ORIGIN_VERIFY`` (both from template.yaml). A request without it went straight to the
  execute-api endpoint, around the distribution's WAF and cache: it gets ``403 {"error": {"code":
  "forbidden"}}`` and nothing runs. Without ``ORIGIN_VERIFY`` (the tests' direct calls) nothing is checked.
* **The viewer's host.** CloudFront's viewer-request function puts the Host the viewer asked for into
  ``X-Forwarded-Host``; on a request that passed the check it becomes the event's ``host``, so links built
  from the host name the site, never the execute-api host.
* **One log line per request**: ``{"message": "request", "route", "status", "latency_ms", "code"}`` (code: a
  refusal's error code). Never a header, a body or a query string, so never a token.
* **Metrics**: a 4xx counts as a refusal by its code, and the request's counts are flushed (common.web.metrics).
"""

from __future__ import annotations

import hmac
import json
import os
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger

from common.web import metrics

ORIGIN_SECRET_VARIABLE = "ORIGIN_VERIFY"
ORIGIN_HEADER = "x-origin-verify"
FORWARDED_HOST_HEADER = "x-forwarded-host"

logger = Logger()

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]


def around_requests(handler: Handler) -> Handler:
    """``handler`` with the origin check, the viewer's host, the request log line and the metrics."""

    def handle(event: dict[str, Any], context: Any) -> dict[str, Any]:
        started = time.perf_counter()
        if from_cloudfront(event):
            use_viewer_host(event)
            response = handler(event, context)
        else:
            response = _forbidden()
        try:
            log_request(event, response, (time.perf_counter() - started) * 1000)
        finally:
            metrics.flush()
        return response

    return handle


def from_cloudfront(event: dict[str, Any]) -> bool:
    secret = os.environ.get(ORIGIN_SECRET_VARIABLE, "")
    if not secret:
        return True
    sent = (event.get("headers") or {}).get(ORIGIN_HEADER, "")
    return hmac.compare_digest(sent.encode(), secret.encode())


def use_viewer_host(event: dict[str, Any]) -> None:
    headers = event.get("headers")
    if headers and headers.get(FORWARDED_HOST_HEADER):
        headers["host"] = headers[FORWARDED_HOST_HEADER]


def log_request(event: dict[str, Any], response: dict[str, Any], latency_ms: float) -> None:
    status = int(response.get("statusCode", 200)) if isinstance(response, dict) else 200
    details: dict[str, Any] = {"route": event.get("routeKey"), "status": status, "latency_ms": round(latency_ms, 1)}
    if 400 <= status < 500:
        details["code"] = error_code(response)
        metrics.refusal(details["code"])
    logger.info("request", extra=details)


def error_code(response: dict[str, Any]) -> str:
    """The ``error.code`` of an error answer ("unknown" if the body is not ubao's error shape)."""
    try:
        return str(json.loads(response.get("body") or "")["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return "unknown"


def _forbidden() -> dict[str, Any]:
    body = {"error": {"code": "forbidden", "message": "this API answers through the site's address only"}}
    return {
        "statusCode": 403,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps(body, separators=(",", ":")),
        "isBase64Encoded": False,
        "cookies": [],
    }
