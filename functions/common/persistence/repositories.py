"""Where players and their puzzle progress are kept: the ``PlayerRepository`` and ``PuzzleProgressRepository``
protocols the services depend on, and in-memory ones for fast tests. ``common.persistence.store.PlayerStore`` and
``common.persistence.puzzle_store.PuzzleStore`` are the DynamoDB ones; ``tests/games/test_store_contract.py`` runs the same
contract against all of them (in memory, moto, dynalite), as for ``games.repository``.

Records are plain dicts. The contract: ``PlayerRepository.create`` and ``record_first_attempt`` are
conditional puts (False when the key is taken), ``save_puzzles`` writes only over the version it read,
reads are strongly consistent.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Protocol

Record = dict[str, Any]

#: The attribute of a player's record that holds its puzzle progress (rating, counts, streak, recent).
PUZZLE_PROGRESS = "puzzles"
#: Play counters per puzzle are split over this many items in DynamoDB (no hot key on the daily puzzle).
COUNTER_SHARDS = 8


class PlayerRepository(Protocol):
    def create(self, player: Record) -> bool: ...

    def get(self, token_hash: str) -> Record | None: ...

    def set_name(self, token_hash: str, name: str | None) -> Record | None: ...

    def save_puzzles(self, token_hash: str, progress: Record, expected_version: int) -> bool: ...


class PuzzleProgressRepository(Protocol):
    def record_first_attempt(self, player_id: str, attempt: Record) -> bool: ...

    def get_attempt(self, player_id: str, puzzle_id: str) -> Record | None: ...

    def attempted(self, player_id: str, id_prefix: str) -> set[str]: ...

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None: ...

    def counts(self, puzzle_id: str) -> dict[str, int]: ...

    def rating_state(self, puzzle_id: str) -> tuple[Record | None, dict[str, float]]: ...

    def save_rating(self, puzzle_id: str, record: Record, folded_plays: int | None) -> bool: ...


class InMemoryPlayers:
    """A ``PlayerRepository`` in a dict (one process), with the same conditions as DynamoDB's."""

    def __init__(self) -> None:
        self._players: dict[str, Record] = {}
        self._lock = threading.Lock()

    def create(self, player: Record) -> bool:
        with self._lock:
            if player["token_hash"] in self._players:
                return False
            self._players[player["token_hash"]] = _stored(player)
            return True

    def get(self, token_hash: str) -> Record | None:
        found = self._players.get(token_hash)
        return copy.deepcopy(found) if found is not None else None

    def set_name(self, token_hash: str, name: str | None) -> Record | None:
        with self._lock:
            player = self._players.get(token_hash)
            if player is None:
                return None
            player.pop("name", None)
            if name is not None:
                player["name"] = name
            return copy.deepcopy(player)

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


class InMemoryPuzzleProgress:
    """A ``PuzzleProgressRepository`` in dicts (one process)."""

    def __init__(self) -> None:
        self._attempts: dict[tuple[str, str], Record] = {}
        self._counts: dict[str, dict[str, float]] = {}
        self._ratings: dict[str, Record] = {}
        self._lock = threading.Lock()

    def record_first_attempt(self, player_id: str, attempt: Record) -> bool:
        key = (player_id, attempt["puzzle"])
        with self._lock:
            if key in self._attempts:
                return False
            self._attempts[key] = _stored(attempt)
            return True

    def get_attempt(self, player_id: str, puzzle_id: str) -> Record | None:
        found = self._attempts.get((player_id, puzzle_id))
        return copy.deepcopy(found) if found is not None else None

    def attempted(self, player_id: str, id_prefix: str) -> set[str]:
        return {
            puzzle for player, puzzle in list(self._attempts) if player == player_id and puzzle.startswith(id_prefix)
        }

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None:
        with self._lock:
            totals = self._counts.setdefault(f"{puzzle_id}#{shard}", dict.fromkeys(_COUNTERS, 0.0))
            totals["plays"] += 1
            totals["solves"] += int(solved)
            totals["info"] += info
            totals["gain"] += gain

    def counts(self, puzzle_id: str) -> dict[str, int]:
        """The sums over the ``COUNTER_SHARDS`` shards, as DynamoDB's ``PuzzleStore`` reads them."""
        totals = self._totals(puzzle_id)
        return {"plays": int(totals["plays"]), "solves": int(totals["solves"])}

    def rating_state(self, puzzle_id: str) -> tuple[Record | None, dict[str, float]]:
        rating = self._ratings.get(puzzle_id)
        return (copy.deepcopy(rating) if rating is not None else None), self._totals(puzzle_id)

    def save_rating(self, puzzle_id: str, record: Record, folded_plays: int | None) -> bool:
        """Write the rating if the folded count is still ``folded_plays`` (None: only when there is none)."""
        with self._lock:
            current = self._ratings.get(puzzle_id)
            if (current is None) != (folded_plays is None) or (current and current.get("plays") != folded_plays):
                return False
            self._ratings[puzzle_id] = _stored(record)
            return True

    def _totals(self, puzzle_id: str) -> dict[str, float]:
        shards = [self._counts.get(f"{puzzle_id}#{shard}", {}) for shard in range(COUNTER_SHARDS)]
        return {name: sum(shard.get(name, 0.0) for shard in shards) for name in _COUNTERS}


#: What each counter shard of a puzzle adds up: its first attempts, their solves and their Glicko-2 terms.
_COUNTERS = ("plays", "solves", "info", "gain")


def _stored(record: Record) -> Record:
    """What DynamoDB keeps of a record: ``None`` values are absent attributes."""
    return {key: copy.deepcopy(value) for key, value in record.items() if value is not None}
