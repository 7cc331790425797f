"""``GameRepository``: the games as domain values (heads, events), whichever table keeps their records.

``StoredGames`` reads and writes through a ``GameRecords`` (DynamoDB's ``GameStore`` or the in-memory one):
every record read goes through ``upgrade`` (older layouts, in one place) and the codec; every head written
carries its reminder attributes (``common.persistence.reminder_schedule``), so the reminder sweep's index
follows the games at no extra DynamoDB call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from common.persistence.reminder_schedule import with_reminders

from games.domain import AnyEvent, Color, DamagedHead, GameHead
from games.repository.codec import event_from, event_record, head_from, head_record
from games.repository.records import GameRecords
from games.repository.upgrade import upgrade


class Listed(NamedTuple):
    """A game in a player's list: where it sorts for that player's seat (``order``), and its head."""

    order: int
    head: GameHead


class DueReminder(NamedTuple):
    """A game with a reminder due: its head, and when its stored reminder is due (None: none any more)."""

    head: GameHead
    due: int | None


class GameRepository(Protocol):
    """What the games service, the views and the notify function read and write. The contract is the
    records' (``GameRecords``): conditional appends, a head that only moves forward, consistent reads."""

    def get_head(self, game_id: str) -> GameHead | None:
        """The head; None when there is none, or when its record cannot be read at all (fold the log)."""
        ...

    def get_event(self, game_id: str, seq: int) -> AnyEvent | None: ...

    def append_event(self, game_id: str, event: AnyEvent) -> bool: ...

    def save_head(self, head: GameHead) -> bool: ...

    def rewrite_event(self, game_id: str, event: AnyEvent) -> bool:
        """Replace a stored event (its ``seq``) by ``event``: only "Delete my data" does (``GameRecords``)."""
        ...

    def load(self, game_id: str, after_seq: int = 0) -> tuple[GameHead | None, list[AnyEvent]]: ...

    def latest(
        self, game_id: str, limit: int, before_seq: int | None = None
    ) -> tuple[GameHead | None, list[AnyEvent]]: ...

    def events_after(self, game_id: str, seq: int) -> list[AnyEvent]: ...

    def games_of_player(
        self, player_id: str, color: Color, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Listed], bool]: ...

    def due_for_reminders(self, hour: int, now_ms: int) -> list[str]: ...

    def on_air(self, game: str, low: int, limit: int) -> list[GameHead]:
        """The heads of the games on the air (``games.watch``), highest ``air_order`` first, down to ``low``."""
        ...

    def save_listings(self, listings: list[dict[str, Any]], missing_only: bool = False) -> int:
        """Store each player's listing of a game (records of ``games.history.domain.Listing``), newer only (with
        ``missing_only``: where there is none); how many were written."""
        ...

    def listings_of_player(
        self, player_id: str, below: str | None, conditions: Sequence[tuple[str, Any]], evaluate: int
    ) -> tuple[list[dict[str, Any]], str | None]: ...

    def reminder_of(self, game_id: str) -> DueReminder | None: ...

    def heads_page(self, after: str | None, limit: int) -> tuple[list[GameHead], str | None]:
        """Every game's head, a page at a time (a Scan: the listings' back-fill, never a request)."""
        ...

    def advance_reminder(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool: ...


class StoredGames:
    """A ``GameRepository`` on a ``GameRecords``."""

    def __init__(self, records: GameRecords):
        self.records = records

    def get_head(self, game_id: str) -> GameHead | None:
        return head_of(self.records.get_head(game_id))

    def get_event(self, game_id: str, seq: int) -> AnyEvent | None:
        record = self.records.get_event(game_id, seq)
        return read_event(record) if record is not None else None

    def append_event(self, game_id: str, event: AnyEvent) -> bool:
        return self.records.append_event(game_id, event_record(event))

    def save_head(self, head: GameHead) -> bool:
        return self.records.save_head(with_reminders(head_record(head)))

    def rewrite_event(self, game_id: str, event: AnyEvent) -> bool:
        return self.records.rewrite_event(game_id, event_record(event))

    def load(self, game_id: str, after_seq: int = 0) -> tuple[GameHead | None, list[AnyEvent]]:
        head, events = self.records.load(game_id, after_seq)
        return head_of(head), _events(events)

    def latest(self, game_id: str, limit: int, before_seq: int | None = None) -> tuple[GameHead | None, list[AnyEvent]]:
        head, events = self.records.latest(game_id, limit, before_seq)
        return head_of(head), _events(events)

    def events_after(self, game_id: str, seq: int) -> list[AnyEvent]:
        return _events(self.records.events_after(game_id, seq))

    def games_of_player(
        self, player_id: str, color: Color, low: int, high: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Listed], bool]:
        records, more = self.records.games_of_player(player_id, color, low, high, after, limit)
        # A head that cannot be read at all fails the list, as it always has: no game silently disappears.
        return [Listed(int(record[f"{color}_order"]), head_from(upgrade(record))) for record in records], more

    def due_for_reminders(self, hour: int, now_ms: int) -> list[str]:
        return self.records.due_for_reminders(hour, now_ms)

    def on_air(self, game: str, low: int, limit: int) -> list[GameHead]:
        heads = (head_of(record) for record in self.records.on_air(game, low, limit))
        return [head for head in heads if head is not None]

    def save_listings(self, listings: list[dict[str, Any]], missing_only: bool = False) -> int:
        return sum(self.records.listings.put_listing(listing, missing_only) for listing in listings)

    def listings_of_player(
        self, player_id: str, below: str | None, conditions: Sequence[tuple[str, Any]], evaluate: int
    ) -> tuple[list[dict[str, Any]], str | None]:
        return self.records.listings.listings_of_player(player_id, below, conditions, evaluate)

    def heads_page(self, after: str | None, limit: int) -> tuple[list[GameHead], str | None]:
        records, more = self.records.heads_page(after, limit)
        heads = (head_of(record) for record in records)
        return [head for head in heads if head is not None], more

    def reminder_of(self, game_id: str) -> DueReminder | None:
        record = self.records.get_head(game_id)
        head = head_of(record)
        if record is None or head is None:
            return None
        due = record.get("reminder_due")
        return DueReminder(head, int(due) if due is not None else None)

    def advance_reminder(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool:
        return self.records.advance_reminder(game_id, seq, due, next_due)


def head_of(record: dict[str, Any] | None) -> GameHead | None:
    """The head of a record in any stored layout; None for none, or one that cannot be read at all."""
    if record is None:
        return None
    try:
        return head_from(upgrade(record))
    except DamagedHead:
        return None


def _events(records: list[dict[str, Any]]) -> list[AnyEvent]:
    return [read_event(record) for record in records]


def read_event(record: dict[str, Any]) -> AnyEvent:
    """The event of a record in any stored layout, such as the table's stream delivers (the notify function)."""
    return event_from(upgrade(record))


def head_pages(store: GameRepository, page_size: int) -> Iterator[list[GameHead]]:
    """Every game's head, a Scan page at a time (the back-fills, never a request; an empty page may come)."""
    after: str | None = None
    while True:
        heads, after = store.heads_page(after, page_size)
        yield heads
        if after is None:
            return
