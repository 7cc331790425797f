"""Models every function shares: the error answer, for the OpenAPI description of each route."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from http import HTTPStatus

from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from pydantic import BaseModel, Field

from common.web.errors import ERRORS

#: Every code with its status, for the OpenAPI description of ``error.code`` (one line per code).
CODES_DESCRIPTION = "A stable machine-readable code; one of:\n" + "\n".join(
    f"- `{spec.code}` ({int(spec.status)}): {spec.when}" for spec in ERRORS.values()
)


class ErrorDetail(BaseModel):
    code: str = Field(description=CODES_DESCRIPTION)
    message: str = Field(description="What is wrong, fit to show a player.")
    reason: str | None = Field(
        default=None,
        description="Why a move was refused, for a client to explain in its own language: `capture_required`, "
        "`not_your_turn`, `no_piece`, `wrong_color`, `blocked`, `ambiguous`, `unknown_move` or `game_over`. "
        "Only on refused moves.",
    )


class ErrorResponse(BaseModel):
    """Every error answer of the API: `{"error": {"code", "message"}}`."""

    error: ErrorDetail


#: How every function words these statuses, unless its own table says more.
SHARED_DESCRIPTIONS: dict[int, str] = {
    401: "No token, or not a token of any player.",
    422: "The request is wrong: the field and the reason are in the message. Nothing was stored.",
    503: "The store did not answer in time; send the same request again after `Retry-After` seconds.",
}


def error_responses(descriptions: dict[int, str], *statuses: int) -> dict[int, OpenAPIResponse]:
    """The OpenAPI ``responses`` of a route's errors: each status with its description and, but for a 304 (no
    body), the error answer's model. ``descriptions`` is the function's own wording of each status (over
    ``SHARED_DESCRIPTIONS``)."""
    wording = {**SHARED_DESCRIPTIONS, **descriptions}
    responses: dict[int, OpenAPIResponse] = {}
    for status in statuses:
        responses[status] = {"description": wording[status]}
        if status != HTTPStatus.NOT_MODIFIED:
            responses[status]["content"] = {"application/json": {"model": ErrorResponse}}
    return responses


def route_errors(descriptions: dict[int, str]) -> Callable[..., dict[int, OpenAPIResponse]]:
    """A function's ``_errors(404, 422)`` for its routes' ``responses``: ``error_responses`` in its wording."""
    return partial(error_responses, descriptions)
