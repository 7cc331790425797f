"""ubao's rules layer: chess, English draughts and Tanzanian draughts behind one interface.

    >>> from shared_rules import get_game
    >>> game = get_game("english", {"mandatory_capture": False})
    >>> position = game.start().play("9-13")
    >>> position.fen(), position.status().result
    ('W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13', 'ongoing')

Pure: no I/O, no AWS. Positions are immutable values; ``play`` returns a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .base import Game, Position, Snapshot
from .errors import AmbiguousMove, GameOver, InvalidFen, InvalidMove, InvalidOption, RulesError, UnknownGame
from .names import GAME_NAMES
from .status import BLACK, DRAW, ONGOING, REASONS, WHITE, Status

if TYPE_CHECKING:
    from .options import OptionSpec

__all__ = [
    "GAME_NAMES",
    "Game",
    "Position",
    "Snapshot",
    "Status",
    "get_game",
    "option_specs",
    "RulesError",
    "UnknownGame",
    "InvalidOption",
    "InvalidFen",
    "InvalidMove",
    "AmbiguousMove",
    "GameOver",
    "WHITE",
    "BLACK",
    "DRAW",
    "ONGOING",
    "REASONS",
]


def get_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game called ``name`` (``chess``, ``english`` or ``tanzanian``) under ``options``.

    Raises ``UnknownGame`` or ``InvalidOption`` with a message that says what is wrong.
    """
    if name == "chess":
        from .chess_game import ChessGame

        return ChessGame(options)
    if name in ("english", "tanzanian"):
        from .draughts.game import DraughtsGame
        from .draughts.variants import VARIANTS

        return DraughtsGame(VARIANTS[name], options)
    raise UnknownGame(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}")


def option_specs(name: str) -> tuple[OptionSpec, ...]:
    """The table options a game accepts, with their defaults."""
    if name == "chess":
        return ()
    if name in ("english", "tanzanian"):
        from .draughts.variants import VARIANTS

        return VARIANTS[name].options
    raise UnknownGame(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}")
