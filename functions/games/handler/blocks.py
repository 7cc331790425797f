"""The blocks routes (``/v1/players/me/blocks``): a player blocks the opponent of one of their games, lists
and removes blocks. Served by the games function, which reads the game to find the opponent; the blocks
themselves are ``common.players.blocks``. No answer names a player id: a block is known by its own id.
"""

import re
from http import HTTPStatus

from aws_lambda_powertools.event_handler import Response
from common.players.blocks import BlockNotFound, add_block, blocks_of, remove_block
from common.players.domain import Block
from common.web.answers import created_if, no_store
from common.web.auth import CurrentPlayer
from common.web.depends import Limiter, Now, PlayerStorage
from common.web.models import route_errors
from common.web.routes import Routes

from games.domain import iso, other
from games.domain.errors import Conflict, Forbidden
from games.handler.dependencies import Games
from games.models import BlockList, BlockRequest, BlockView

router = Routes("players")

_errors = route_errors(
    {
        403: "You hold no seat in that game.",
        404: "No such game, or no block with this id.",
        409: "That game has no other player to block, or you keep the most blocks already.",
        422: "The request is wrong.",
        429: "Too many blocks changed from your network or by you; try again after `Retry-After` seconds.",
    }
)


def _view(block: Block) -> BlockView:
    return BlockView(id=block.id, name=block.name, game=block.game, created_at=iso(block.at) or "")


BLOCK_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


@router.post(
    "/v1/players/me/blocks",
    summary="Block the opponent of one of your games",
    description="From then on neither of you can offer the other a rematch, the opponent cannot join your games "
    "or send you notifications. Blocking the same player again returns the same block (200).",
    responses={201: {"description": "The block."}, **_errors(401, 403, 404, 409, 422, 429, 503)},
)
def block_player(
    request: BlockRequest,
    player: CurrentPlayer,
    players: PlayerStorage,
    games: Games,
    limiter: Limiter,
    now: Now,
) -> Response[BlockView]:
    limiter.charge("blocks")
    head = games.head(request.game)
    color = head.seat_of(player.token_hash)
    if color is None:
        raise Forbidden("you hold no seat in this game", code="not_a_player")
    opponent = head.seat(other(color))
    if opponent is None or opponent.player_id is None:
        raise Conflict("this game has no other player to block", code="no_opponent", game=head)
    known = {block.id for block in blocks_of(players.get(player.token_hash))}
    block = add_block(players, player.token_hash, opponent.player_id, opponent.name, head.id, int(now() * 1000))
    return no_store(_view(block), created_if(block.id not in known))


@router.get(
    "/v1/players/me/blocks",
    summary="The players you blocked",
    responses=_errors(401, 503),
)
def list_blocks(player: CurrentPlayer, players: PlayerStorage) -> Response[BlockList]:
    blocks = [_view(block) for block in blocks_of(players.get(player.token_hash))]
    return no_store(BlockList(blocks=blocks))


@router.delete(
    "/v1/players/me/blocks/{id}",
    summary="Remove a block",
    responses={204: {"description": "Removed."}, **_errors(401, 404, 429, 503)},
)
def unblock(id: str, player: CurrentPlayer, players: PlayerStorage, limiter: Limiter) -> Response[str]:
    limiter.charge("blocks")
    if not BLOCK_ID.fullmatch(id or ""):
        raise BlockNotFound("you have no block with this id")  # no odd text goes into the store's key
    remove_block(players, player.token_hash, id)
    return Response(HTTPStatus.NO_CONTENT, None, "", headers={"Cache-Control": "no-store"})
