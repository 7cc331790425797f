"""Blocks: a player keeps another player away (no rematch offers, seeks, pushes or games from them).

A block names the opponent of one of the blocker's games and lives on the blocker's own player item (the
``blocks`` of ``PlayerRepository``'s ``Player``, a map by block id in the item). The block id is
random and opaque, so the list a player reads never shows another player's id. Checking "is A blocked by B"
is one read of B's item (``is_blocked``); the games' seats keep each player's token hash, so a game knows
where to look, and so does the lobby's seek.
"""

from __future__ import annotations

import secrets

from common.errors import DomainError
from common.players.domain import Block, Player
from common.players.repository import PlayerRepository

BLOCK_ID_BYTES = 9  # 12 URL-safe characters
#: A player keeps at most this many blocks (one item holds them; 400 KB is far away).
MAX_BLOCKS = 200


class BlockNotFound(DomainError, code="block_not_found"): ...


class TooManyBlocks(DomainError, code="too_many_blocks"): ...


def blocks_of(player: Player | None) -> list[Block]:
    """The blocks of ``player`` (none for no player), oldest first."""
    return list(player.blocks) if player is not None else []


def blocks_player(player: Player | None, player_id: str | None) -> bool:
    """Whether ``player`` blocked ``player_id``."""
    return player is not None and player.blocked(player_id)


def is_blocked(players: PlayerRepository, player_id: str | None, by_token_hash: str | bytes | None) -> bool:
    """Is player ``player_id`` blocked by the player whose token hash is ``by_token_hash`` (as a seat or a
    seek keeps it: hex or bytes)? One read; False when either is unknown (the computer, an open seat)."""
    if not player_id or not by_token_hash:
        return False
    key = by_token_hash.hex() if isinstance(by_token_hash, bytes) else by_token_hash
    return blocks_player(players.get(key), player_id)


def add_block(
    players: PlayerRepository, token_hash: str, player_id: str, name: str | None, game: str, at: int
) -> Block:
    """Block ``player_id`` for the player of ``token_hash``; the existing block when there is one already."""
    for block in blocks_of(players.get(token_hash)):
        if block.player_id == player_id:
            return block
    block = Block(secrets.token_urlsafe(BLOCK_ID_BYTES), player_id, name, game, at)
    if not players.add_block(token_hash, block, MAX_BLOCKS):
        raise TooManyBlocks(f"a player keeps at most {MAX_BLOCKS} blocks; remove one first")
    return block


def remove_block(players: PlayerRepository, token_hash: str, block_id: str) -> None:
    if not players.remove_block(token_hash, block_id):
        raise BlockNotFound("you have no block with this id")
