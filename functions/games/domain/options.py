"""The site's own options of a game (``days_per_move``, ``swap_colors``, ``turn_seconds``), checked by one
model; every other option of a game belongs to the rules layer, which checks its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from games.errors import InvalidGameOption

DEFAULT_DAYS_PER_MOVE = 3
MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1, 14
#: A live table's turn time limits (seconds); none (null) is a game by correspondence, ``days_per_move`` a turn.
TURN_SECONDS = (30, 60)


class SiteOptions(BaseModel):
    """Strict: a boolean is not a number of days, and a number is not a yes or no."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    days_per_move: int = Field(default=DEFAULT_DAYS_PER_MOVE, ge=MIN_DAYS_PER_MOVE, le=MAX_DAYS_PER_MOVE)
    swap_colors: bool = True
    #: A live table: each turn has this many seconds on the server's clock (None: by correspondence).
    turn_seconds: Literal[30, 60] | None = None


#: The site's options; every other option is the rules layer's.
GAME_OPTIONS = tuple(SiteOptions.model_fields)

_REFUSALS = {
    "days_per_move": f"option 'days_per_move' must be a whole number from {MIN_DAYS_PER_MOVE} to {MAX_DAYS_PER_MOVE}",
    "swap_colors": "option 'swap_colors' must be true or false",
    "turn_seconds": "option 'turn_seconds' must be 30, 60, or null for a game by correspondence",
}


def site_options(options: Mapping[str, Any]) -> SiteOptions:
    """The site's options among ``options`` (the defaults for those not given); ``InvalidGameOption`` if one
    is wrong (the first of them, in the order of ``GAME_OPTIONS``)."""
    try:
        return SiteOptions.model_validate({name: options[name] for name in GAME_OPTIONS if name in options})
    except ValidationError as error:
        raise InvalidGameOption(_REFUSALS[str(error.errors()[0]["loc"][0])]) from None


def rules_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the rules layer reads: all but the site's."""
    return {name: value for name, value in options.items() if name not in GAME_OPTIONS}
