"""The reactions routes (``/v1/games/{id}/reactions``): a player of the game sends one of the fixed set, or mutes
the other player's in this game (``games.service.reactions``). No free text: any other body is refused (422)."""

from aws_lambda_powertools.event_handler import Response
from common.web.answers import no_store
from common.web.auth import CurrentPlayer
from common.web.depends import Limiter
from common.web.models import route_errors
from common.web.routes import Routes

from games.handler.dependencies import Games
from games.models import MuteRequest, ReactionRequest, ReactionSent
from games.service.reactions import Reactions

router = Routes("games")

_errors = route_errors(
    {
        403: "You hold no seat in that game.",
        404: "No such game.",
        409: "The other seat is the computer's or empty, or you blocked the other player.",
        422: "Not one of the reactions (there is no free text), or the request is wrong.",
        429: "Too many reactions from your network or by you; try again after `Retry-After` seconds.",
    }
)


@router.post(
    "/v1/games/{id}/reactions",
    summary="Send a reaction",
    description="One of a fixed set of emoji and preset phrases, by its key; the other player's page words a "
    "phrase in its own language. It comes with the game's updates and is never pushed. A reaction the other "
    "player muted or cannot receive is answered the same and not shown.",
    responses=_errors(401, 403, 404, 409, 422, 429, 503),
)
def send_reaction(
    id: str, request: ReactionRequest, player: CurrentPlayer, games: Games, limiter: Limiter
) -> Response[ReactionSent]:
    limiter.charge("reactions")
    Reactions(games.log, games.players).react(player, id, request.reaction)
    return no_store(ReactionSent())


@router.post(
    "/v1/games/{id}/reactions/mute",
    summary="Mute the other player's reactions",
    description='`{"muted": true}`: their reactions in this game are no longer shown to you; `false` shows them '
    "again. Muting them for good is the page's own setting, kept in your browser with your token.",
    responses=_errors(401, 403, 404, 422, 503),
)
def mute_reactions(id: str, request: MuteRequest, player: CurrentPlayer, games: Games) -> Response[MuteRequest]:
    Reactions(games.log, games.players).mute(player, id, request.muted)
    return no_store(MuteRequest(muted=request.muted))
