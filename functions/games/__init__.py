"""Correspondence games and players: POST/GET /v1/games..., /v1/players..."""
