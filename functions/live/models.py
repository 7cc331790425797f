"""The live socket's requests and answers: the ticket route's answer, the messages a page sends on the socket, and
the parts of API Gateway's WebSocket events the function reads."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

GameId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{12}$")]
TournamentId = GameId  # the same shape
#: The path of the live socket on the site's origin (CloudFront's /live behaviour; the local runner's too).
SOCKET_PATH = "/live"


class LiveTicket(BaseModel):
    ticket: str = Field(description="Single use, for one connection; good for `expires_in` seconds.")
    expires_in: int = Field(description="Seconds the ticket stays good.")
    url: str = Field(description="Where to connect on the site's origin (`wss://` there, `ws://` locally).")


class SubscribeMessage(BaseModel):
    """``{"action": "subscribe", "game": id, "ply": n}``: follow a game (``ply``: the last one the page has); or
    ``{"action": "subscribe", "tournament": id}``: follow a tournament's pairings and standings."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: Literal["subscribe"]
    game: GameId | None = None
    ply: Annotated[int, Field(ge=0, le=100_000)] | None = None
    tournament: TournamentId | None = None

    @model_validator(mode="after")
    def one_topic(self) -> SubscribeMessage:
        if (self.game is None) == (self.tournament is None) or (self.tournament is not None and self.ply is not None):
            raise ValueError("a game (with its ply) or a tournament")
        return self


class _Event(BaseModel):
    model_config = ConfigDict(extra="ignore")


class SocketContext(_Event):
    routeKey: str
    connectionId: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    eventType: Literal["CONNECT", "DISCONNECT", "MESSAGE"]


class SocketEvent(_Event):
    """What API Gateway gives the function for a WebSocket route (its proxy integration's event)."""

    requestContext: SocketContext
    headers: dict[str, str] | None = None
    queryStringParameters: dict[str, str] | None = None
    body: str | None = None
    isBase64Encoded: bool = False
