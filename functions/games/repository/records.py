"""The games table as records: the ``GameRecords`` protocol, and ``InMemoryGameStore``, which keeps it in
dicts for fast tests. ``games.repository.dynamodb.GameStore`` is the DynamoDB one;
``tests/games/test_store_contract.py`` runs the same contract against both (in memory, moto, dynalite).

Records are plain dicts (``games.repository.codec`` makes them). The contract: ``append_event`` is a
conditional put (one writer per seq), ``save_head`` only moves the head forward (a head of the layout
without ``fen`` is replaced at any seq), reads are strongly consistent, and the reminder index
(``due_for_reminders``) holds only heads with a ``reminder_due``.
"""

from __future__ import annotations

import copy
import threading
from typing import Protocol

from common.persistence.attributes import Record
from common.persistence.memory import put_absent
from common.persistence.reminder_schedule import index_key, index_keys

from games.history.repository import InMemoryListings, ListingRecords


class GameRecords(Protocol):
    #: The players' listings of the games (the history), kept beside them.
    listings: ListingRecords

    def get_head(self, game_id: str) -> Record | None: ...

    def get_event(self, game_id: str, seq: int) -> Record | None: ...

    def append_event(self, game_id: str, event: Record) -> bool: ...

    def save_head(self, head: Record) -> bool: ...

    def rewrite_event(self, game_id: str, event: Record) -> bool:
        """Replace a stored event by ``event`` (its ``seq``): only "Delete my data" does, to forget a seat's
        name, key and id; False when there is no such event."""
        ...

    def load(self, game_id: str, after_seq: int = 0) -> tuple[Record | None, list[Record]]: ...

    def latest(self, game_id: str, limit: int, before_seq: int | None = None) -> tuple[Record | None, list[Record]]: ...

    def events_after(self, game_id: str, seq: int) -> list[Record]: ...

    def games_of_player(
        self, player_id: str, color: str, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Record], bool]: ...

    def due_for_reminders(self, hour: int, now_ms: int) -> list[str]: ...

    def on_air(self, game: str, low: int, limit: int) -> list[Record]: ...

    def advance_reminder(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool: ...

    def heads_page(self, after: str | None, limit: int) -> tuple[list[Record], str | None]:
        """Every game's head, a page at a time in no meaningful order, and where the next page starts (None:
        the last page). A whole-table Scan: for a one-off (the listings' back-fill), never a request."""
        ...


class InMemoryGameStore:
    """The contract of ``GameRecords`` in a dict: for unit tests of the service (no AWS, no moto)."""

    def __init__(self) -> None:
        self.heads: dict[str, Record] = {}
        self.events: dict[str, dict[int, Record]] = {}
        self.calls = 0  # how many store calls were made (the bench and the cost tests count them)
        self.listings: ListingRecords = InMemoryListings()
        self._lock = threading.Lock()

    def get_head(self, game_id: str) -> Record | None:
        self.calls += 1
        head = self.heads.get(game_id)
        return copy.deepcopy(head) if head else None

    def get_event(self, game_id: str, seq: int) -> Record | None:
        self.calls += 1
        event = self.events.get(game_id, {}).get(seq)
        return copy.deepcopy(event) if event else None

    def append_event(self, game_id: str, event: Record) -> bool:
        self.calls += 1
        with self._lock:
            return put_absent(self.events.setdefault(game_id, {}), event["seq"], _stored(event))

    def save_head(self, head: Record) -> bool:
        self.calls += 1
        with self._lock:
            stored = self.heads.get(head["id"])
            if stored is not None and stored["seq"] >= head["seq"] and "fen" in stored:
                return False  # (a head of the older format, without ``fen``, is replaced)
            self.heads[head["id"]] = _stored(head)
            return True

    def rewrite_event(self, game_id: str, event: Record) -> bool:
        self.calls += 1
        with self._lock:
            log = self.events.get(game_id, {})
            if event["seq"] not in log:
                return False
            log[event["seq"]] = _stored(event)
            return True

    def load(self, game_id: str, after_seq: int = 0) -> tuple[Record | None, list[Record]]:
        self.calls += 1
        head = self.heads.get(game_id)
        return (copy.deepcopy(head) if head else None), self._after(game_id, after_seq)

    def latest(self, game_id: str, limit: int, before_seq: int | None = None) -> tuple[Record | None, list[Record]]:
        self.calls += 1
        log = self.events.get(game_id, {})
        numbers = sorted((number for number in log if before_seq is None or number < before_seq), reverse=True)
        head = self.heads.get(game_id) if before_seq is None else None
        return (copy.deepcopy(head) if head else None), [copy.deepcopy(log[number]) for number in numbers[:limit]]

    def events_after(self, game_id: str, seq: int) -> list[Record]:
        self.calls += 1
        return self._after(game_id, seq)

    def _after(self, game_id: str, seq: int) -> list[Record]:
        log = self.events.get(game_id, {})
        return [copy.deepcopy(log[number]) for number in sorted(log) if number > seq]

    def games_of_player(
        self, player_id: str, color: str, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Record], bool]:
        self.calls += 1
        player_key, order_key = f"{color}_id", f"{color}_order"
        found = sorted(
            (
                head
                for head in self.heads.values()
                if head.get(player_key) == player_id and low <= head.get(order_key, -1) <= high
            ),
            key=lambda head: (head[order_key], head["id"]),
            reverse=True,
        )
        if after is not None:
            found = [head for head in found if (head[order_key], head["id"]) < (after[0], after[1])]
        page = found[:limit]
        return [copy.deepcopy(head) for head in page], len(found) > limit

    def on_air(self, game: str, low: int, limit: int) -> list[Record]:
        self.calls += 1
        found = [head for head in self.heads.values() if head.get("air_game") == game and head["air_order"] >= low]
        found.sort(key=lambda head: head["air_order"], reverse=True)
        return [copy.deepcopy(head) for head in found[:limit]]

    def due_for_reminders(self, hour: int, now_ms: int) -> list[str]:
        self.calls += 1
        keys = set(index_keys(hour))
        return [
            game_id
            for game_id, head in self.heads.items()
            if head.get("reminder_hour") in keys and head.get("reminder_due", now_ms + 1) <= now_ms
        ]

    def heads_page(self, after: str | None, limit: int) -> tuple[list[Record], str | None]:
        self.calls += 1
        ids = sorted(game_id for game_id in self.heads if after is None or game_id > after)
        page = ids[:limit]
        more = page[-1] if len(ids) > limit else None
        return [copy.deepcopy(self.heads[game_id]) for game_id in page], more

    def advance_reminder(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool:
        self.calls += 1
        with self._lock:
            head = self.heads.get(game_id)
            if head is None or head.get("seq") != seq or head.get("reminder_due") != due:
                return False
            head.pop("reminder_due", None)
            head.pop("reminder_hour", None)
            if next_due is not None:
                head.update(reminder_due=next_due, reminder_hour=index_key(game_id, next_due))
            return True


def _stored(record: Record) -> Record:
    """What DynamoDB would keep: ``None`` values left out, bytes as bytes."""
    return {key: copy.deepcopy(value) for key, value in record.items() if value is not None}
