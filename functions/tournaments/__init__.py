"""Mashindano: tournaments (leagues and arenas) over the games function's games (docs/tournaments.md)."""
