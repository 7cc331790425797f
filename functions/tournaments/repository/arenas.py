"""Where an arena's players stand between games: one item per player, ``pk = "t#<id>"``, ``sk = "P#<player id>"``
in ``TournamentsTable`` (beside the tournament and its results, so the standings stay one Query): whether they
are present (``seen``: the page's last heartbeat), the game they are playing (``busy``), their last opponent,
Whites minus Blacks, ``paused`` after the computer had to stand in for them, and ``blocks`` (the players this one
blocked, copied from their player item at each heartbeat, so a wave keeps blocked pairs apart with no read
more). Each write touches one
player's item (a 500-player arena writes no shared item per game); the pairing wave is serialised by one
conditional write of the tournament item's ``wave_at``, at most one every ``WAVE_GAP_MS``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any, Protocol

from common.persistence.store import from_item, query_all
from common.persistence.table import DynamoTable, item_key

from tournaments.repository.records import SCHEMA_VERSION

PLAYER_PREFIX = "P#"
WAVE_GAP_MS = 3000


@dataclass(frozen=True)
class ArenaSeat:
    player_id: str
    seen: int = 0  # epoch ms of the last heartbeat; 0: left
    busy: str | None = None  # the game being played
    last_opponent: str | None = None
    balance: int = 0  # Whites minus Blacks
    paused: bool = False
    blocks: frozenset[str] = frozenset()  # the players this one blocked, as of their last heartbeat


class ArenaSeats(Protocol):
    def seats(self, tournament_id: str) -> list[ArenaSeat]: ...

    def heartbeat(self, tournament_id: str, player_id: str, seen: int, blocks: frozenset[str] = frozenset()) -> None:
        """Present at ``seen`` (0: gone) with the players they blocked now; coming back also ends a pause."""
        ...

    def claim_wave(self, tournament_id: str, at: int) -> bool:
        """The right to run the pairing wave now (one per ``WAVE_GAP_MS``)."""
        ...

    def seat(self, tournament_id: str, player_id: str, game_id: str, opponent: str, colour: int) -> bool:
        """The player sits down to ``game_id`` (if free); ``colour`` +1 for White, -1 for Black."""
        ...

    def free(self, tournament_id: str, player_id: str, game_id: str, paused: bool) -> None:
        """The player's game ``game_id`` is over (nothing if they are on another already)."""
        ...


class InMemoryArenaSeats:
    def __init__(self) -> None:
        self.items: dict[tuple[str, str], ArenaSeat] = {}
        self.waves: dict[str, int] = {}
        self.lock = threading.Lock()

    def seats(self, tournament_id: str) -> list[ArenaSeat]:
        return [seat for (tid, _), seat in sorted(self.items.items()) if tid == tournament_id]

    def heartbeat(self, tournament_id: str, player_id: str, seen: int, blocks: frozenset[str] = frozenset()) -> None:
        with self.lock:
            old = self.items.get((tournament_id, player_id), ArenaSeat(player_id))
            paused = old.paused and not seen
            self.items[(tournament_id, player_id)] = replace(old, seen=seen, paused=paused, blocks=frozenset(blocks))

    def claim_wave(self, tournament_id: str, at: int) -> bool:
        with self.lock:
            if at - self.waves.get(tournament_id, -WAVE_GAP_MS) < WAVE_GAP_MS:
                return False
            self.waves[tournament_id] = at
            return True

    def seat(self, tournament_id: str, player_id: str, game_id: str, opponent: str, colour: int) -> bool:
        with self.lock:
            old = self.items.get((tournament_id, player_id), ArenaSeat(player_id))
            if old.busy is not None:
                return False
            self.items[(tournament_id, player_id)] = replace(
                old, busy=game_id, last_opponent=opponent, balance=old.balance + colour
            )
            return True

    def free(self, tournament_id: str, player_id: str, game_id: str, paused: bool) -> None:
        with self.lock:
            old = self.items.get((tournament_id, player_id))
            if old is not None and old.busy == game_id:
                self.items[(tournament_id, player_id)] = replace(old, busy=None, paused=paused)


def _key(tournament_id: str, player_id: str) -> dict[str, Any]:
    return {"pk": {"S": "t#" + tournament_id}, "sk": {"S": PLAYER_PREFIX + player_id}}


class DynamoArenaSeats(DynamoTable, env="TOURNAMENTS_TABLE", default="TournamentsTable"):
    def seats(self, tournament_id: str) -> list[ArenaSeat]:
        items = query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": "t#" + tournament_id}, ":prefix": {"S": PLAYER_PREFIX}},
            ConsistentRead=True,
        )
        return [seat_of(from_item(item)) for item in items]

    def heartbeat(self, tournament_id: str, player_id: str, seen: int, blocks: frozenset[str] = frozenset()) -> None:
        expression = "SET seen = :seen, blocks = :blocks, schema_version = :v" + (", paused = :no" if seen else "")
        values: dict[str, Any] = {
            ":seen": {"N": str(seen)},
            ":v": {"N": str(SCHEMA_VERSION)},
            ":blocks": {"L": [{"S": player} for player in sorted(blocks)]},
        }
        if seen:
            values[":no"] = {"BOOL": False}
        self.update(_key(tournament_id, player_id), expression, values=values)

    def claim_wave(self, tournament_id: str, at: int) -> bool:
        key = item_key("t#" + tournament_id, "A")
        values = {":at": {"N": str(at)}, ":before": {"N": str(at - WAVE_GAP_MS)}}
        due = "attribute_exists(pk) AND (attribute_not_exists(wave_at) OR wave_at <= :before)"
        return self.update(key, "SET wave_at = :at", due, values=values) is not None

    def seat(self, tournament_id: str, player_id: str, game_id: str, opponent: str, colour: int) -> bool:
        expression = "SET busy = :game, last_opponent = :opponent, schema_version = :v ADD balance :colour"
        values = {
            ":game": {"S": game_id},
            ":opponent": {"S": opponent},
            ":colour": {"N": str(colour)},
            ":v": {"N": str(SCHEMA_VERSION)},
        }
        free = "attribute_not_exists(busy)"
        return self.update(_key(tournament_id, player_id), expression, free, values=values) is not None

    def free(self, tournament_id: str, player_id: str, game_id: str, paused: bool) -> None:
        values = {":game": {"S": game_id}, ":paused": {"BOOL": paused}}
        self.update(_key(tournament_id, player_id), "REMOVE busy SET paused = :paused", "busy = :game", values=values)


def seat_of(record: dict[str, Any]) -> ArenaSeat:
    return ArenaSeat(
        player_id=str(record["sk"]).removeprefix(PLAYER_PREFIX),
        seen=int(record.get("seen", 0)),
        busy=record.get("busy"),
        last_opponent=record.get("last_opponent"),
        balance=int(record.get("balance", 0)),
        paused=bool(record.get("paused", False)),
        blocks=frozenset(str(player) for player in record.get("blocks") or ()),
    )
