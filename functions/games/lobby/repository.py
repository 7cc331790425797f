"""Where seeks live: the ``SeekRepository`` protocol, ``InMemorySeeks`` (the unit tests' and the contract
suite's reference) and ``DynamoSeeks`` on the seeks table (``SeeksTable`` in template.yaml, ``SEEKS_TABLE``).

* ``pk = "seek#<id>"``, ``sk = "seek"``: one seek. While it is open it carries ``open_game`` (its game's
  name), which puts it in the sparse index ``SeeksByGame`` (``open_game``, ``created``): the lobby's list is
  one Query of it, newest first. Taking or withdrawing a seek removes ``open_game``. ``expires`` (epoch
  seconds) is the table's TTL; TTL deletes lazily, so every read also compares ``expires_at`` (epoch ms).
* ``pk = "owner#<player id>"``, ``sk = "slot#<n>"`` (n < ``MAX_OPEN_SEEKS``): which seek holds each of a
  player's slots. A new seek claims a slot that is empty or whose seek is no longer open, with a write
  conditional on what the slot held when it was read, so two seeks at once never share a slot: the limit
  holds under races without a transaction or a counter to repair.

Accepting a seek reads the taker's player item (their token's check) and the seek in one ``BatchGetItem``
(``taker_and_seek``), then is one conditional ``UpdateItem`` (open, unexpired, not the taker's own, the taker's
rating in range, nobody excluded) that returns the seek taken: of many takers exactly one succeeds.
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from typing import Any, Protocol

from common.persistence.attributes import Record, split_version, to_attribute, with_version
from common.persistence.store import call, from_item, read, to_item
from common.players import repository as players_store

from games.lobby.domain import Rating, Seek, Seeker, Taker, colors_of, newest_first

SEEK_PREFIX = "seek#"
SEEK_SORT_KEY = "seek"
OWNER_PREFIX = "owner#"
SLOT_PREFIX = "slot#"
INDEX = "SeeksByGame"
#: The layout of a seek item and of a slot item: 1, as described above.
SCHEMA_VERSION = 1
#: DynamoDB's bound on the operands of ``IN``.
MAX_EXCLUDED = 100


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored seek in the current layout (there is one layout so far)."""
    _version, record = split_version(item)
    return record


class SeekRepository(Protocol):
    def add(self, seek: Seek, limit: int) -> bool:
        """Store ``seek`` if its seeker has fewer than ``limit`` open seeks (at ``seek.created``); whether stored."""
        ...

    def get(self, seek_id: str) -> Seek | None:
        """The seek as stored, in whatever state (the service decides what a state means)."""
        ...

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Record | None, Seek | None]:
        """The player item stored under ``token_hash`` (as ``PlayerRepository.get`` gives it) and the seek
        (without an id, the player alone), in one read."""
        ...

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Seek], tuple[int, str] | None]:
        """Up to ``limit`` open, unexpired seeks of ``game``, newest first, after position ``after``; and the
        position to go on from: the last seek's when the page is full (the next page may be empty), else None."""
        ...

    def take(self, seek_id: str, taker: Taker, now_ms: int, game_id: str, seeker_color: str) -> Seek | None:
        """Mark the seek taken by ``taker`` (making ``game_id``, the seeker playing the colour they asked for, else
        ``seeker_color``) if it is open, unexpired, not the taker's, has no range or one that admits
        ``taker.rating``, and neither excludes the other: one write. The seek taken, or None (nothing written)."""
        ...

    def cancel(self, seek_id: str, owner_id: str) -> bool:
        """Withdraw the open seek of ``owner_id``; whether it was."""
        ...


