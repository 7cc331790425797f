"""A player, and the refusals of the players service: plain types, no HTTP (``common.web.errors`` maps the codes).
How a player is stored is the repository's (``common.players.repository``: the codec beside the table)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from common.errors import DomainError


class Unauthorized(DomainError):
    code = "unauthorized"


class InvalidName(DomainError):
    code = "invalid_name"


#: A country as CloudFront names the viewer's (``CloudFront-Viewer-Country``): ISO 3166-1 alpha-2, upper case.
COUNTRY_SHAPE = re.compile(r"[A-Z]{2}")


def viewer_country(header: str | None) -> str | None:
    """The country of a ``CloudFront-Viewer-Country`` header, or None when there is none or it is not a
    country code (a local run sends the header or nothing)."""
    value = (header or "").strip()
    return value if COUNTRY_SHAPE.fullmatch(value) else None


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
    #: Where the player was when they became a player (CloudFront's viewer country), and whether they hid it:
    #: a hidden country is kept for the player alone and shown to no one else.
    country: str | None = None
    country_hidden: bool = False

    @property
    def shown_country(self) -> str | None:
        """The country anyone may see: None when the player hid it (or has none)."""
        return None if self.country_hidden else self.country

    def public(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name}

    def blocked(self, player_id: str | None) -> bool:
        """Whether this player blocked ``player_id``."""
        return bool(player_id) and any(block.player_id == player_id for block in self.blocks)
