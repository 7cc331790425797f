"""Small checks the tests share."""

from __future__ import annotations

from typing import Any, TypeVar

from shared_rules import Position, get_game
from shared_rules.draughts.game import DraughtsGame, DraughtsPosition

T = TypeVar("T")


def known(value: T | None) -> T:
    """``value``, which the test expects to be there (the test fails if it is None)."""
    assert value is not None
    return value


def draughts_game(name: str, options: dict[str, Any] | None = None) -> DraughtsGame:
    """The rules of a draughts game, as the draughts engine's own type (its squares, its engine)."""
    game = get_game(name, options)
    assert isinstance(game, DraughtsGame)
    return game


def draughts(position: Position[Any]) -> DraughtsPosition:
    """A draughts position, as its own type (its state, its countdown)."""
    assert isinstance(position, DraughtsPosition)
    return position
