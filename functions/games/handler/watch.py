"""Tazama's route (template.yaml, on GamesFunction): the games being played now, for anyone to follow."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.web.answers import answer
from common.web.depends import Now
from common.web.models import route_errors
from common.web.routes import Routes

from games.handler.dependencies import Games
from games.models import LiveGames
from games.watch.service import live_games
from shared_rules.names import GameName

router = Routes("games")

#: One read serves every watcher for this long (CloudFront and browsers keep it): a new live table shows
#: within a poll plus this, and the Query runs at most once per game per 15 s at the edge.
LIVE_CACHE = "public, max-age=15"
_errors = route_errors({422: "`game` is missing or not one of the games."})


@router.get(
    "/v1/games/live",
    summary="Games being played now",
    description="At most 50 games of `game` between two people, never a private one: live tables first, the "
    "top-rated first (the two ratings when the table started), then games by correspondence with a move in the "
    "last hour, the latest active first. One Query of a sparse "
    "index, never a scan; public and cached for 15 s. Follow one with `GET /v1/games/{id}` as any spectator.",
    responses=_errors(422, 503),
)
def on_air(
    games: Games,
    now: Now,
    game: Annotated[GameName, Query(description="Which game.")],
) -> Response[LiveGames]:
    body = LiveGames.model_validate({"game": game, "games": live_games(games.store, game, int(now() * 1000))})
    return answer(body, LIVE_CACHE)
