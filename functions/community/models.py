"""The community routes' requests and answers."""

from __future__ import annotations

from typing import Any, Literal

from common.players.handles import PublicId
from pydantic import BaseModel, ConfigDict, Field, model_validator

from community.domain import MAX_FEEDBACK_CHARS, FeedbackCategory, Friendly

PLAYER_ID = r"^[A-Za-z0-9_-]{8,40}$"
GAME_ID = r"^[A-Za-z0-9_-]{12}$"


class FollowRequest(BaseModel):
    """Whom to follow: a player by id (their link or profile), or the other player of one of your games."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player: str | None = Field(default=None, pattern=PLAYER_ID, description="A player's public id.")
    game: str | None = Field(default=None, pattern=GAME_ID, description="A game of yours: follow its other player.")

    @model_validator(mode="after")
    def _one_of(self) -> FollowRequest:
        if (self.player is None) == (self.game is None):
            raise ValueError("send exactly one of 'player' and 'game'")
        return self


class UnfollowRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: str = Field(pattern=PLAYER_ID, description="The public id of a player you follow.")


class FollowView(BaseModel):
    player_id: PublicId
    name: str | None = Field(description="Their name, if they chose one.")
    friend: bool = Field(description="They follow you too.")
    since: int = Field(description="When you followed them (epoch ms).")

    @classmethod
    def of(cls, friendly: Friendly) -> FollowView:
        follow = friendly.follow
        return cls(player_id=follow.player_id, name=follow.name, friend=friendly.friend, since=follow.since)


class FollowList(BaseModel):
    player_id: PublicId = Field(description="Your own public handle: your friend link is the community page with it.")
    follows: list[FollowView]


class Unfollowed(BaseModel):
    unfollowed: Literal[True] = True


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    category: FeedbackCategory
    text: str = Field(min_length=1, max_length=MAX_FEEDBACK_CHARS, description="What you want to tell us.")
    lang: Literal["sw", "tl", "en"] = Field(description="The page's language, for the thank-you and the reader.")

    @model_validator(mode="after")
    def _not_blank(self) -> FeedbackRequest:
        if not self.text.strip():
            raise ValueError("the text is empty")
        return self


class FeedbackReceived(BaseModel):
    received: Literal[True] = True
    kept_days: int = Field(description="How long the feedback is kept before it is deleted.")


class DataExport(BaseModel):
    """Everything ubao stores about you (docs/community.md): your games are in your history and each game's export."""

    player: dict[str, Any] = Field(description="Your item of the players table, without your token's hash.")
    card: dict[str, Any] | None
    follows: list[dict[str, Any]]
    followers: list[str] = Field(description="The public ids of the players who follow you.")
    ratings: list[dict[str, Any]]
    results: list[dict[str, Any]] = Field(
        description="Your wins, draws and losses in each game as your profile shows them, with the last games counted."
    )
    push_subscriptions: list[dict[str, Any]]


class DataDeleted(BaseModel):
    deleted: Literal[True] = True
