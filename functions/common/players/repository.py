"""Where players are kept: the ``PlayerRepository`` protocol the players service depends on, ``InMemoryPlayers``
for fast tests and ``PlayerStore`` on DynamoDB (``tests/puzzles_api/test_store_contract.py`` runs the same
contract on all of them: in memory, moto, dynalite).

The players table (``PlayersTable``, ``PLAYERS_TABLE``) is keyed by the SHA-256 (hex) of the player's token:
the token itself is never stored. A player's puzzle progress is the ``puzzles`` attribute of that item (a map
the puzzles function's repository encodes and decodes), its blocks the ``blocks`` map. The repositories take
and give ``Player`` values; ``player_record`` and ``player_from_record`` are the codec between them and the
stored items. ``create`` is a conditional put (False when the key is taken), ``save_puzzles`` writes only over
the version it read, reads are strongly consistent. Every item carries ``schema_version`` and is read through
``upgrade``.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from typing import Any, Protocol

from common.persistence.attributes import Record, split_version, stored_copy, to_attribute, with_version
from common.persistence.memory import put_absent
from common.persistence.store import call, from_item, put_new
from common.persistence.table import DynamoTable
from common.players.domain import Block, Player

#: The attribute of a player's record that holds its puzzle progress (rating, counts, streak, recent).
PUZZLE_PROGRESS = "puzzles"
#: The attribute that holds the players this player blocked (``common.players.blocks``): a map by block id.
BLOCKS = "blocks"
#: The layout of a player item. 1: ``token_hash``, ``player_id``, ``created``, ``name`` when set, ``puzzles``
#: once the player has finished a puzzle; items written before versions were stored (0) have the same layout.
#: 2: ``blocks`` once the player has blocked someone (absent: none); older items read as they are.
#: 3: ``country`` (the viewer's country at creation, when CloudFront told it) and ``country_hidden`` (only when
#: the player hid it); older items read as a player without a country.
SCHEMA_VERSION = 3


def upgrade(item: Record) -> Record:
    """A stored player in the current layout, whatever layout it was written in."""
    _version, record = split_version(item)  # 0 to 3 share one layout (2 adds ``blocks``, 3 the country)
    return record


# -- the codec: a player as its item stores it ----------------------------------------------------------
def player_record(player: Player) -> Record:
    """The stored fields of ``player`` (absent: ``None`` ones, no blocks, no progress)."""
    blocks = {block.id: _block_record(block) for block in player.blocks}
    record = {
        "token_hash": player.token_hash,
        "player_id": player.player_id,
        "name": player.name,
        "created": player.created,
        PUZZLE_PROGRESS: copy.deepcopy(dict(player.puzzles)) if player.puzzles is not None else None,
        BLOCKS: blocks or None,
        "country": player.country,
        "country_hidden": True if player.country_hidden else None,
    }
    return stored_copy(record)


def player_from_record(record: Record) -> Player:
    """The player of a stored item in the current layout (``upgrade`` brings older ones to it)."""
    created = record.get("created")
    return Player(
        player_id=str(record["player_id"]),
        token_hash=str(record["token_hash"]),
        name=record.get("name"),
        created=None if created is None else int(created),
        blocks=_blocks_of(record.get(BLOCKS) or {}),
        puzzles=record.get(PUZZLE_PROGRESS),
        country=record.get("country"),
        country_hidden=bool(record.get("country_hidden")),
    )


def _block_record(block: Block) -> Record:
    return stored_copy({"player_id": block.player_id, "name": block.name, "game": block.game, "at": block.at})


def _blocks_of(stored: Mapping[str, Any]) -> tuple[Block, ...]:
    found = (
        Block(block_id, str(entry["player_id"]), entry.get("name"), str(entry["game"]), int(entry["at"]))
        for block_id, entry in stored.items()
    )
    return tuple(sorted(found, key=lambda block: (block.at, block.id)))


def _player(item: Record | None) -> Player | None:
    return None if item is None else player_from_record(upgrade(item))


class PlayerRepository(Protocol):
    def create(self, player: Player) -> bool:
        """Store a new player (its ``token_hash`` is the key); False if that hash is already taken."""
        ...

    def get(self, token_hash: str) -> Player | None: ...

    def delete(self, token_hash: str) -> None:
        """Delete the player's item ("Delete my data"): the token no longer names anyone."""
        ...

    def set_name(self, token_hash: str, name: str | None) -> Player | None:
        """Set (or, with None, remove) the display name; the updated player, or None if there is none."""
        ...

    def set_country_hidden(self, token_hash: str, hidden: bool) -> Player | None:
        """Hide the player's country from everyone else, or show it again; the updated player, or None if there
        is none."""
        ...

    def save_puzzles(self, token_hash: str, progress: Record, expected_version: int) -> bool:
        """Replace the player's puzzle progress (the puzzles function's map, whose ``v`` is its version) if the
        stored one still has ``expected_version`` (0: none yet); False otherwise, or with no such player."""
        ...

    def add_block(self, token_hash: str, block: Block, limit: int) -> bool:
        """Add ``block`` to the player's blocks; False when the player holds ``limit`` already (or does not
        exist)."""
        ...

    def remove_block(self, token_hash: str, block_id: str) -> bool:
        """Remove one block; False when the player has no block ``block_id``."""
        ...


