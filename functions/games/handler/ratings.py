"""The ratings routes of the games function: your ratings, your rating history in a game, a leaderboard.
``games.handler.create_app`` includes this router; ``game_ratings`` is also what the games service settles
rated games with."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from common.web.answers import answer, no_store
from common.web.auth import CurrentPlayer
from common.web.depends import Now
from common.web.models import error_responses
from common.web.routes import Routes

from games.ratings.models import Leaderboard, PlayerRatings, RatingHistory
from games.ratings.repository import RatingRepository, RatingStore
from games.ratings.service import GameRatings
from shared_rules.names import GameName

router = Routes("players")

#: A leaderboard changes only when rated games end: a minute's cache spares the index.
BOARD_CACHE = "public, max-age=60"
_DESCRIPTIONS = {
    422: "The request is wrong: an unknown game, or `country` not a country's code (`invalid_country`).",
    503: "The store did not answer in time; try again after `Retry-After` seconds.",
}


def rating_repository() -> RatingRepository:
    return RatingStore()


def _answers(description: str, *errors: int) -> dict[int, OpenAPIResponse]:
    """The route's success (its schema is what it returns: ``common.web.declared``) and its errors."""
    return {200: {"description": description}, **error_responses(_DESCRIPTIONS, *errors)}


def game_ratings(store: Annotated[RatingRepository, Depends(rating_repository)], now: Now) -> GameRatings:
    return GameRatings(store, now)


Ratings = Annotated[GameRatings, Depends(game_ratings)]


@router.get(
    "/v1/players/me",
    summary="You: your name and your game ratings",
    description="One Query. `ratings` has an entry per game you have played rated.",
    responses=_answers("Your name and ratings.", 401, 503),
)
def me(ratings: Ratings, player: CurrentPlayer) -> Response[PlayerRatings]:
    mine = {
        "player_id": player.player_id,
        "name": player.name,
        "country": player.country,
        "country_hidden": player.country_hidden,
        "ratings": ratings.of_player(player.player_id),
    }
    body = PlayerRatings.model_validate(mine)
    return no_store(body)


@router.get(
    "/v1/players/me/ratings/{game}",
    summary="Your rating history in a game",
    description="The last 50 points, one per rated game (what the player's graph draws), and the rating now "
    "(its deviation grown for the weeks since the last rated game). One read.",
    responses=_answers("The points, oldest first.", 401, 422, 503),
)
def my_history(game: GameName, ratings: Ratings, player: CurrentPlayer) -> Response[RatingHistory]:
    points, now = ratings.history(player.player_id, game)
    body = RatingHistory.model_validate({"game": game, "points": points, "rating": now})
    return no_store(body)


@router.get(
    "/v1/leaderboard",
    summary="The leaderboard of a game, of everyone or of one country",
    description="The top 50 by rating among players with at least 10 rated games in the last 90 days and a "
    "rating deviation under 100; with `country`, among those whose public profile shows that country (never a "
    "player who hid it). One Query on a maintained index either way. Public; cached for a minute.",
    responses=_answers("The leaderboard.", 422, 503),
)
def leaderboard(
    ratings: Ratings,
    game: Annotated[GameName, Query(description="Which game.")],
    country: Annotated[
        str | None, Query(description="A country's ISO 3166-1 alpha-2 code in capitals (TZ, KE, PH).")
    ] = None,
) -> Response[Leaderboard]:
    body = Leaderboard.model_validate({"game": game, "country": country, "players": ratings.board(game, country)})
    return answer(body, BOARD_CACHE)
