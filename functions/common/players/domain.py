"""A player, and the refusals of the players service: plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from common.errors import DomainError


class Unauthorized(DomainError):
    code = "unauthorized"


class InvalidName(DomainError):
    code = "invalid_name"


@dataclass(frozen=True)
class Player:
    player_id: str
    token_hash: str  # hex SHA-256 of the token
    name: str | None = None
    #: The player's item as it was read to authenticate (the puzzles function keeps its progress there).
    stored: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def public(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name}
