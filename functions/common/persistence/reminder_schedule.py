"""When a turn's deadline reminders are due: the attributes the games function writes on every head.

Shared by the games function (which sets them in its head write, so a move costs no extra DynamoDB call) and
the reminder sweep (``notify.service.reminders``, which reads them through the sparse ``GamesByReminderHour`` index).
It lives in ``common`` because the games package ships without ``notify`` and must not import its
dependencies (pywebpush); ``notify.service.reminders`` re-exports it.
"""

from __future__ import annotations

import zlib
from typing import Any

HOUR_MS = 3_600_000
#: The index key spreads each hour's reminders over this many partition keys, a game's from its id: every
#: move of the same hour (with the same days per move) would otherwise write one key of the index, the
#: busiest write key of the games table (docs/capacity.md, "Hot keys").
REMINDER_SHARDS = 16
#: (stage, how long before the deadline it is due), earliest first.
STAGES = (("24h", 24 * HOUR_MS), ("2h", 2 * HOUR_MS))


def schedule(deadline: int | None, turn_started: int) -> int | None:
    """When the next reminder of a turn that started at ``turn_started`` is due (epoch ms), or None.

    A stage is due only if its time comes after the turn began: with one day per move, "less than 24 hours
    left" would arrive with the move itself, so only the 2-hour reminder is sent.
    """
    if deadline is None:
        return None
    for _, before in STAGES:
        if deadline - before > turn_started:
            return deadline - before
    return None


def live_due(deadline: int | None) -> int | None:
    """When the sweep may settle a live turn: just after its deadline (a move at the deadline is in time)."""
    return None if deadline is None else deadline + 1


def reminder_attributes(head: dict[str, Any], now_ms: int) -> dict[str, int | None]:
    """``reminder_due`` and ``reminder_hour`` for a head written at ``now_ms`` (None: leave them out)."""
    turn = head.get("turn")
    to_move_is_a_person = bool(head.get(f"{turn}_id")) and not head.get(f"{turn}_cpu")
    due = None
    if head.get("state") == "active" and to_move_is_a_person:
        live = bool((head.get("options") or {}).get("turn_seconds"))
        # A live turn has no reminder: the sweep plays on for the absent player once the turn has run out
        # (the games function's ``games.domain.live``), a backstop for a game nobody reads any more.
        due = live_due(head.get("deadline")) if live else schedule(head.get("deadline"), now_ms)
    return {"reminder_due": due, "reminder_hour": None if due is None else index_key(str(head.get("id")), due)}


def index_key(game_id: str, due: int) -> int:
    """``reminder_hour``, the index's partition key: the hour ``due`` falls in, times REMINDER_SHARDS, plus the
    game's shard (a number, as the index was first keyed by the hour alone)."""
    return due // HOUR_MS * REMINDER_SHARDS + zlib.crc32(game_id.encode()) % REMINDER_SHARDS


def index_keys(hour: int) -> list[int]:
    """Every index key of reminders due in ``hour``: its shards, then the hour itself, the key of heads written
    before the shards (never another hour's: sharded keys are REMINDER_SHARDS times larger)."""
    return [hour * REMINDER_SHARDS + shard for shard in range(REMINDER_SHARDS)] + [hour]


def with_reminders(head: dict[str, Any]) -> dict[str, Any]:
    """The head record with its reminder attributes, timed from its last event (``updated``), so a head
    repaired later gets the same ones; absent ones are left out (the index stays sparse)."""
    attributes = reminder_attributes(head, int(head.get("updated") or 0))
    return {**head, **{name: value for name, value in attributes.items() if value is not None}}
