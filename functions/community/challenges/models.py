"""The direct challenges' requests and answers, and the friends strip's."""

from __future__ import annotations

from typing import Literal

from common.players.handles import PublicId
from games.models import MAX_OPTIONS, OptionName, OptionValue
from pydantic import BaseModel, ConfigDict, Field

from community.challenges.domain import Challenge, ChallengeAction, Challenger, ColorChoice
from community.models import PLAYER_ID
from shared_rules.names import GameName


class ChallengeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: str = Field(pattern=PLAYER_ID, description="The friend's public id.")
    game: GameName = Field(description="Which game: chess, English draughts or Tanzanian draughts.")
    color: ColorChoice = Field(default="random", description="Your seat.")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict, max_length=MAX_OPTIONS, description="The game's options, as for a new game."
    )
    rated: bool = Field(default=False, description="A rated game, as for a new game.")


class ChallengeAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    action: ChallengeAction = Field(
        description="`accept` or `decline` a challenge you received; `withdraw` one you sent."
    )


class Side(BaseModel):
    player_id: PublicId
    name: str | None

    @classmethod
    def of(cls, side: Challenger) -> Side:
        return cls(player_id=side.player_id, name=side.name)


class ChallengeView(BaseModel):
    id: str
    sender: Side = Field(description="Who challenges.")
    receiver: Side = Field(description="Who is challenged.")
    game: str
    options: dict[str, OptionValue | str]
    rated: bool
    color: ColorChoice = Field(description="The sender's seat as asked.")
    at: int = Field(description="When it was sent (epoch ms).")
    lapses: int = Field(description="When it lapses unanswered (epoch ms): a day after it was sent.")
    status: Literal["open", "accepted", "declined", "withdrawn", "lapsed"]
    game_id: str | None = Field(description="The game, once accepted.")

    @classmethod
    def of(cls, challenge: Challenge, now_ms: int) -> ChallengeView:
        return cls(
            id=challenge.id,
            sender=Side.of(challenge.sender),
            receiver=Side.of(challenge.receiver),
            game=challenge.game,
            options=dict(challenge.options),
            rated=challenge.rated,
            color=challenge.color,
            at=challenge.at,
            lapses=challenge.lapses,
            status=challenge.status(now_ms),  # type: ignore[arg-type]
            game_id=challenge.game_id,
        )


class ChallengeList(BaseModel):
    received: list[ChallengeView] = Field(description="Challenges waiting for your answer, oldest first.")
    sent: list[ChallengeView] = Field(description="Your challenges of the last days, with their answers.")


class FriendView(BaseModel):
    player_id: PublicId
    name: str | None
    playing: str | None = Field(description="A game of theirs going on now that you may watch, or null.")


class FriendsStrip(BaseModel):
    friends: list[FriendView] = Field(description="Your friends (up to 30), those with a game going first.")
