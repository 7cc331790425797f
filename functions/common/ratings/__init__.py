"""Ratings shared by the functions: Glicko-2 (``glicko2``), one implementation for puzzle ratings and game ratings."""
