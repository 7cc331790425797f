"""The history's routes (template.yaml, on GamesFunction): ``create_app`` of ``games.handler`` includes this
``router``. Your games (private ones too) and another player's public games, newest first, filtered, paged."""

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Path, Query
from common.errors import DomainError
from common.players.handles import player_id_of
from common.web.answers import answer
from common.web.auth import CurrentPlayer
from common.web.depends import Now
from common.web.models import route_errors
from common.web.routes import Routes

from games.handler.dependencies import Games
from games.handler.ratings import rating_repository
from games.history.domain import HistoryFilter
from games.history.models import HistoryPage, PlayerProfile
from games.history.service import history_page, player_profile
from games.ratings.repository import RatingRepository
from shared_rules.names import GameName

router = Routes("players")

PAGE_DEFAULT, PAGE_MAX = 20, 50
#: Another player's public games may be a little stale: shared caches keep a page this long.
PUBLIC_CACHE = "public, max-age=30"
PROFILE_CACHE = "public, max-age=60"
_errors = route_errors(
    {
        404: "No such route (a player id is 1 to 32 URL-safe characters), or, for a profile, no player with a game "
        "or a rating has this id (a player who deleted their data, too).",
        422: "A filter that is not one of its values, a `limit` out of 1-50, or a cursor this API did not give.",
    }
)

Result = Annotated[Literal["win", "loss", "draw", "ongoing", "aborted"] | None, Query(description="Your result.")]
Kind = Annotated[Literal["rated", "casual", "computer", "live", "correspondence", "tournament"] | None, Query()]
Opponent = Annotated[str | None, Query(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="The opponent's public handle.")]
Handle = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="The player's public handle.")]
Cursor = Annotated[str | None, Query(max_length=400)]
Limit = Annotated[int, Query(ge=1, le=PAGE_MAX)]
_DESCRIPTION = (
    "Newest first (by when the game was created). Filters that the index cannot key are applied within a page "
    "of at most 100 games read, so a page may be short or empty while `cursor` goes on; follow it to the end."
)


@router.get(
    "/v1/players/me/history",
    summary="Your games, newest first",
    description=_DESCRIPTION + " Private games included.",
    responses=_errors(401, 422, 503),
)
def my_history(
    games: Games,
    player: CurrentPlayer,
    game: Annotated[GameName | None, Query()] = None,
    result: Result = None,
    kind: Kind = None,
    opponent: Opponent = None,
    cursor: Cursor = None,
    limit: Limit = PAGE_DEFAULT,
) -> Response[HistoryPage]:
    wanted = HistoryFilter(game, result, kind, _player(opponent))
    body = HistoryPage.model_validate(history_page(games.store, player.player_id, wanted, cursor, limit))
    return answer(body, "private, no-store")


@router.get(
    "/v1/players/{id}/games",
    summary="A player's public games, newest first",
    description=_DESCRIPTION + " Never a private game; an unknown player has none.",
    responses=_errors(422, 503),
)
def player_history(
    id: Handle,
    games: Games,
    game: Annotated[GameName | None, Query()] = None,
    result: Result = None,
    kind: Kind = None,
    opponent: Opponent = None,
    cursor: Cursor = None,
    limit: Limit = PAGE_DEFAULT,
) -> Response[HistoryPage]:
    wanted = HistoryFilter(game, result, kind, _player(opponent), public_only=True)
    body = HistoryPage.model_validate(history_page(games.store, player_id_of(id), wanted, cursor, limit))
    return answer(body, PUBLIC_CACHE)


@router.get(
    "/v1/players/{id}",
    summary="A player's public profile",
    description="The name they last played under, their ratings with the points of each graph, their all-time wins, "
    "draws and losses by game (public games against people, rated or casual) and their latest 10 public games. "
    "Two Queries; public, cached "
    "for a minute. Never a token and never a private game; an id with no public game and no rating (nobody's, or "
    "a player who deleted their data) is a 404 `player_not_found`.",
    responses=_errors(404, 422, 503),
)
def profile(
    id: Handle,
    games: Games,
    ratings: Annotated[RatingRepository, Depends(rating_repository)],
    now: Now,
) -> Response[PlayerProfile]:
    found = player_profile(games.store, ratings, player_id_of(id), int(now() * 1000))
    if not found["games_read"] and not found["ratings"] and not found["results"]:
        raise DomainError("no player with a game or a rating has this id", code="player_not_found")
    body = PlayerProfile.model_validate(found)
    return answer(body, PROFILE_CACHE)


def _player(handle: str | None) -> str | None:
    """The player id a handle names (the API shows handles only: common.players.handles)."""
    return player_id_of(handle) if handle is not None else None
