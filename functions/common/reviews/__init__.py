"""The game reviews two functions share: the review queue and the reviews repository (the review function writes them; the games, notify and puzzles functions read or ask)."""
