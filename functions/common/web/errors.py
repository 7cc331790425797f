"""The one error shape of the HTTP API and the status code of every kind of error.

Every error answer is ``{"error": {"code": ..., "message": ...}}``. The status codes:

| status | code | when |
| --- | --- | --- |
| 400 | ``invalid_json`` | the body is not JSON (bad syntax, NaN, nesting too deep, not UTF-8, bad base64) |
| 404 | ``not_found`` | no route has this path |
| 405 | ``method_not_allowed`` | a route has this path, but not this method (``Allow`` lists the methods) |
| 413 | ``payload_too_large`` | the body is over 64 KiB |
| 422 | ``invalid_request`` | the JSON does not match the request model (the message names the field) |
| 422 | a rules code | the request is well formed but the rules refuse it: ``unknown_game``, ``invalid_option``, |
|     |              | ``invalid_fen``, and ``illegal_move``/``ambiguous_move``/``game_over`` for a move inside a history |
| 500 | ``internal_error`` | a bug; never caused by input (the tests prove it) |

Why 422 and not 400 for the rules codes: 400 means "we could not read your request", 422 means "we read it
and it asks for something impossible". Both model errors and rules errors are the second kind, so a
client handles one status for "fix the content" and another for "fix the encoding".

Handlers raise ``ApiError`` (or a subclass) for their own refusals (401, 403, 409, 503 ...): one class,
no response building in handlers.
"""

from __future__ import annotations

from http import HTTPStatus

MAX_BODY_BYTES = 64 * 1024

#: The status of every ``shared_rules.RulesError`` (see the module docstring for why 422).
RULES_ERROR_STATUS = HTTPStatus.UNPROCESSABLE_ENTITY


class ApiError(Exception):
    """An error answer: raise it anywhere under a route and the client gets ``status`` and the JSON body."""

    status: int = HTTPStatus.BAD_REQUEST
    code: str = "bad_request"
    reason: str | None = None  # a refused move's ``error.reason`` (see ``shared_rules.errors.MOVE_REASONS``)

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason
        if status is not None:
            self.status = int(status)
        if code is not None:
            self.code = code
        self.headers: dict[str, str] = dict(headers or {})


class InvalidJson(ApiError):
    status = HTTPStatus.BAD_REQUEST
    code = "invalid_json"


class PayloadTooLarge(ApiError):
    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    code = "payload_too_large"


class NotFound(ApiError):
    status = HTTPStatus.NOT_FOUND
    code = "not_found"


class MethodNotAllowed(ApiError):
    status = HTTPStatus.METHOD_NOT_ALLOWED
    code = "method_not_allowed"


class InvalidRequest(ApiError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "invalid_request"


def error_body(code: str, message: str, reason: str | None = None) -> dict[str, dict[str, str]]:
    """The error answer; ``reason`` (a finer machine-readable code, such as why a move is refused) when known."""
    detail = {"code": code, "message": message}
    if reason:
        detail["reason"] = reason
    return {"error": detail}