class InMemorySeeks:
    """A ``SeekRepository`` in a dict, with one lock standing for DynamoDB's conditional writes; the players a
    taker's token is checked against are ``players``'."""

    def __init__(self, players: players_store.PlayerRepository | None = None) -> None:
        self.seeks: dict[str, Seek] = {}
        self.players = players or players_store.InMemoryPlayers()
        self._lock = threading.Lock()

    def add(self, seek: Seek, limit: int) -> bool:
        with self._lock:
            mine = [s for s in self.seeks.values() if s.seeker.player_id == seek.seeker.player_id]
            if sum(1 for s in mine if s.is_open(seek.created)) >= limit:
                return False
            self.seeks[seek.id] = seek
            return True

    def get(self, seek_id: str) -> Seek | None:
        return self.seeks.get(seek_id)

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Record | None, Seek | None]:
        return self.players.get(token_hash), self.seeks.get(seek_id) if seek_id else None

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Seek], tuple[int, str] | None]:
        found = newest_first(s for s in self.seeks.values() if s.game == game and s.is_open(now_ms))
        if after is not None:
            found = [s for s in found if (s.created, s.id) < after]
        page = found[:limit]
        return page, ((page[-1].created, page[-1].id) if len(page) == limit else None)

    def take(self, seek_id: str, taker: Taker, now_ms: int, game_id: str, seeker_color: str) -> Seek | None:
        with self._lock:
            seek = self.seeks.get(seek_id)
            if seek is None or not _takeable(seek, taker, now_ms):
                return None
            taken = replace(
                seek,
                state="taken",
                taker_id=taker.player_id,
                taker_name=taker.name,
                game_id=game_id,
                seeker_color=colors_of(seek, "white" if seeker_color == "white" else "black"),
            )
            self.seeks[seek_id] = taken
            return taken

    def cancel(self, seek_id: str, owner_id: str) -> bool:
        with self._lock:
            seek = self.seeks.get(seek_id)
            if seek is None or seek.state != "open" or seek.seeker.player_id != owner_id:
                return False
            self.seeks[seek_id] = replace(seek, state="cancelled")
            return True


def _takeable(seek: Seek, taker: Taker, now_ms: int) -> bool:
    return (
        seek.is_open(now_ms)
        and seek.seeker.player_id != taker.player_id
        and (seek.rating_range is None or (taker.rating is not None and seek.admits(taker.rating)))
        and seek.seeker.player_id not in taker.excluded
        and taker.player_id not in seek.excluded
    )


def table_name() -> str:
    return os.environ.get("SEEKS_TABLE") or "SeeksTable"


def _seek_key(seek_id: str) -> dict[str, Any]:
    return {"pk": {"S": SEEK_PREFIX + seek_id}, "sk": {"S": SEEK_SORT_KEY}}


