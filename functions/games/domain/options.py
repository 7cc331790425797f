"""The site's own options of a game (``days_per_move``, ``swap_colors``, ``turn_seconds``, ``rated``), checked
by one model; every other option of a game belongs to the rules layer, which checks its own. ``rated`` is set
by the request's own field (``CreateGameRequest.rated``), never among the options, and kept in the stored
options so a rematch keeps it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from games.domain.errors import InvalidGameOption
from shared_rules import get_game

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
    #: A rated game changes both players' game ratings when it ends; a casual one does not.
    rated: bool = False
    #: A private game (a friend's game): only its two players see it in lists and histories (docs/games.md).
    private: bool = False


#: The site's options; every other option is the rules layer's.
GAME_OPTIONS = tuple(SiteOptions.model_fields)

_REFUSALS = {
    "days_per_move": f"option 'days_per_move' must be a whole number from {MIN_DAYS_PER_MOVE} to {MAX_DAYS_PER_MOVE}",
    "swap_colors": "option 'swap_colors' must be true or false",
    "turn_seconds": "option 'turn_seconds' must be 30, 60, or null for a game by correspondence",
    "rated": "'rated' is a field of the request, not an option",
    "private": "option 'private' must be true or false",
}
#: The options a client may send among ``options`` (``rated`` has a field of its own).
CLIENT_OPTIONS = ("days_per_move", "swap_colors", "turn_seconds", "private")


def site_options(options: Mapping[str, Any], rated: bool = False) -> SiteOptions:
    """The site's options among ``options`` (the defaults for those not given) and ``rated``;
    ``InvalidGameOption`` if one is wrong (the first of them, in the order of ``GAME_OPTIONS``)."""
    if "rated" in options:
        raise InvalidGameOption(_REFUSALS["rated"])
    try:
        return SiteOptions.model_validate(
            {"rated": rated, **{name: options[name] for name in CLIENT_OPTIONS if name in options}}
        )
    except ValidationError as error:
        raise InvalidGameOption(_REFUSALS[str(error.errors()[0]["loc"][0])]) from None


def rules_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the rules layer reads: all but the site's."""
    return {name: value for name, value in options.items() if name not in GAME_OPTIONS}


def new_game_options(game: str, options: Mapping[str, Any], rated: bool) -> dict[str, Any]:
    """Every option of a new game, defaults filled in: ``InvalidGameOption``, or the rules layer's
    ``RulesError`` (422), for an unknown or bad one."""
    site = site_options(options, rated=rated)
    rules = get_game(game, rules_options(options))
    # No turn limit, or a public game: stored as before those options existed.
    stored = site.model_dump(exclude_none=True)
    if not site.private:
        del stored["private"]
    return {**rules.options, **stored}
