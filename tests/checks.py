"""Small checks the tests share."""

from __future__ import annotations

from typing import Any, TypeVar

from shared_rules import Position, get_game
from shared_rules.chess_game import ChessPosition
from shared_rules.draughts.game import DraughtsGame, DraughtsPosition
from shared_rules.names import COLOURS, Colour
from shared_rules.search import model_for
from shared_rules.search.draughts import DraughtsModel

T = TypeVar("T")


def known(value: T | None) -> T:
    """``value``, which the test expects to be there (the test fails if it is None)."""
    assert value is not None
    return value


def colour(name: str) -> Colour:
    """A side's name (a position's ``turn``) as the type the games' events take; anything else fails the test."""
    assert name in COLOURS, name
    return "white" if name == "white" else "black"


def draughts_game(name: str, options: dict[str, Any] | None = None) -> DraughtsGame:
    """The rules of a draughts game, as the draughts engine's own type (its squares, its engine)."""
    game = get_game(name, options)
    assert isinstance(game, DraughtsGame)
    return game


def draughts(position: Position[Any]) -> DraughtsPosition:
    """A draughts position, as its own type (its state, its countdown)."""
    assert isinstance(position, DraughtsPosition)
    return position


def chess_position(position: Position[Any]) -> ChessPosition:
    """A chess position, as its own type (its python-chess board)."""
    assert isinstance(position, ChessPosition)
    return position


def draughts_model(name: str, *, mandatory_capture: bool = True) -> DraughtsModel:
    """The search model of a draughts game (``model_for``), as its own type (its engine, its endings)."""
    model = model_for(name, mandatory_capture=mandatory_capture)
    assert isinstance(model, DraughtsModel)
    return model
