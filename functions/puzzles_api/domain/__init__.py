"""The puzzles function's values and refusals: plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from common.errors import DomainError
from common.players.service import Player
from common.web.ratelimit import Limit

from puzzles.catalog import Puzzle
from puzzles_api.domain.progress import Progress

Caller = tuple[Player, Progress]  # the player and its puzzle progress, from one read


#: The bucket of anonymous attempts at one puzzle from one address (``anonymous_budget``).
ANONYMOUS_PUZZLE_LIMIT = "anonymous_puzzle"
#: Wrong moves an anonymous solver may send at one puzzle before waiting: one probe, not a search.
ANONYMOUS_PROBES = 2
ANONYMOUS_REFILL_SECONDS = 600


def anonymous_budget(puzzle: Puzzle) -> Limit:
    """Anonymous attempts at ``puzzle`` from one address: each of the solver's moves once (the loop move by
    move sends one request a move) and ``ANONYMOUS_PROBES`` more, then one every 10 minutes. Without it an
    anonymous ``continue`` is an oracle: try every move, then play the one it accepts with a rated token."""
    solver_moves = (len(puzzle.solution) + 1) // 2
    return Limit(
        ANONYMOUS_PUZZLE_LIMIT,
        capacity=solver_moves + ANONYMOUS_PROBES,
        per_second=1 / ANONYMOUS_REFILL_SECONDS,
        per_player=False,
    )


class PuzzleNotFound(DomainError, code="puzzle_not_found"): ...


class NoPuzzleLeft(DomainError, code="no_puzzle_left"): ...


class InvalidDate(DomainError, code="invalid_date"): ...


class InvalidTheme(DomainError, code="invalid_theme"): ...


class InvalidTimeZone(DomainError, code="invalid_tz"): ...


@dataclass(frozen=True)
class Daily:
    puzzle: Puzzle
    day: date
    max_age: int  # seconds the answer stays right: to the end of the UTC day, or a day for past dates
