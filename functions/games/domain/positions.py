"""The rules of a game and its positions, cached: a game's rules by its options, a position by its snapshot,
and the last move read from text (a fold plays the very move its decision just read)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.domain.options import rules_options
from shared_rules import Game, Position, RulesError, Snapshot, get_game


class DamagedHead(Exception):
    """The stored head cannot give its position (an older layout, or damaged): fold the log instead."""


def rules_for(game: str, options: Mapping[str, Any]) -> Game:
    return _rules(game, options_key(options))


def options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules_options(options).items()))


@lru_cache(maxsize=64)
def _rules(game: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return get_game(game, dict(options))


#: Positions by their snapshot: a position never changes, and the one a fold computed is the one the next
#: request of the same instance restores (bounded; cleared when full).
_POSITIONS: dict[tuple[str, tuple[tuple[str, Any], ...], Snapshot], Position[Any]] = {}
_POSITIONS_MAX = 256


def restore(game: str, options: tuple[tuple[str, Any], ...], snapshot: Snapshot) -> Position[Any]:
    key = (game, options, snapshot)
    found = _POSITIONS.get(key)
    if found is None:
        try:
            found = _rules(game, options).restore(snapshot)
        except RulesError as error:
            raise DamagedHead(str(error)) from None
        remember(key, found)
    return found


def remember(key: tuple[str, tuple[tuple[str, Any], ...], Snapshot], position: Position[Any]) -> None:
    if len(_POSITIONS) >= _POSITIONS_MAX:
        _POSITIONS.clear()
    _POSITIONS[key] = position


@dataclass(frozen=True)
class PlayedNotation:
    """A move given as text, played: the rules' move, its canonical notation and the position after it."""

    before: Position[Any]
    text: str
    move: Any
    notation: str
    after: Position[Any]


_LAST_PLAYED: PlayedNotation | None = None


def play_notation(position: Position[Any], text: str) -> PlayedNotation:
    """``text`` played in ``position``; ``InvalidMove`` (from the rules) if it is not a legal move there.

    The last answer is kept: the fold that follows a decision in the same request plays the same move in the
    same position (``GameHead.position`` returns one object per snapshot), and reading a chess move costs as
    much as the rest of the fold. Positions never change, so the kept answer is always right for them."""
    global _LAST_PLAYED
    last = _LAST_PLAYED
    if last is not None and last.before is position and text in (last.text, last.notation):
        return last
    move = position.parse_move(text)
    played = PlayedNotation(position, text, move, position.notation(move), position.play(move))
    _LAST_PLAYED = played
    return played


def forget_positions() -> None:
    """Empty the positions kept by snapshot (the bench, to measure a request that restores its position)."""
    _POSITIONS.clear()
