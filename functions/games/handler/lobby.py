"""The lobby's routes (template.yaml, on GamesFunction): ``create_app`` of ``games.handler`` includes this
``router``, and the routes make games with the games routes' own ``GamesService`` (``games.handler.dependencies``).
Thin: models in, the ``SeekService``, views out."""

import re
from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.web.answers import created_if, no_store, tagged
from common.web.auth import CurrentPlayer, OptionalPlayer, TokenHash, viewer_id
from common.web.depends import Asker
from common.web.models import route_errors
from common.web.routes import Routes

from games.handler.dependencies import Games
from games.handler.ratings import rating_repository
from games.lobby.domain import SeekNotFound
from games.lobby.models import AcceptedSeek, SeekAnswer, SeekList, SeekRequest, SeekView
from games.lobby.repository import SeekRepository
from games.lobby.seated import PlayerBlocks, SeekGames, StoredRatings
from games.lobby.service import SeekService
from games.ratings.repository import RatingRepository
from games.views import game_view
from shared_rules.names import GameName

SEEK_ID = re.compile(r"[A-Za-z0-9_-]{12}")
#: The shape of a seek's view for its ETag (bumped when the view changes).
REPRESENTATION = "s1"

router = Routes("lobby")


def seek_repository() -> SeekRepository:
    from games.lobby.repository import DynamoSeeks

    return DynamoSeeks()


def seek_service(
    repository: Annotated[SeekRepository, Depends(seek_repository)],
    games: Games,
    ratings: Annotated[RatingRepository, Depends(rating_repository)],
) -> SeekService:
    """The lobby on the games service of the same request (its store, clock and rate limiter) and the game
    ratings."""
    log = games.log
    return SeekService(
        repository,
        SeekGames(games),
        clock=log.clock,
        limiter=log.limiter,
        ratings=StoredRatings(ratings, log.clock),
        blocks=PlayerBlocks(),
    )


Seeks = Annotated[SeekService, Depends(seek_service)]

_errors = route_errors(
    {
        304: "Your copy is current.",
        403: "Your rating is outside the challenge's range (`out_of_range`), or it is not your challenge.",
        404: "No open challenge has this id (withdrawn, expired or never made).",
        409: "Taken by someone else first (`seek_taken`), your own (`own_seek`), or you have 3 open already.",
        422: "The request is wrong: a field, an option, a range, or a cursor.",
        429: "Too many challenges made or accepted; retry after `Retry-After` seconds.",
    }
)


def _seek_id(text: str) -> str:
    if not SEEK_ID.fullmatch(text):
        raise SeekNotFound("no open challenge has this id")
    return text


def _request_headers() -> dict[str, str]:
    return {str(name).lower(): value for name, value in (router.current_event.headers or {}).items()}


@router.post(
    "/v1/seeks",
    summary="Offer a game to anyone",
    description="An open challenge in the lobby for 7 days, until someone accepts it or you withdraw it. "
    "At most 3 open at once (409 `too_many_seeks`).",
    responses={201: {"description": "The challenge, open."}, **_errors(401, 409, 422, 429, 503)},
)
def offer_seek(request: SeekRequest, seeks: Seeks, player: CurrentPlayer, client: Asker) -> Response[SeekAnswer]:
    seek = seeks.offer(
        player, request.game, request.rated, request.options, request.color, request.range(), client.address
    )
    body = SeekAnswer(seek=SeekView.of(seek, player.player_id))
    return no_store(body, HTTPStatus.CREATED)


@router.get(
    "/v1/seeks",
    summary="The open challenges of a game",
    description="Public: open, unexpired challenges, newest first, 20 a page; each with its seeker's name and "
    "rating in the game. With a token, `mine` marks your own.",
    responses={200: {"description": "A page of open challenges."}, **_errors(401, 422, 503)},
)
def list_seeks(
    seeks: Seeks,
    viewer: OptionalPlayer,
    game: Annotated[GameName, Query(description="Which game's challenges.")],
    cursor: Annotated[str | None, Query(max_length=200, description="`next` of the previous page.")] = None,
) -> Response[SeekList]:
    found, following = seeks.open_seeks(game, cursor)
    you = viewer_id(viewer)
    body = SeekList(seeks=[SeekView.of(seek, you) for seek in found], next=following)
    return no_store(body)


@router.get(
    "/v1/seeks/{id}",
    summary="One challenge",
    description="An open or taken challenge; its seeker (with their token) sees the game it made in `game_id`. "
    "Send the `ETag` back as `If-None-Match` to poll: 304 until it changes.",
    responses={200: {"description": "The challenge."}, **_errors(304, 401, 404, 503)},
)
def get_seek(id: str, seeks: Seeks, viewer: OptionalPlayer) -> Response[SeekAnswer]:
    seek = seeks.seek(_seek_id(id))
    body = SeekAnswer(seek=SeekView.of(seek, viewer_id(viewer)))
    return tagged(body, body.model_dump(mode="json"), REPRESENTATION, "no-cache", _request_headers())


@router.post(
    "/v1/seeks/{id}/accept",
    summary="Accept a challenge",
    description="Makes the game with both seats taken (the seeker's colour as asked, else drawn). Of many "
    "accepting at once exactly one gets it; sent again by the same player, the same game (200).",
    responses={
        201: {"description": "The game made, and your seat."},
        200: {"description": "You accepted it already: that game."},
        **_errors(401, 403, 404, 409, 429, 503),
    },
)
def accept_seek(id: str, seeks: Seeks, token_hash: TokenHash) -> Response[AcceptedSeek]:
    # The token is checked in the same read as the seek (``SeekService.accept_with_token``): no read of its own.
    accepted = seeks.accept_with_token(token_hash, id if SEEK_ID.fullmatch(id) else None)
    body = AcceptedSeek.model_validate({"game": game_view(accepted.head), "seat": accepted.seat})
    return no_store(body, created_if(accepted.created))


@router.delete(
    "/v1/seeks/{id}",
    summary="Withdraw your challenge",
    responses={200: {"description": "Withdrawn: the challenge as it was."}, **_errors(401, 403, 404, 409, 503)},
)
def withdraw_seek(id: str, seeks: Seeks, player: CurrentPlayer) -> Response[SeekAnswer]:
    seek = seeks.withdraw(player, _seek_id(id))
    body = SeekAnswer(seek=SeekView.of(seek, player.player_id))
    return no_store(body)
