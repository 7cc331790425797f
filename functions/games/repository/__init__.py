"""Where games are kept.

* ``GameRepository`` (``stored``): the protocol the service, the views and the notify function use, in
  domain values (``GameHead``, events); ``StoredGames`` implements it on any ``GameRecords``.
* ``GameRecords`` (``records``): the table as records, and ``InMemoryGameStore``, its in-memory one.
* ``GameStore`` (``dynamodb``): the DynamoDB one.
* ``codec`` turns values into records and back; ``upgrade`` reads every older layout, in one place.

``dynamodb_games()`` and ``in_memory_games()`` build a repository; ``tests/games/test_store_contract.py``
runs the records' contract on the in-memory store, moto and dynalite, and an older item through both.
"""

from __future__ import annotations

from games.repository.dynamodb import GameStore
from games.repository.records import GameRecords, InMemoryGameStore
from games.repository.stored import DueReminder, GameRepository, Listed, StoredGames, head_of, head_pages, read_event
from games.repository.upgrade import SCHEMA_VERSION, upgrade

__all__ = [
    "SCHEMA_VERSION",
    "DueReminder",
    "GameRecords",
    "GameRepository",
    "GameStore",
    "InMemoryGameStore",
    "Listed",
    "StoredGames",
    "head_pages",
    "dynamodb_games",
    "head_of",
    "in_memory_games",
    "read_event",
    "upgrade",
]


def dynamodb_games(table: str | None = None) -> StoredGames:
    """The games on DynamoDB (``GAMES_TABLE`` unless ``table`` is given)."""
    return StoredGames(GameStore(table))


def in_memory_games(records: InMemoryGameStore | None = None) -> StoredGames:
    """The games in this process's memory (on ``records``, when the caller keeps them to look inside)."""
    return StoredGames(records if records is not None else InMemoryGameStore())
