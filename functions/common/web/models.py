"""Models every function shares: the error answer, for the OpenAPI description of each route, and the players'
requests and responses (``common.players.handler``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from common.web.errors import ERRORS

MAX_NAME_INPUT = 100  # names are checked to 24 characters by common.players.service; this only bounds the input


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


class _Request(BaseModel):
    # Strict, as every request model (games.models says why).
    model_config = ConfigDict(extra="forbid", strict=True)


class CreatePlayerRequest(_Request):
    name: Annotated[str, StringConstraints(max_length=MAX_NAME_INPUT)] | None = Field(
        default=None, description="An optional display name: 1 to 24 letters, digits, spaces or . ' - _"
    )


class RenameRequest(_Request):
    name: Annotated[str, StringConstraints(max_length=MAX_NAME_INPUT)] | None = Field(
        description="The new display name, or null to remove it."
    )


class NewPlayer(BaseModel):
    player_id: str = Field(description="The player's public id.")
    token: str = Field(description="The player's secret. Shown only this once: keep it; send it as a Bearer token.")
    name: str | None


class PlayerProfile(BaseModel):
    player_id: str
    name: str | None
