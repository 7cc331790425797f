"""The history's answers (pydantic): a page of a player's games, newest first."""

from __future__ import annotations

from typing import Literal

from common.players.handles import OptionalPublicId, PublicId
from pydantic import BaseModel, Field

from shared_rules.names import Colour, GameName


class HistoryOpponent(BaseModel):
    id: OptionalPublicId = Field(
        description="The opponent's public handle (null: the computer, or nobody has joined yet)."
    )
    name: str | None
    cpu_level: int | None = Field(description="The computer's level when the opponent is the computer.")


class HistoryGame(BaseModel):
    id: str = Field(description="The game: `GET /v1/games/{id}` steps through it, with its review and export.")
    game: GameName
    color: Colour = Field(description="The player's seat.")
    opponent: HistoryOpponent
    result: Literal["win", "loss", "draw", "ongoing", "aborted"] = Field(
        description="The game's result for the player (`aborted`: ended too soon to count, fair play's rule)."
    )
    reason: str | None = Field(description="How it ended (`checkmate`, `resignation`, ...); null while it goes on.")
    rating_change: int | None = Field(description="The player's rating change (whole points) in a rated game.")
    rated: bool
    computer: bool = Field(description="A game against the computer.")
    live: bool = Field(description="A live table (seconds a turn) rather than by correspondence.")
    private: bool = Field(description="A private game: only its players see it.")
    created_at: str


class HistoryPage(BaseModel):
    games: list[HistoryGame] = Field(description="Newest first; a filtered page may be short, even empty.")
    cursor: str | None = Field(
        description="Pass as `cursor` for the next page (with the same filters); null once every game was read."
    )


class ProfileRating(BaseModel):
    rating: int
    rd: int
    provisional: bool
    games: int = Field(description="Rated games of this game.")
    points: list[list[int]] = Field(description="The last 50 points of the graph: [ended at (epoch ms), rating].")


class ResultCounts(BaseModel):
    win: int
    draw: int
    loss: int


class PlayerProfile(BaseModel):
    id: PublicId = Field(description="The player's public handle.")
    name: str | None = Field(description="The name the player last played under (null: none, or no game yet).")
    country: str | None = Field(
        default=None,
        description="Where the player was when they became a player (ISO 3166-1 alpha-2, from CloudFront); null "
        "when unknown or when the player hid it.",
    )
    ratings: dict[GameName, ProfileRating] = Field(description="One per game played rated.")
    results: dict[GameName, ResultCounts] = Field(
        description="All-time wins, draws and losses by game: every finished public game against another person, "
        "rated or casual (tournament games too); never a game against the computer, a private game or an aborted "
        'one (docs/games.md, "Wins, draws and losses").'
    )
    games_read: int = Field(description="The newest public games read for `name` and `recent` (100 at most).")
    recent: list[HistoryGame] = Field(description="The newest public games (10 at most).")
