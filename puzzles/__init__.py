"""ubao's puzzle sets: chess (Lichess, CC0) and English and Tanzanian draughts (generated here).

``puzzles.catalog`` reads them (import-light); ``python -m puzzles.generate`` makes the draughts sets
and ``python -m puzzles.lichess`` imports the chess set (``make puzzles`` runs both).
"""

from .catalog import GAMES, Puzzle, find, load

__all__ = ["GAMES", "Puzzle", "find", "load"]
