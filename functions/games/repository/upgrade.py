"""The one place older layouts of the games table are read: ``upgrade`` turns any stored record, a head or an
event, into the current layout (``SCHEMA_VERSION``) before the codec reads it.

Records written before ``schema_version`` existed (version 0) came in these layouts:

* a head without its position (``fen``, ``memory``, ``last_moves``), with ``anchor_fen``, ``anchor_ply`` and
  ``recent`` instead: it reads with ``position_known`` False, good for a player's list (which shows no
  position); a change of the game folds its log instead, and writes the head again in the current layout
  (``save_head`` replaces a head without ``fen`` even at the same ``seq``);
* token hashes (a head's ``white_key``, ``black_key``; an event's seats' ``key``) as hex text, not bytes;
* an event without ``at`` (its time): read as 0.

A head without ``start`` is not an older layout but a head that does not know its first position (the
first event does): the codec reads it as such in every version.
"""

from __future__ import annotations

from typing import Any

from common.persistence.attributes import Record

from shared_rules.names import COLOURS

#: The layout every record is written in. Raise it with a new step in ``upgrade`` when the layout changes.
#: 2: rematch offers (events ``offer_rematch``, ``decline_rematch``, ``withdraw_rematch``; the head's
#: ``rematch_offer`` and ``rematch_declined``): new kinds and fields only, so a version-1 record reads as it is.
#: 3: review requests (the event ``ask_review``, the head's ``review_asked``): a new kind and field only.
#: 4: the lobby's open challenges (the events ``accept_seek``, ``withdraw_seek``; ``seek`` on the first event and
#: the head): new kinds and fields only.
#: 5: fair play (the event ``abort``, with ``reason``; the head's ``cpu_played`` and ``casual_reason``; ``casual``
#: on the event that starts a game): a new kind and fields only. A record before it has none of them: no side
#: stood in for, a game rated as it was asked for.
#: 6: reactions (the events ``react``, ``mute_reactions``; the head's ``reactions`` and ``reactions_muted``): new
#: kinds and fields only.
#: 7: Tazama's top-rated order (``seat_ratings`` on the event that starts a live table, and on the head): a field
#: only; a record before it has none (the table is listed by its activity alone).
#: 8: "Delete my data" (the event ``forget_seat``; a seat, or a challenge's seeker, as ``FORMER_PLAYER``): a new
#: kind only.
SCHEMA_VERSION = 8


_BEFORE_THE_POSITION = ("anchor_fen", "anchor_ply", "recent")


def upgrade(record: Record) -> Record:
    """``record`` (a head, or an event: it has a ``kind``) in the current layout; a new dict if it changes."""
    version = record.get("schema_version", 0)
    if version >= SCHEMA_VERSION:
        return record
    record = dict(record)
    if version < 1:
        _from_version_0(record)
    record["schema_version"] = SCHEMA_VERSION
    return record


def _from_version_0(record: Record) -> None:
    if "kind" in record:
        record.setdefault("at", 0)
        for seat in _event_seats(record):
            seat["key"] = _bytes(seat.get("key"))
    else:
        if "fen" not in record:
            record["fen"] = record.get("anchor_fen") or ""
            record["position_known"] = False
            for name in (*_BEFORE_THE_POSITION, "memory", "last_moves"):
                record.pop(name, None)
        for color in COLOURS:
            if f"{color}_key" in record:
                record[f"{color}_key"] = _bytes(record[f"{color}_key"])


def _event_seats(record: Record) -> list[dict[str, Any]]:
    """The seats an event carries (a new game's two, a join's one), copied so the caller's record is kept."""
    seats: list[dict[str, Any]] = []
    if isinstance(record.get("seats"), dict):
        record["seats"] = {color: dict(seat) for color, seat in record["seats"].items() if seat}
        seats.extend(record["seats"].values())
    if isinstance(record.get("seat"), dict):
        record["seat"] = dict(record["seat"])
        seats.append(record["seat"])
    return seats


def _bytes(value: Any) -> bytes | None:
    if value is None:
        return None
    return bytes.fromhex(value) if isinstance(value, str) else bytes(value)