class InMemoryPlayers:
    """A ``PlayerRepository`` in a dict (one process), with the same conditions as DynamoDB's."""

    def __init__(self) -> None:
        self._players: dict[str, Record] = {}
        self._lock = threading.Lock()

    def create(self, player: Player) -> bool:
        with self._lock:
            return put_absent(self._players, player.token_hash, with_version(player_record(player), SCHEMA_VERSION))

    def get(self, token_hash: str) -> Player | None:
        return _player(copy.deepcopy(self._players.get(token_hash)))

    def delete(self, token_hash: str) -> None:
        with self._lock:
            self._players.pop(token_hash, None)

    def set_name(self, token_hash: str, name: str | None) -> Player | None:
        with self._lock:
            player = self._players.get(token_hash)
            if player is None:
                return None
            player.pop("name", None)
            if name is not None:
                player["name"] = name
            return _player(copy.deepcopy(player))

    def set_country_hidden(self, token_hash: str, hidden: bool) -> Player | None:
        with self._lock:
            player = self._players.get(token_hash)
            if player is None:
                return None
            player.pop("country_hidden", None)
            if hidden:
                player["country_hidden"] = True
            return _player(copy.deepcopy(player))

    def save_puzzles(self, token_hash: str, progress: Record, expected_version: int) -> bool:
        with self._lock:
            player = self._players.get(token_hash)
            if player is None:
                return False
            stored = player.get(PUZZLE_PROGRESS)
            if (stored is None) != (expected_version == 0):
                return False
            if stored is not None and stored.get("v") != expected_version:
                return False
            player[PUZZLE_PROGRESS] = copy.deepcopy(progress)
            return True

    def add_block(self, token_hash: str, block: Block, limit: int) -> bool:
        with self._lock:
            player = self._players.get(token_hash)
            if player is None or len(player.get(BLOCKS) or {}) >= limit:
                return False
            player.setdefault(BLOCKS, {})[block.id] = _block_record(block)
            return True

    def remove_block(self, token_hash: str, block_id: str) -> bool:
        with self._lock:
            blocks = (self._players.get(token_hash) or {}).get(BLOCKS) or {}
            return blocks.pop(block_id, None) is not None


def player_key(token_hash: str) -> dict[str, Any]:
    """The key of a player's item (for a read batched with another table's: the lobby's acceptance)."""
    return {"token_hash": {"S": token_hash}}