class DynamoSeeks:
    """``SeekRepository`` on DynamoDB; every write is one single-item conditional write."""

    def __init__(self, table: str | None = None):
        self.table = table or table_name()

    # --------------------------------------------------------------------------------- adding
    def add(self, seek: Seek, limit: int) -> bool:
        owner = seek.seeker.player_id
        for _ in range(limit + 1):  # a lost race for a slot reads the slots again
            slot = self._free_slot(owner, seek.created, limit)
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
            record = {"pk": OWNER_PREFIX + owner, "sk": f"{SLOT_PREFIX}{number}", "seek_id": seek.id}
            if call("put_item", TableName=self.table, Item=to_item(with_version(record, SCHEMA_VERSION)), **condition):
                # The slot is ours. Should this write fail, the slot names a missing seek, which counts as free.
                read("put_item", TableName=self.table, Item=to_item(with_version(_record(seek), SCHEMA_VERSION)))
                return True
        return False

    def _free_slot(self, owner: str, now_ms: int, limit: int) -> tuple[int, str | None] | None:
        """A slot the owner may use: (its number, the seek it holds now, None if empty); None if all are held."""
        answer = read(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :slot)",
            ExpressionAttributeValues={":pk": {"S": OWNER_PREFIX + owner}, ":slot": {"S": SLOT_PREFIX}},
            ConsistentRead=True,
        )
        held = {str(item["sk"]["S"]).removeprefix(SLOT_PREFIX): item["seek_id"]["S"] for item in answer["Items"]}
        for number in range(limit):
            if str(number) not in held:
                return number, None
        still_open = self._open_ids(list(held.values()), now_ms)
        for number in range(limit):
            if held[str(number)] not in still_open:
                return number, held[str(number)]
        return None

    def _open_ids(self, seek_ids: list[str], now_ms: int) -> set[str]:
        """Which of these seeks are open and unexpired (one BatchGetItem; unanswered keys count as open)."""
        answer = read(
            "batch_get_item",
            RequestItems={
                self.table: {
                    "Keys": [_seek_key(seek_id) for seek_id in seek_ids],
                    "ConsistentRead": True,
                    "ProjectionExpression": "#id, #state, expires_at",
                    "ExpressionAttributeNames": {"#id": "id", "#state": "state"},
                }
            },
        )
        found = {
            str(record["id"])
            for record in map(from_item, answer.get("Responses", {}).get(self.table, []))
            if record.get("state") == "open" and int(record["expires_at"]) > now_ms
        }
        unanswered = answer.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return found | {str(key["pk"]["S"]).removeprefix(SEEK_PREFIX) for key in unanswered}

    # -------------------------------------------------------------------------------- reading
    def get(self, seek_id: str) -> Seek | None:
        answer = read("get_item", TableName=self.table, Key=_seek_key(seek_id), ConsistentRead=True)
        return _seek(from_item(answer["Item"])) if "Item" in answer else None

    def taker_and_seek(self, token_hash: str, seek_id: str | None) -> tuple[Record | None, Seek | None]:
        """One ``BatchGetItem`` over the players table and this one, strongly consistent (again for any key
        DynamoDB leaves unprocessed)."""
        player_table = players_store.table_name()
        request: dict[str, Any] = {
            player_table: {"Keys": [players_store.player_key(token_hash)], "ConsistentRead": True}
        }
        if seek_id:
            request[self.table] = {"Keys": [_seek_key(seek_id)], "ConsistentRead": True}
        record: Record | None = None
        seek: Seek | None = None
        while request:
            answer = read("batch_get_item", RequestItems=request)
            for item in answer.get("Responses", {}).get(player_table, []):
                record = players_store.upgrade(from_item(item))
            for item in answer.get("Responses", {}).get(self.table, []):
                seek = _seek(from_item(item))
            request = answer.get("UnprocessedKeys") or {}
        return record, seek

    def list_open(
        self, game: str, now_ms: int, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[Seek], tuple[int, str] | None]:
        params: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": INDEX,
            "KeyConditionExpression": "open_game = :game",
            "FilterExpression": "expires_at > :now",  # TTL is lazy: an expired seek may still be stored
            "ExpressionAttributeValues": {":game": {"S": game}, ":now": {"N": str(now_ms)}},
            "ScanIndexForward": False,
        }
        if after is not None:
            created, seek_id = after
            params["ExclusiveStartKey"] = {
                **_seek_key(seek_id),
                "open_game": {"S": game},
                "created": {"N": str(created)},
            }
        found: list[Seek] = []
        while True:
            answer = read("query", Limit=limit - len(found), **params)
            found.extend(_seek(from_item(item)) for item in answer.get("Items", ()))
            if len(found) >= limit:
                return found, (found[-1].created, found[-1].id)
            if "LastEvaluatedKey" not in answer:
                return found, None
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    # ------------------------------------------------------------------------------- changing
    def take(self, seek_id: str, taker: Taker, now_ms: int, game_id: str, seeker_color: str) -> Seek | None:
        values: dict[str, Any] = {
            ":open": {"S": "open"},
            ":taken": {"S": "taken"},
            ":now": {"N": str(now_ms)},
            ":me": {"S": taker.player_id},
            ":game": {"S": game_id},
            ":color": {"S": seeker_color},
            ":name": to_attribute(taker.name),
        }
        # A seek with a range is taken only with the taker's rating (the service reads it when one needs it).
        in_range = "attribute_not_exists(range_lo)"
        if taker.rating is not None:
            values[":rating"] = {"N": str(taker.rating)}
            in_range += " OR (range_lo <= :rating AND range_hi >= :rating)"
        condition = (
            "#state = :open AND expires_at > :now AND owner_id <> :me"
            f" AND ({in_range})"
            " AND (attribute_not_exists(excluded) OR NOT contains(excluded, :me))"
        )
        excluded = sorted(taker.excluded)[:MAX_EXCLUDED]
        if excluded:
            names = [f":x{index}" for index in range(len(excluded))]
            condition += f" AND NOT (owner_id IN ({', '.join(names)}))"
            values.update({name: {"S": player_id} for name, player_id in zip(names, excluded, strict=True)})
        answer = call(
            "update_item",
            TableName=self.table,
            Key=_seek_key(seek_id),
            ConditionExpression=condition,
            UpdateExpression="SET #state = :taken, taker_id = :me, taker_name = :name, game_id = :game,"
            " seeker_color = if_not_exists(color, :color) REMOVE open_game",
            ExpressionAttributeNames={"#state": "state"},
            ExpressionAttributeValues=values,
            ReturnValues="ALL_NEW",
        )
        return None if answer is None else _seek(from_item(answer["Attributes"]))

    def cancel(self, seek_id: str, owner_id: str) -> bool:
        answer = call(
            "update_item",
            TableName=self.table,
            Key=_seek_key(seek_id),
            ConditionExpression="#state = :open AND owner_id = :me",
            UpdateExpression="SET #state = :cancelled REMOVE open_game",
            ExpressionAttributeNames={"#state": "state"},
            ExpressionAttributeValues={
                ":open": {"S": "open"},
                ":cancelled": {"S": "cancelled"},
                ":me": {"S": owner_id},
            },
        )
        return answer is not None


