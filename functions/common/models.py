"""Models every function shares: the error answer, for the OpenAPI description of each route."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable machine-readable code, such as `illegal_move` or `invalid_json`.")
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
