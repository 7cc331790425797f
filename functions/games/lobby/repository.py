"""Where seeks live: the ``SeekRepository`` protocol, ``InMemorySeeks`` (the unit tests' and the contract
suite's reference) and ``DynamoSeeks``.

A seek is a game waiting for its players in the games table (``GamesTable``, ``GAMES_TABLE``): its first
event and its head, which carries the challenge's terms (``GameHead.seek``). Taking and withdrawing it are
events of that game, appended by the games' write protocol (``games.service.protocol``: one writer per sequence
number), so this module only reads seeks, and keeps each player's seek slots:

* While it is open, a seek's head carries ``seek_game`` (its game's name) and ``seek_created``, the keys of
  the games table's sparse index ``SeeksByGame``: the lobby's list is one Query of it, newest first, bounded
  by ``seek_created`` to the last 7 days (a lapsed seek stays in the index but is never read). The head written
  after the seek is taken or withdrawn carries neither.
* ``pk = "owner#<player id>"``, ``sk = "slot#<n>"`` (n < ``MAX_OPEN_SEEKS``) in ``SeeksTable``
  (``SEEKS_TABLE``): which seek holds each of a player's slots, and when it claimed it. A new seek claims a slot
  that is empty or whose seek is no longer open, with a write conditional on what the slot held when it was
  read, so two seeks at once never share a slot: the limit holds under races without a transaction or a
  counter to repair. A slot is claimed before its seek's game is written, so a slot whose game is missing
  counts as held for ``CLAIM_GRACE_MS`` (the claiming request may still be writing it), then as free (it failed).

Accepting a seek reads the taker's player item (their token's check) and the seek's head in one
``BatchGetItem`` (``taker_and_seek``); the join is then the game's next event and its new head.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import Record, with_version
from common.persistence.store import call, from_item, read, to_item
from common.persistence.table import newest_first
from common.players import repository as players_store
from common.players.domain import Player

from games.domain import GameHead
from games.lobby.domain import SEEK_LIFETIME_MS
from games.repository import InMemoryGameStore, head_of
from games.repository.dynamodb import HEAD_KEY, GameStore, head_of_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import KeysAndAttributesTypeDef, QueryInputTypeDef

OWNER_PREFIX = "owner#"
SLOT_PREFIX = "slot#"
INDEX = "SeeksByGame"
#: The layout of a slot item: 1, as described above (a slot without ``claimed`` is older than any grace).
SCHEMA_VERSION = 1
#: How long a slot whose seek's game is not written yet stays held: longer than the games function's timeout
#: (10 s in template.yaml), so the request that claimed it has written the game, or failed, by then.
CLAIM_GRACE_MS = 60_000


class SeekRepository(Protocol):
    def claim_slot(self, owner_id: str, seek_id: str, now_ms: int, limit: int) -> bool:
        """Give ``seek_id`` one of the owner's ``limit`` slots if one is empty or holds a seek no longer open at
        ``now_ms``; whether it did (False: ``limit`` open seeks already)."""
        ...

    def get(self, seek_id: str) -> GameHead | None:
        """The head of the seek's game as stored, in whatever state (the service decides what it means)."""
        ...

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Player | None, GameHead | None]:
        """The player stored under ``token_hash`` (as ``PlayerRepository.get`` gives it) and the head of
        the seek's game (without an id, the player alone), in one read."""
        ...

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[GameHead], tuple[int, str] | None]:
        """Up to ``limit`` heads of open seeks of ``game`` made in the last 7 days, newest first, after position
        ``after``; and the position to go on from: the last one's when the page is full (the next page may be
        empty), else None."""
        ...


def _held(head: Record | None, claimed: int, now_ms: int) -> bool:
    """Whether a slot still holds its seek: the head of its game (its record, or just the index's keys) is an
    open seek made in the last 7 days, or no head is written yet and the claim is within the grace."""
    if head is None:
        return claimed > now_ms - CLAIM_GRACE_MS
    if "seek_game" not in head or int(head["seek_created"]) <= _since(now_ms):
        return False
    return int(head.get("seek_expires", now_ms + 1)) > now_ms  # a live table's seek lapses in minutes


