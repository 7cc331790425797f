"""The players routes, in one Powertools ``Router`` (``APIGatewayHttpRouter``): a function that serves them (template.yaml routes them
to GamesFunction) includes it with ``app.include_router(players.handler.router)``.

A player is a token (shown once) and an optional display name; ``common.players.service`` does the work.
"""

from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends

from common.players.domain import viewer_country
from common.players.models import CreatePlayerRequest, NewPlayer, PlayerProfile, RenameRequest
from common.players.service import Players
from common.ratings.repository import CardRepository
from common.web.answers import no_store
from common.web.auth import CurrentPlayer
from common.web.depends import Limiter, Now, card_repository, players
from common.web.models import route_errors
from common.web.routes import Routes

router = Routes("players")

_errors = route_errors({422: "The request is wrong: a field."})


@router.post(
    "/v1/players",
    summary="Become a player",
    description="Makes a player and returns its token, once. Keep the token; send it as "
    "`Authorization: Bearer <token>` to act for the player. The player's country is CloudFront's "
    "`CloudFront-Viewer-Country` (ISO 3166-1 alpha-2; none without it), kept for the player, who may hide it.",
    responses={201: {"description": "The new player and its token."}, **_errors(422, 503)},
)
def create_player(
    players: Annotated[Players, Depends(players)],
    limiter: Limiter,
    now: Now,
    cards: Annotated[CardRepository, Depends(card_repository)],
    request: CreatePlayerRequest | None = None,
) -> Response[NewPlayer]:
    limiter.charge("players")  # per source address (docs/limits.md)
    country = viewer_country(_header(COUNTRY_HEADER))
    player, token = players.create(request.name if request else None, int(now() * 1000), country)
    if player.shown_country:  # no card without a country: the profile then shows none, at no write
        cards.save_card(player.player_id, player.shown_country)
    body = NewPlayer(player_id=player.player_id, token=token, name=player.name)
    return no_store(body, HTTPStatus.CREATED)


@router.patch(
    "/v1/players/me",
    summary="Set your display name, or hide your country",
    description="`name` sets the display name (null removes it); `country_hidden` hides the country the player "
    "was made in from everyone else (false shows it again). Either or both.",
    responses=_errors(401, 422, 503),
)
def rename_player(
    request: RenameRequest,
    player: CurrentPlayer,
    players: Annotated[Players, Depends(players)],
    limiter: Limiter,
    cards: Annotated[CardRepository, Depends(card_repository)],
) -> PlayerProfile:
    limiter.charge("renames")
    if "name" in request.model_fields_set:
        player = players.rename(player, request.name)
    if request.country_hidden is not None:
        player = players.hide_country(player, request.country_hidden)
        cards.save_card(player.player_id, player.shown_country)  # the public card and its copies follow the choice
    return PlayerProfile(
        player_id=player.player_id, name=player.name, country=player.country, country_hidden=player.country_hidden
    )


#: CloudFront's viewer country (the /v1/* behaviour's managed AllViewerExceptHostHeader policy forwards it).
COUNTRY_HEADER = "cloudfront-viewer-country"


def _header(name: str) -> str | None:
    return next((value for key, value in (router.current_event.headers or {}).items() if key.lower() == name), None)
