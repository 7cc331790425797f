"""ubao's puzzle sets: chess (Lichess, CC0) and English and Tanzanian draughts (generated here).

``puzzles.catalog`` reads them (import-light); ``python -m puzzles.generate`` makes the draughts sets,
``python -m puzzles.verify`` verifies them far deeper, and ``python -m puzzles.lichess`` imports the
chess set (``make puzzles`` verifies, tops the draughts sets up, and imports).
"""

from .catalog import GAMES, Puzzle, find, load

__all__ = ["GAMES", "Puzzle", "find", "load"]