def _since(now_ms: int) -> int:
    """Seeks made after this are unexpired at ``now_ms`` (each lapses ``SEEK_LIFETIME_MS`` after it is made)."""
    return now_ms - SEEK_LIFETIME_MS


class InMemorySeeks:
    """A ``SeekRepository`` over the in-memory games store ``games`` (the heads the games service writes) and a
    dict of slots, with one lock standing for DynamoDB's conditional writes; a taker's token is checked against
    ``players``."""

    def __init__(
        self, games: InMemoryGameStore | None = None, players: players_store.PlayerRepository | None = None
    ) -> None:
        self.games = games if games is not None else InMemoryGameStore()
        self.players = players or players_store.InMemoryPlayers()
        self.slots: dict[tuple[str, int], tuple[str, int]] = {}  # (owner, number) -> (seek id, claimed at)
        self._lock = threading.Lock()

    def claim_slot(self, owner_id: str, seek_id: str, now_ms: int, limit: int) -> bool:
        with self._lock:
            for number in range(limit):
                slot = self.slots.get((owner_id, number))
                if slot is None or not _held(self.games.heads.get(slot[0]), slot[1], now_ms):
                    self.slots[(owner_id, number)] = (seek_id, now_ms)
                    return True
            return False

    def get(self, seek_id: str) -> GameHead | None:
        return head_of(self.games.get_head(seek_id))

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Player | None, GameHead | None]:
        return self.players.get(token_hash), self.get(seek_id) if seek_id else None

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[GameHead], tuple[int, str] | None]:
        since = _since(now_ms)
        found = sorted(
            (
                (int(record["seek_created"]), record["id"])
                for record in self.games.heads.values()
                if record.get("seek_game") == game and int(record["seek_created"]) > since
            ),
            reverse=True,
        )
        if after is not None:
            found = [position for position in found if position < after]
        page = found[:limit]
        heads = [head for head in (self.get(seek_id) for _, seek_id in page) if head is not None]
        return heads, (page[-1] if len(page) == limit else None)


def table_name() -> str:
    return os.environ.get("SEEKS_TABLE") or "SeeksTable"


def _head_key(seek_id: str) -> dict[str, Any]:
    return {"pk": {"S": seek_id}, "sk": {"S": HEAD_KEY}}


