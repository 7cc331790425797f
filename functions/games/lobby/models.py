"""Requests and responses of the lobby's routes (also their OpenAPI description)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.lobby.domain import Seek
from games.models import MAX_OPTIONS, GameState, OptionName, OptionValue
from shared_rules.names import Colour, GameName

#: Bounds of a rating range: far beyond any rating Glicko-2 gives, so no honest range is refused.
RATING_MIN, RATING_MAX = 0, 4000
Rating = Annotated[int, Field(ge=RATING_MIN, le=RATING_MAX)]


class SeekRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: GameName = Field(description="Which game: chess, English draughts or Tanzanian draughts.")
    rated: bool = Field(description="Rated (the game changes both players' ratings) or casual.")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="The game's table options, as `POST /v1/games` takes them and checked the same way.",
    )
    color: Colour | None = Field(default=None, description="Your colour; none: drawn when someone accepts.")
    rating_range: list[Rating] | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="`[lo, hi]`: only players rated lo to hi in this game may accept.",
    )

    @model_validator(mode="after")
    def _range_in_order(self) -> SeekRequest:
        if self.rating_range is not None and self.rating_range[0] > self.rating_range[1]:
            raise ValueError("rating_range must be [lo, hi] with lo at most hi")
        return self

    def range(self) -> tuple[int, int] | None:
        return None if self.rating_range is None else (self.rating_range[0], self.rating_range[1])


class SeekerView(BaseModel):
    name: str | None = Field(description="The seeker's display name (never a token or a player id).")
    rating: int = Field(description="The seeker's rating in this game when they made the challenge.")
    provisional: bool = Field(description="True while the rating is still uncertain (shown with `?`).")


class SeekView(BaseModel):
    id: str
    game: GameName
    rated: bool
    options: dict[str, OptionValue] = Field(description="Every option of the game to be, defaults filled in.")
    color: Colour | None = Field(description="The seeker's colour, or null: drawn on acceptance.")
    rating_range: tuple[int, int] | None
    seeker: SeekerView
    created: int = Field(description="When it was made (epoch ms).")
    expires: int = Field(description="When it lapses unless accepted (epoch ms): 7 days after `created`.")
    state: Literal["open", "taken"] = Field(description="`taken` once someone accepted it.")
    mine: bool = Field(description="Whether the player asking (by their token) made it.")
    game_id: str | None = Field(
        description="The game it made, once taken: shown to its seeker and to the player who took it only."
    )

    @staticmethod
    def of(seek: Seek, viewer_id: str | None) -> SeekView:
        involved = viewer_id is not None and viewer_id in (seek.seeker.player_id, seek.taker_id)
        data: dict[str, Any] = {
            "id": seek.id,
            "game": seek.game,
            "rated": seek.rated,
            "options": dict(seek.options),
            "color": seek.color,
            "rating_range": seek.rating_range,
            "seeker": {
                "name": seek.seeker.name,
                "rating": seek.seeker.rating.rating,
                "provisional": seek.seeker.rating.provisional,
            },
            "created": seek.created,
            "expires": seek.expires,
            "state": "taken" if seek.state == "taken" else "open",
            "mine": viewer_id == seek.seeker.player_id,
            "game_id": seek.game_id if involved else None,
        }
        return SeekView.model_validate(data)


class SeekAnswer(BaseModel):
    seek: SeekView


class SeekList(BaseModel):
    seeks: list[SeekView] = Field(description="Open challenges of the game, newest first.")
    next: str | None = Field(description="The cursor of the next page (send it as `cursor`); null at the end.")


class AcceptedSeek(BaseModel):
    game: GameState
    seat: Colour = Field(description="Your seat.")
