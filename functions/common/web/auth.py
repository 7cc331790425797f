"""Who is asking: the one way a route learns its player, as a Powertools dependency.

A route that acts for a player declares ``player: CurrentPlayer``; one that only needs to know the caller
when a token is sent declares ``player: OptionalPlayer`` (``you: ViewerId`` when its id is all it needs); a route that checks the token against an item it
reads anyway (a game's seat; the player item read in one batch with the seek when a seek is accepted,
``common.players.service.player_of``) declares ``token_hash: TokenHash`` and costs no read of the player. Each raises
``Unauthorized`` (401) for a missing, malformed or unknown token; Powertools hands what a dependency raises
to the resolver's exception handler, so the answer is the same as from the route itself.

No ``from __future__ import annotations`` here (``common.web.depends`` says why).
"""

from typing import Annotated

from aws_lambda_powertools.event_handler import Depends, Request

from common.players.service import Player, Players, bearer_token, hash_token, required_token
from common.web.depends import players


def token_hash(request: Request) -> str:
    """The hash of the request's bearer token (the token itself goes no further); ``Unauthorized`` without one."""
    return hash_token(required_token(request.headers))


def current_player(request: Request, players: Annotated[Players, Depends(players)]) -> Player:
    """The player whose token the request carries (one read); ``Unauthorized`` otherwise."""
    return players.authenticate(request.headers)


def optional_player(request: Request, players: Annotated[Players, Depends(players)]) -> Player | None:
    """The player when the request sends a token (which must then be right), None when it sends none."""
    if bearer_token(request.headers, required=False) is None:
        return None
    return players.authenticate(request.headers)


CurrentPlayer = Annotated[Player, Depends(current_player)]
OptionalPlayer = Annotated[Player | None, Depends(optional_player)]
TokenHash = Annotated[str, Depends(token_hash)]


def viewer_id(player: Player | None) -> str | None:
    """Who looks at a public page (a route's ``OptionalPlayer``): the player's id when the request sends a token,
    None when it sends none. A plain function, not a dependency: each dependency is one more node Powertools
    resolves on every request."""
    return player.player_id if player else None
