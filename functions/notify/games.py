"""What the notify function knows of a game: its seats and its state after one event (read-only).

This is the one module that knows the games table's shapes (the head's ``white_id``, ``white_name``,
``white_cpu``, ``turn``, ``state``, ``result``, ``ply``, ``seq`` ...; the events' ``kind``, ``by``, ``ply``,
``move``), so a change there changes only this file (docs/notifications.md, "wiring").

The event item is the commit (the games function writes it first, the head after), so notifications are
decided per event, with the head as it is when the record is handled:

* head at the event (``seq`` equal): the state after the event, exactly;
* head behind (the games function died between its two writes, or the stream was quicker than the head
  write): the missing events are read and folded onto it with the games function's own fold, so the
  notification is the same as if the head had been written;
* head ahead (the record is handled late): the game has moved on; what the event did is still known
  (who moved, whether the game ended), and a "your move" that has been answered already is not sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

COLORS = ("white", "black")
#: Reasons a game ends that are not the last move itself.
NOT_BY_A_MOVE = frozenset({"resignation", "agreement", "timeout"})


def other(color: str) -> str:
    return "black" if color == "white" else "white"


@dataclass(frozen=True)
class Seat:
    player_id: str | None  # None: the computer's own seat
    name: str | None
    cpu: bool  # the computer plays this seat (its own, or taken over)


@dataclass(frozen=True)
class GameState:
    """The game after (or, ``later``, some time after) the event being handled."""

    game_id: str
    game: str  # chess, english, tanzanian
    seq: int
    ply: int
    state: str  # waiting, active, finished
    turn: str
    result: str | None  # white, black, draw (finished games)
    reason: str | None
    draw_offer: str | None
    seats: dict[str, Seat]
    later: bool = False  # the head was past the event

    @staticmethod
    def of_head(head: dict[str, Any], later: bool = False) -> GameState:
        seats = {
            color: Seat(head.get(f"{color}_id"), head.get(f"{color}_name"), bool(head.get(f"{color}_cpu")))
            for color in COLORS
        }
        return GameState(
            game_id=head["id"],
            game=head["game"],
            seq=int(head["seq"]),
            ply=int(head.get("ply") or 0),
            state=head["state"],
            turn=head["turn"],
            result=head.get("result") if head.get("state") == "finished" else None,
            reason=head.get("reason"),
            draw_offer=head.get("draw_offer"),
            seats=seats,
            later=later,
        )


class GameReader(Protocol):
    def state_after(self, game_id: str, event: dict[str, Any]) -> GameState | None:
        """The game after ``event`` (see the module docstring); None when there is no such game."""
        ...


class StoredGames:
    """``GameReader`` on the games table, through the games function's own store and fold."""

    def __init__(self, store: Any = None):
        if store is None:
            from common.persistence.store import GameStore

            store = GameStore()
        self.store = store

    def state_after(self, game_id: str, event: dict[str, Any]) -> GameState | None:
        head = self.store.get_head(game_id)
        seq = int(event["seq"])
        if head is not None and head["seq"] >= seq:
            return GameState.of_head(head, later=head["seq"] > seq)
        return self._folded(game_id, head, seq)

    def _folded(self, game_id: str, head: dict[str, Any] | None, seq: int) -> GameState | None:
        from games.codec import event_from, head_from, head_record
        from games.domain import DamagedHead, apply_all

        after = head["seq"] if head else 0
        try:
            start = head_from(head) if head else None
            events = [item for item in self.store.events_after(game_id, after) if item["seq"] <= seq]
        except DamagedHead:  # an older head: fold the whole log
            start = None
            events = [item for item in self.store.load(game_id)[1] if item["seq"] <= seq]
        if not events and start is None:
            return None
        folded = apply_all(start, [event_from(item) for item in events])
        return GameState.of_head(head_record(folded)) if folded.seq == seq else None


REMINDER_INDEX = "GamesByReminderHour"


class StoredDueGames:
    """``DueGames`` on the games table and its sparse index ``GamesByReminderHour``."""

    def __init__(self, table: str | None = None):
        import os

        self.table = table or os.environ.get("GAMES_TABLE") or "GamesTable"

    def due(self, hour: int, now_ms: int) -> list[str]:
        from common.persistence.reminder_schedule import index_keys

        return [game_id for key in index_keys(hour) for game_id in self._due_at(key, now_ms)]

    def _due_at(self, key: int, now_ms: int) -> list[str]:
        from common.persistence.store import call

        params = {
            "TableName": self.table,
            "IndexName": REMINDER_INDEX,
            "KeyConditionExpression": "reminder_hour = :hour AND reminder_due <= :now",
            "ExpressionAttributeValues": {":hour": {"N": str(key)}, ":now": {"N": str(now_ms)}},
        }
        ids: list[str] = []
        while True:
            answer = call("query", **params) or {}
            ids.extend(item["pk"]["S"] for item in answer.get("Items", ()) if item["sk"]["S"] == "H")
            if "LastEvaluatedKey" not in answer:
                return ids
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def head(self, game_id: str) -> dict[str, Any] | None:
        from common.persistence.store import GameStore

        return GameStore(self.table).get_head(game_id)

    def advance(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool:
        """Move the head's reminder on to ``next_due`` (None: no more), if the head is still the one read."""
        from common.persistence.reminder_schedule import index_key
        from common.persistence.store import call

        values = {":seq": {"N": str(seq)}, ":due": {"N": str(due)}}
        if next_due is None:
            update = "REMOVE reminder_due, reminder_hour"
        else:
            update = "SET reminder_due = :next, reminder_hour = :hour"
            values.update({":next": {"N": str(next_due)}, ":hour": {"N": str(index_key(game_id, next_due))}})
        answer = call(
            "update_item",
            TableName=self.table,
            Key={"pk": {"S": game_id}, "sk": {"S": "H"}},
            UpdateExpression=update,
            ConditionExpression="seq = :seq AND reminder_due = :due",
            ExpressionAttributeValues=values,
        )
        return answer is not None
