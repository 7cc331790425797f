"""The responses of the ratings routes (and their OpenAPI description)."""

from __future__ import annotations

from typing import Annotated

from common.players.handles import PublicId
from pydantic import BaseModel, Field

from shared_rules.names import GameName


class RatingView(BaseModel):
    rating: int = Field(description="The Glicko-2 rating, in whole points (everyone starts at 1500).")
    rd: int = Field(
        description="The rating deviation: how uncertain the rating still is (350 at the start); it grows for each "
        "whole week without a rated game, up to 350."
    )
    provisional: bool = Field(description="True while `rd` is above 110: shown as `1500?`.")
    games: int = Field(description="Rated games counted in this rating.")


class PlayerRatings(BaseModel):
    player_id: PublicId = Field(description="Your public handle (what every answer shows of you).")
    name: str | None = Field(description="Your display name.")
    country: str | None = Field(default=None, description="Your country when you became a player (yours alone).")
    country_hidden: bool = Field(default=False, description="Whether you hid your country from everyone else.")
    ratings: dict[GameName, RatingView] = Field(
        description="One rating per game you have played rated (a game you have not: 1500, provisional)."
    )


class RatingHistory(BaseModel):
    game: GameName
    # Pairs as two-item lists: a tuple's schema (prefixItems) is not one OpenAPI 3.0 tools read.
    points: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(
        description="The latest points, oldest first, one per rated game: [when it ended (epoch ms), rating after]."
    )
    rating: RatingView = Field(description="The rating now (1500, provisional, before the first rated game).")


class BoardEntry(BaseModel):
    id: PublicId = Field(description="The player's public handle: `GET /v1/players/{id}` is their public profile.")
    name: str | None = Field(description="The player's display name (null for an unnamed player).")
    rating: int
    games: int = Field(description="The player's rated games of this game.")
    lookalike: int | None = Field(
        default=None,
        description="Another name on this list looks the same (the same Unicode confusables skeleton, UTS #39): "
        "the number shown after this one (2, 3, ...) to tell them apart; null for a name that stands apart.",
    )


class Leaderboard(BaseModel):
    game: GameName
    country: str | None = Field(
        default=None, description="The country whose players are listed (ISO 3166-1 alpha-2); null: everyone."
    )
    players: list[BoardEntry] = Field(
        description="At most 50, best first: players with at least 10 rated games in the last 90 days against at "
        "least 5 different opponents established when each game ended, and a rating deviation under 100."
    )
