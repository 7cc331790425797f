"""Game-tree search for the rules layer: the puzzle generator's solver and the computer opponent.

    >>> from shared_rules.search import Searcher, model_for
    >>> searcher = Searcher(model_for("english"))
    >>> result = searcher.search(model_for("english").engine.start_state(), node_limit=2_000)
    >>> result.move is not None
    True

``Searcher`` is game-independent (``core``); a game plugs in through a ``GameModel`` that supplies
moves and an evaluation (``draughts.DraughtsModel`` for both draughts variants, ``chess.ChessModel``);
``levels.choose_move`` is the computer opponent at levels 1-5, ``levels.estimate_level`` reads a player's
level from their moves, and ``ladder.match`` plays levels against each other. Pure: no I/O.
"""

from __future__ import annotations

from .core import (
    WIN_BOUND,
    WIN_SCORE,
    GameModel,
    NodeLimitReached,
    Searcher,
    SearchResult,
    TimeLimitReached,
    is_decisive,
)

__all__ = [
    "WIN_BOUND",
    "WIN_SCORE",
    "GameModel",
    "NodeLimitReached",
    "Searcher",
    "SearchResult",
    "TimeLimitReached",
    "is_decisive",
    "model_for",
]


def model_for(game: str, *, mandatory_capture: bool = True) -> GameModel:
    """The search model of a game by name: ``chess``, ``english`` or ``tanzanian``."""
    if game == "chess":
        from .chess import ChessModel

        return ChessModel()
    if game in ("english", "tanzanian"):
        from .draughts import DraughtsModel

        return DraughtsModel(game, mandatory_capture=mandatory_capture)
    raise ValueError(f"no search model for {game!r} yet")
