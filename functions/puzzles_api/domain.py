"""The puzzles function's values and refusals: plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from common.errors import DomainError
from common.persistence.attributes import Record
from common.players.service import Player

from puzzles.catalog import Puzzle

Caller = tuple[Player, Record]  # the player and its stored item, from one read


def caller_of(player: Player) -> Caller:
    """The player and the item its token was checked against (its progress is there): no second read."""
    return player, player.stored or {}


class PuzzleNotFound(DomainError):
    code = "puzzle_not_found"


class NoPuzzleLeft(DomainError):
    code = "no_puzzle_left"


class InvalidDate(DomainError):
    code = "invalid_date"


class InvalidTheme(DomainError):
    code = "invalid_theme"


class InvalidTimeZone(DomainError):
    code = "invalid_tz"


@dataclass(frozen=True)
class Daily:
    puzzle: Puzzle
    day: date
    max_age: int  # seconds the answer stays right: to the end of the UTC day, or a day for past dates
