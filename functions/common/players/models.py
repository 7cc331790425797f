"""The players routes' requests and responses."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from common.players.handles import PublicId

MAX_NAME_INPUT = 100  # names are checked to 24 characters by common.players.domain; this only bounds the input


class _Request(BaseModel):
    # Strict, as every request model (games.models says why).
    model_config = ConfigDict(extra="forbid", strict=True)


class CreatePlayerRequest(_Request):
    name: Annotated[str, StringConstraints(max_length=MAX_NAME_INPUT)] | None = Field(
        default=None, description="An optional display name: 1 to 24 letters, digits, spaces or . ' - _"
    )


class RenameRequest(_Request):
    name: Annotated[str, StringConstraints(max_length=MAX_NAME_INPUT)] | None = Field(
        default=None, description="The new display name, or null to remove it (absent: unchanged)."
    )
    country_hidden: bool | None = Field(
        default=None, description="True hides your country from everyone else; false shows it (absent: unchanged)."
    )

    @model_validator(mode="after")
    def _something(self) -> RenameRequest:
        if not {"name", "country_hidden"} & self.model_fields_set:
            raise ValueError("send a name, country_hidden or both")
        return self


class NewPlayer(BaseModel):
    player_id: PublicId = Field(
        description="The player's public handle: what every answer shows of a player (their id stays on the server)."
    )
    token: str = Field(description="The player's secret. Shown only this once: keep it; send it as a Bearer token.")
    name: str | None


class PlayerProfile(BaseModel):
    player_id: PublicId
    name: str | None
    country: str | None = Field(default=None, description="Your country when you became a player (yours alone).")
    country_hidden: bool = Field(default=False, description="Whether you hid your country from everyone else.")
