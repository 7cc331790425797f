"""A player, and the refusals of the players service: plain types, no HTTP (``common.web.errors`` maps the codes).
How a player is stored is the repository's (``common.players.repository``: the codec beside the table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from common.errors import DomainError


class Unauthorized(DomainError):
    code = "unauthorized"


class InvalidName(DomainError):
    code = "invalid_name"


@dataclass(frozen=True)
class Block:
    """A player this player blocked (``common.players.blocks``), named by one of their games."""

    id: str
    player_id: str
    name: str | None
    game: str
    at: int  # epoch ms


@dataclass(frozen=True)
class Player:
    """A player: its public id, the hash of its token and its name; and, as the read that checked the token
    brought them (no second read): when it was made, whom it blocked, and its puzzle progress in the form the
    puzzles function keeps it (a map only ``puzzles_api.repository`` reads)."""

    player_id: str
    token_hash: str  # hex SHA-256 of the token
    name: str | None = None
    created: int | None = None  # epoch ms; None on a value made before it was stored
    blocks: tuple[Block, ...] = ()  # oldest first
    puzzles: Mapping[str, Any] | None = field(default=None, hash=False, repr=False)

    def public(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name}

    def blocked(self, player_id: str | None) -> bool:
        """Whether this player blocked ``player_id``."""
        return bool(player_id) and any(block.player_id == player_id for block in self.blocks)
