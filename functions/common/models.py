"""Models every function shares: the error answer, for the OpenAPI description of each route."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable machine-readable code, such as `illegal_move` or `invalid_json`.")
    message: str = Field(description="What is wrong, fit to show a player.")


class ErrorResponse(BaseModel):
    """Every error answer of the API: `{"error": {"code", "message"}}`."""

    error: ErrorDetail
