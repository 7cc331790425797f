"""Requests and responses of the puzzles routes. These models are also the OpenAPI description."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared_rules.names import GameName

Color = Literal["white", "black"]

#: Bounds no honest request reaches (the longest solution has 10 solver moves), so one request costs little.
MAX_MOVES = 32
MAX_MOVE_CHARS = 64

MoveText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE_CHARS)]


class AttemptRequest(BaseModel):
    # A misspelt field is an error, not silently ignored; strict: no text or boolean read as a number, no
    # float as a whole number, no "yes" as a boolean (a client that sent them meant something else).
    model_config = ConfigDict(extra="forbid", strict=True)

    moves: list[MoveText] = Field(
        min_length=1,
        max_length=MAX_MOVES,
        description="The solver's moves so far, from the puzzle's position, without the opponent's answers: "
        "SAN or UCI for chess (`Qxf7#`, `h5f7`), PDN for draughts (`22x15x6`, `c3-d4`).",
    )


class PuzzleView(BaseModel):
    """A puzzle as a player sees it before solving it: never the solution."""

    id: str = Field(description="The puzzle's id: its game, a dash and its own id (case-sensitive).")
    game: GameName
    fen: str = Field(description="The position, with the solver to move (chess FEN or draughts PDN FEN).")
    turn: Color = Field(description="The solver's colour.")
    rating: int = Field(
        description="How hard the puzzle is, on the players' rating scale: it moves with players' results."
    )
    themes: list[str] = Field(description="What the puzzle is about (`fork`, `mateIn2`, `shot`, `breakthrough`...).")


class PersonalPuzzleView(PuzzleView):
    """One of your personal puzzles (``source=mine``): made by a game review from your own mistake."""

    from_game: str = Field(description="The id of the game whose review made it.")
    ply: int = Field(description="The move of that game it comes from (1 for the first).")
    kind: Literal["missed", "punish"] | None = Field(
        default=None,
        description="`missed`: the position before your mistake, your move to find the better one; `punish`: the "
        "position after it, your opponent's move to punish it. None for a puzzle made before this was kept.",
    )
    played: str | None = Field(default=None, description="The move you played there (the mistake), in notation.")


class PuzzlePack(BaseModel):
    puzzles: list[PuzzleView] = Field(description="Puzzles you have never finished, nearest your rating first.")


class DailyPuzzle(PuzzleView):
    date: str = Field(description="The UTC date (YYYY-MM-DD) whose daily puzzle this is.")


class AttemptResult(BaseModel):
    result: Literal["continue", "solved", "failed"] = Field(
        description="`continue`: right so far, the opponent answered `reply`; `solved`; or `failed`."
    )
    reply: str | None = Field(description="The opponent's answer, when the result is `continue`.")
    solution: list[str] | None = Field(
        description="The whole line (the solver's and the opponent's moves), when the result is `failed` and "
        "the caller is a player whose first finished attempt at this puzzle failed (stored before this answer). "
        "Never without a token."
    )
    source: str | None = Field(description="Where the puzzle comes from (a Lichess puzzle page, or ubao's generator).")
    rated: bool | None = Field(
        default=None,
        description="With a token, once the attempt is finished: whether it counted (the first finished attempt "
        "at a puzzle counts for the rating, counts and streak; later ones do not).",
    )
    rating: float | None = Field(default=None, description="With a token, once finished: your puzzle rating now.")
    rating_change: float | None = Field(
        default=None, description="With a token, once finished: what this attempt changed."
    )


class RecentAttempt(BaseModel):
    id: str
    game: GameName
    result: Literal["solved", "failed"]
    at: str = Field(description="When (ISO 8601, UTC).")
    rating_change: float


class HistoryEntry(BaseModel):
    id: str
    game: GameName
    result: Literal["solved", "failed"]


class PuzzleProgress(BaseModel):
    rating: float = Field(description="Your puzzle rating (Glicko-2; 1500 to start).")
    rating_deviation: float = Field(description="How uncertain the rating is (350 to start; it shrinks as you play).")
    volatility: float = Field(description="Glicko-2's volatility: how erratic your results are (0.06 to start).")
    solved: int = Field(description="Puzzles solved at the first attempt.")
    failed: int = Field(description="Puzzles failed at the first attempt.")
    streak: int = Field(
        description="Your days in a row with a daily puzzle solved (0 once one is missed); one per day at most."
    )
    best_streak: int
    tz: str = Field(description="Your time zone: the streak's days are its dates (UTC until you set one).")
    tz_next: str | None = Field(
        default=None, description="A time zone you asked for, in effect from `tz_from` (your next day) on."
    )
    tz_from: str | None = Field(
        default=None, description="When `tz_next` takes effect (ISO 8601, UTC): the first midnight there after today."
    )
    recent: list[RecentAttempt] = Field(description="Your latest first attempts, newest first (ten at most).")
    history: list[HistoryEntry] = Field(
        default_factory=list, description="Your latest first attempts, newest first (twenty at most): the outcomes."
    )
