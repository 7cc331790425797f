"""CommunityFunction: follows and friends (``/v1/players/me/follows``) and feedback (``/v1/feedback``); routes in
template.yaml. Thin: the models check the request, ``community.service`` acts, the repository stores."""

from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from common.players.handles import player_id_of
from common.web.answers import created_if, no_store
from common.web.api import Api
from common.web.auth import CurrentPlayer, TokenHash
from common.web.depends import Limiter, Now, PlayerStorage
from common.web.models import route_errors
from common.web.routes import Routes
from games.handler.dependencies import Games

from community.challenges import handler as challenge_routes
from community.challenges.repository import ChallengeRepository
from community.domain import FEEDBACK_DAYS, Friendly
from community.erasure import StoredErasure
from community.exports import StoredPlayerData
from community.games import StoredOpponents
from community.models import (
    DataDeleted,
    DataExport,
    FeedbackReceived,
    FeedbackRequest,
    FollowList,
    FollowRequest,
    FollowView,
    Unfollowed,
    UnfollowRequest,
)
from community.repository import CommunityRepository
from community.service import Community, Erasure, Opponents, PlayerData

FOLLOWS = "/v1/players/me/follows"


def opponents() -> Opponents:
    return StoredOpponents()


def community(
    repository: Annotated[CommunityRepository, Depends(challenge_routes.community_repository)],
    players: PlayerStorage,
    now: Now,
) -> Community:
    return Community(repository, players, now)


Service = Annotated[Community, Depends(community)]

_errors = route_errors(
    {
        403: "You hold no seat in that game.",
        404: "No such player or game, or you do not follow this player.",
        409: "You blocked that player, it is yourself, the game has no other player, or you follow the most already.",
        429: "Too many changes from your network or by you; try again after `Retry-After` seconds.",
    }
)

router = Routes("community")


@router.post(
    FOLLOWS,
    summary="Follow a player",
    description="By their public id (their friend link, their profile) or as the other player of one of your games. "
    "Two players who follow each other are friends. Following the same player again answers 200 with the follow. "
    "A block in either direction refuses it (a block by the other player reads as no such player).",
    responses={201: {"description": "The follow (new)."}, **_errors(401, 403, 404, 409, 422, 429, 503)},
)
def follow(
    request: FollowRequest,
    player: CurrentPlayer,
    service: Service,
    games: Annotated[Opponents, Depends(opponents)],
    limiter: Limiter,
) -> Response[FollowView]:
    limiter.charge("follows")
    if request.game is not None:
        made, new = service.follow_opponent(player, request.game, games)
    else:
        made, new = service.follow(player, player_id_of(str(request.player)), games)
    friends = made.player_id in service.repository.followers(player.player_id)
    body = FollowView.of(Friendly(made, friends))
    return no_store(body, created_if(new))


@router.get(
    FOLLOWS,
    summary="The players you follow",
    description="Oldest first, each marked `friend` when they follow you too; with your own public id, which your "
    "friend link carries. Reading it makes you followable by that id.",
    responses=_errors(401, 503),
)
def list_follows(player: CurrentPlayer, service: Service) -> Response[FollowList]:
    service.introduce(player)
    body = FollowList(player_id=player.player_id, follows=[FollowView.of(item) for item in service.follows(player)])
    return no_store(body)


@router.delete(
    FOLLOWS,
    summary="Stop following a player",
    description='Sent as `{"player": id}`.',
    responses=_errors(401, 404, 422, 429, 503),
)
def unfollow(
    request: UnfollowRequest, player: CurrentPlayer, service: Service, limiter: Limiter
) -> Response[Unfollowed]:
    limiter.charge("follows")
    service.unfollow(player, player_id_of(request.player))
    return no_store(Unfollowed())


@router.post(
    "/v1/feedback",
    summary="Send feedback",
    description="A category and up to 1,000 characters, in the page's language. No account, no e-mail: the feedback "
    f"is tied to no player and deleted after {FEEDBACK_DAYS} days.",
    responses={201: {"description": "Received."}, **_errors(422, 429, 503)},
)
def send_feedback(request: FeedbackRequest, service: Service, limiter: Limiter) -> Response[FeedbackReceived]:
    limiter.charge("feedback")
    service.send_feedback(request.category, request.text, request.lang)
    return no_store(FeedbackReceived(kept_days=FEEDBACK_DAYS), HTTPStatus.CREATED)


def player_data() -> PlayerData:
    return StoredPlayerData()


@router.get(
    "/v1/players/me/export",
    summary="Download my data",
    description="Everything stored about you as JSON: your player item (name, puzzles, blocks), your community card, "
    "follows and followers, game ratings and push subscriptions. Your games are in your history and each game's export.",
    responses=_errors(401, 429, 503),
)
def export_my_data(
    player: CurrentPlayer, service: Service, elsewhere: Annotated[PlayerData, Depends(player_data)], limiter: Limiter
) -> Response[DataExport]:
    limiter.charge("data_exports")
    body = DataExport(**service.export(player, elsewhere))
    return no_store(body, headers={"Content-Disposition": 'attachment; filename="ubao-my-data.json"'})


def erasure(games: Games) -> Erasure:
    return StoredErasure(games.log)


@router.delete(
    "/v1/players/me",
    summary="Delete my data",
    description="Your name, follows (and the follows of you), your card and challenges, clubs (those you own are "
    "closed, those you joined left), game ratings, push subscriptions and rate-limit buckets are deleted, and "
    'your token stops working. Your games keep their moves, with your seat as "a former player" (a game still '
    "going is resigned first). Feedback is tied to no player. Sending it again answers the same.",
    responses=_errors(401, 503),
)
def delete_my_data(
    token: TokenHash,
    players: PlayerStorage,
    service: Service,
    elsewhere: Annotated[Erasure, Depends(erasure)],
    challenges: Annotated[ChallengeRepository, Depends(challenge_routes.challenge_repository)],
) -> Response[DataDeleted]:
    player = players.get(token)
    if player is not None:  # gone already: the same answer (nothing is left to delete)
        service.delete(player, elsewhere, challenges)
    # The browser's HTTP cache may still hold this player's answers (a profile is cached for a minute):
    # Clear-Site-Data has the browser drop the site's cached responses, so none is shown again on this device.
    return no_store(DataDeleted(), headers={"Clear-Site-Data": '"cache"'})


def create_app() -> Api:
    app = Api()
    app.include_router(router)
    app.include_router(challenge_routes.router)  # /v1/players/me/challenges, /v1/players/me/friends
    return app


app = create_app()
lambda_handler = app.lambda_handler