class DynamoSeeks:
    """``SeekRepository`` on DynamoDB: the seeks' heads in the games table, the slots in the seeks table; every
    write is one single-item conditional write."""

    def __init__(self, games_table: str | None = None, slots_table: str | None = None):
        self.games_table = GameStore(games_table).table
        self.table = slots_table or table_name()

    # ---------------------------------------------------------------------------------- slots
    def claim_slot(self, owner_id: str, seek_id: str, now_ms: int, limit: int) -> bool:
        for _ in range(limit + 1):  # a lost race for a slot reads the slots again
            slot = self._free_slot(owner_id, now_ms, limit)
            if slot is None:
                return False
            number, holder = slot
            condition: dict[str, Any] = (
                {"ConditionExpression": "attribute_not_exists(pk)"}
                if holder is None
                else {
                    "ConditionExpression": "seek_id = :held",
                    "ExpressionAttributeValues": {":held": {"S": holder}},
                }
            )
            record = {
                "pk": OWNER_PREFIX + owner_id,
                "sk": f"{SLOT_PREFIX}{number}",
                "seek_id": seek_id,
                "claimed": now_ms,
            }
            if call("put_item", TableName=self.table, Item=to_item(with_version(record, SCHEMA_VERSION)), **condition):
                # The slot is ours. Should the game's writes fail, the slot names a missing seek: a free slot.
                return True
        return False

    def forget_slots(self, owner_id: str) -> list[str]:
        """Delete the owner's slots ("Delete my data"); the ids of the seeks they held."""
        items = self._slots(owner_id)
        for item in items:
            call("delete_item", TableName=self.table, Key={"pk": item["pk"], "sk": item["sk"]})
        return [str(from_item(item)["seek_id"]) for item in items]

    def _slots(self, owner: str) -> list[dict[str, Any]]:
        """The owner's slot items (held or not): one Query."""
        answer = read(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :slot)",
            ExpressionAttributeValues={":pk": {"S": OWNER_PREFIX + owner}, ":slot": {"S": SLOT_PREFIX}},
            ConsistentRead=True,
        )
        return list(answer["Items"])

    def _free_slot(self, owner: str, now_ms: int, limit: int) -> tuple[int, str | None] | None:
        """A slot the owner may use: (its number, the seek it holds now, None if empty); None if all are held."""
        held = {
            str(record["sk"]).removeprefix(SLOT_PREFIX): (str(record["seek_id"]), int(record.get("claimed", 0)))
            for record in map(from_item, self._slots(owner))
        }
        for number in range(limit):
            if str(number) not in held:
                return number, None
        still_held = self._held_ids(list(held.values()), now_ms)
        for number in range(limit):
            if held[str(number)][0] not in still_held:
                return number, held[str(number)][0]
        return None

    def _held_ids(self, slots: list[tuple[str, int]], now_ms: int) -> set[str]:
        """Which of these slots' seeks still hold them (``_held``): one BatchGetItem of their heads' index keys
        (an open seek's head carries them); unanswered keys count as held."""
        answer = read(
            "batch_get_item",
            RequestItems={
                self.games_table: {
                    "Keys": [_head_key(seek_id) for seek_id, _ in slots],
                    "ConsistentRead": True,
                    "ProjectionExpression": "pk, seek_game, seek_created, seek_expires",
                }
            },
        )
        found = {
            str(record["pk"]): record
            for record in map(from_item, answer.get("Responses", {}).get(self.games_table, []))
        }
        unanswered = {
            str(key["pk"]["S"]) for key in answer.get("UnprocessedKeys", {}).get(self.games_table, {}).get("Keys", [])
        }
        return {
            seek_id for seek_id, claimed in slots if seek_id in unanswered or _held(found.get(seek_id), claimed, now_ms)
        }

    # -------------------------------------------------------------------------------- reading
    def get(self, seek_id: str) -> GameHead | None:
        answer = read("get_item", TableName=self.games_table, Key=_head_key(seek_id), ConsistentRead=True)
        return head_of(head_of_item(answer["Item"])) if "Item" in answer else None

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Player | None, GameHead | None]:
        """One ``BatchGetItem`` over the players table and the games table, strongly consistent (again for any
        key DynamoDB leaves unprocessed)."""
        player_table = players_store.PlayerStore.table_name()
        request: dict[str, KeysAndAttributesTypeDef] = {
            player_table: {"Keys": [players_store.player_key(token_hash)], "ConsistentRead": True}
        }
        if seek_id:
            request[self.games_table] = {"Keys": [_head_key(seek_id)], "ConsistentRead": True}
        taker: Player | None = None
        head: GameHead | None = None
        while request:
            answer = read("batch_get_item", RequestItems=request)
            for item in answer.get("Responses", {}).get(player_table, []):
                taker = players_store.player_of_item(item)
            for item in answer.get("Responses", {}).get(self.games_table, []):
                head = head_of(head_of_item(item))
            request = answer.get("UnprocessedKeys") or {}
        return taker, head

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[GameHead], tuple[int, str] | None]:
        params: QueryInputTypeDef = {
            "TableName": self.games_table,
            "IndexName": INDEX,
            # Bounded by when they were made, so lapsed seeks (never deleted) are not even read.
            "KeyConditionExpression": "seek_game = :game AND seek_created > :since",
            "ExpressionAttributeValues": {":game": {"S": game}, ":since": {"N": str(_since(now_ms))}},
        }
        start = None
        if after is not None:
            created, seek_id = after
            start = {**_head_key(seek_id), "seek_game": {"S": game}, "seek_created": {"N": str(created)}}
        answer = newest_first(params, limit, start)
        heads = [head for head in (head_of(head_of_item(item)) for item in answer.get("Items", ())) if head]
        if len(heads) < limit:
            return heads, None
        return heads, (heads[-1].created, heads[-1].id)