def _record(seek: Seek) -> dict[str, Any]:
    low, high = seek.rating_range or (None, None)
    return {
        "pk": SEEK_PREFIX + seek.id,
        "sk": SEEK_SORT_KEY,
        "id": seek.id,
        "game": seek.game,
        "rated": seek.rated,
        "options": dict(seek.options),
        "color": seek.color,
        "range_lo": low,
        "range_hi": high,
        "owner_id": seek.seeker.player_id,
        "owner_hash": seek.seeker.token_hash,
        "owner_name": seek.seeker.name,
        "owner_rating": seek.seeker.rating.rating,
        "owner_provisional": seek.seeker.rating.provisional,
        "created": seek.created,
        "expires_at": seek.expires,
        "expires": seek.expires // 1000 + 1,  # the TTL attribute (epoch seconds)
        "state": seek.state,
        "open_game": seek.game if seek.state == "open" else None,
        "excluded": sorted(seek.excluded) or None,
    }


def _seek(item: dict[str, Any]) -> Seek:
    record = upgrade(item)
    low, high = record.get("range_lo"), record.get("range_hi")
    return Seek(
        id=record["id"],
        game=record["game"],
        rated=bool(record["rated"]),
        options=record.get("options") or {},
        color=record.get("color"),
        rating_range=None if low is None or high is None else (int(low), int(high)),
        seeker=Seeker(
            player_id=record["owner_id"],
            token_hash=record["owner_hash"],
            name=record.get("owner_name"),
            rating=Rating(int(record["owner_rating"]), bool(record["owner_provisional"])),
        ),
        created=int(record["created"]),
        expires=int(record["expires_at"]),
        state=record["state"],
        taker_id=record.get("taker_id"),
        taker_name=record.get("taker_name"),
        game_id=record.get("game_id"),
        seeker_color=record.get("seeker_color"),
        excluded=frozenset(record.get("excluded") or ()),
    )