def player_of_item(item: dict[str, Any]) -> Player:
    """The player of a DynamoDB item of the players table (for a read batched with another table's)."""
    return player_from_record(upgrade(from_item(item)))


class PlayerStore(DynamoTable, env="PLAYERS_TABLE", default="PlayersTable"):
    """The players table on DynamoDB."""

    def create(self, player: Player) -> bool:
        return put_new(self.table, player_record(player), SCHEMA_VERSION, "token_hash")

    def get(self, token_hash: str) -> Player | None:
        answer = call("get_item", TableName=self.table, Key=player_key(token_hash), ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return player_of_item(item) if item else None

    def delete(self, token_hash: str) -> None:
        """Delete the player's item ("Delete my data"): the token no longer names anyone."""
        call("delete_item", TableName=self.table, Key=player_key(token_hash))

    def set_name(self, token_hash: str, name: str | None) -> Player | None:
        if name is None:
            return self._update(token_hash, "REMOVE #name", {"#name": "name"})
        return self._update(token_hash, "SET #name = :name", {"#name": "name"}, {":name": {"S": name}})

    def set_country_hidden(self, token_hash: str, hidden: bool) -> Player | None:
        if hidden:
            return self._update(token_hash, "SET country_hidden = :hidden", values={":hidden": {"BOOL": True}})
        return self._update(token_hash, "REMOVE country_hidden")

    def _update(
        self,
        token_hash: str,
        expression: str,
        names: dict[str, str] | None = None,
        values: dict[str, Any] | None = None,
    ) -> Player | None:
        """One update of an existing player's item: the player after it, or None when there is no such player."""
        key, exists = player_key(token_hash), "attribute_exists(token_hash)"
        answer = self.update(key, expression, exists, names=names, values=values, returns="ALL_NEW")
        return player_of_item(answer["Attributes"]) if answer else None

    # -- puzzle progress (the puzzles function) ---------------------------------------------------------
    def save_puzzles(self, token_hash: str, progress: Record, expected_version: int) -> bool:
        """Optimistic concurrency: on False the caller reads again and retries."""
        names, values = {"#progress": PUZZLE_PROGRESS}, {":progress": to_attribute(progress)}
        if expected_version == 0:
            condition = "attribute_exists(token_hash) AND attribute_not_exists(#progress)"
        else:
            condition = "#progress.#version = :version"
            names["#version"] = "v"
            values[":version"] = to_attribute(expected_version)
        expression = "SET #progress = :progress"
        return self.update(player_key(token_hash), expression, condition, names=names, values=values) is not None

    # -- blocks (the games function; common.players.blocks) -----------------------------------------------
    def add_block(self, token_hash: str, block: Block, limit: int) -> bool:
        """One conditional write into the ``blocks`` map. The player's first block creates the map instead (one
        expression cannot both create a map and set a key in it); two first blocks at once: the loser adds
        into the map the winner made."""
        key, block_id, entry = player_key(token_hash), block.id, _block_record(block)
        for _ in range(2):
            into_map = self.update(
                key,
                "SET #blocks.#id = :block",
                "attribute_exists(#blocks) AND size(#blocks) < :limit",
                names={"#blocks": BLOCKS, "#id": block_id},
                values={":block": to_attribute(entry), ":limit": to_attribute(limit)},
            )
            if into_map is not None:
                return True
            first = self.update(
                key,
                "SET #blocks = :blocks",
                "attribute_exists(token_hash) AND attribute_not_exists(#blocks)",
                names={"#blocks": BLOCKS},
                values={":blocks": to_attribute({block_id: entry})},
            )
            if first is not None:
                return True
        return False

    def remove_block(self, token_hash: str, block_id: str) -> bool:
        names, held = {"#blocks": BLOCKS, "#id": block_id}, "attribute_exists(#blocks.#id)"
        return self.update(player_key(token_hash), "REMOVE #blocks.#id", held, names=names) is not None
