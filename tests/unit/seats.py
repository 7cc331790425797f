"""Two players by colour and a game between them, for the games service's tests on the in-memory store."""

from __future__ import annotations

from common.players.service import Player, hash_token
from games.service import GamesService

TOKENS = {"white": "ubao_" + "w" * 43, "black": "ubao_" + "b" * 43}
PLAYERS = {
    color: Player(player_id=f"p-{color}", token_hash=hash_token(TOKENS[color]), name=color.title()) for color in TOKENS
}


def started(service: GamesService, game: str = "chess", options: dict | None = None) -> str:
    """A game White made and Black joined; its id."""
    outcome = service.create(PLAYERS["white"], game, "white", options or {}, None)
    assert outcome.invite is not None
    service.join(PLAYERS["black"], outcome.head.id, outcome.invite["code"])
    return outcome.head.id
