"""Where the live socket's state lives: the ``LiveRepository`` protocol, ``InMemoryLive`` (the unit tests' and the
contract's reference) and ``DynamoLive`` on ``LiveTable`` (template.yaml, ``LIVE_TABLE``):

* ``pk = "ticket#<sha-256>"``, ``sk = "T"``: an issued ticket (player, address, ``expires_ms``); taken by a
  conditional delete, so of two connections with one ticket exactly one gets it.
* ``pk = "conn#<connection id>"``, ``sk = "C"``: an open connection (player, address, the games it follows, the
  slots it holds).
* ``pk = "game#<game id>"`` or ``"tournament#<id>"``, ``sk = "conn#<connection id>"``: a follower (and its
  player, for a tournament's view of its own); the fan-out's one Query per game or tournament.
* ``pk = "player#<id>"`` or ``"address#<ip>"``, ``sk = "slot#<n>"``: the connection holding slot n of its
  player's or address's few; claimed with a write conditional on the slot being free or expired, so two
  connections at once never take one slot, and a slot whose ``$disconnect`` never came frees itself at its
  ``expires_ms``.

Every item carries ``expires`` (epoch seconds: DynamoDB's TTL) and every write is one single-item conditional
write; the client is ``common.persistence.store``'s.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from common.persistence.attributes import split_version, with_version
from common.persistence.store import call, from_item, query_all, read, to_item
from common.persistence.table import DynamoTable, item_key

from live.domain import Connection, Follower, Ticket, tournament_of_topic

TICKET, CONNECTION, GAME, TOURNAMENT, SLOT, FOLLOWER = "ticket#", "conn#", "game#", "tournament#", "slot#", "conn#"
#: 1: the layout above; 2: a follower carries its connection's ``player_id`` (none in 1: read as a watcher's).
SCHEMA_VERSION = 2


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored item in the current layout (a version-1 follower has no ``player_id``: a watcher's)."""
    _version, record = split_version(item)
    return record


def follow_key(topic: str) -> str:
    """The followers' partition of a topic (a game's id or a tournament's topic)."""
    tournament = tournament_of_topic(topic)
    return TOURNAMENT + tournament if tournament is not None else GAME + topic


class LiveRepository(Protocol):
    def put_ticket(self, ticket: Ticket) -> None: ...

    def take_ticket(self, digest: str) -> Ticket | None:
        """The ticket, removed (whoever asks next finds nothing); None when there is none."""
        ...

    def claim_slot(self, owner: str, connection_id: str, limit: int, now_ms: int, expires_ms: int) -> str | None:
        """One of ``owner``'s ``limit`` slots for the connection (its key), or None when all are held."""
        ...

    def release_slot(self, owner: str, slot: str, connection_id: str) -> None:
        """Free the slot if this connection still holds it."""
        ...

    def save_connection(self, connection: Connection, slots: list[tuple[str, str]]) -> None: ...

    def connection(self, connection_id: str) -> tuple[Connection, list[tuple[str, str]]] | None: ...

    def delete_connection(self, connection_id: str) -> None: ...

    def add_follower(self, topic: str, connection_id: str, expires_ms: int, player_id: str | None = None) -> None: ...

    def remove_follower(self, topic: str, connection_id: str) -> None: ...

    def followers(self, topic: str, now_ms: int) -> list[Follower]:
        """The connections following the game or tournament (those not past their ``expires_ms``)."""
        ...


class InMemoryLive:
    """``LiveRepository`` in dicts."""

    def __init__(self) -> None:
        self.tickets: dict[str, Ticket] = {}
        self.slots: dict[tuple[str, str], tuple[str, int]] = {}
        self.connections: dict[str, tuple[Connection, list[tuple[str, str]]]] = {}
        self.follows: dict[str, dict[str, tuple[int, str | None]]] = {}

    def put_ticket(self, ticket: Ticket) -> None:
        self.tickets[ticket.digest] = ticket

    def take_ticket(self, digest: str) -> Ticket | None:
        return self.tickets.pop(digest, None)

    def claim_slot(self, owner: str, connection_id: str, limit: int, now_ms: int, expires_ms: int) -> str | None:
        for number in range(limit):
            key = (owner, f"{SLOT}{number}")
            held = self.slots.get(key)
            if held is None or held[1] <= now_ms:
                self.slots[key] = (connection_id, expires_ms)
                return key[1]
        return None

    def release_slot(self, owner: str, slot: str, connection_id: str) -> None:
        held = self.slots.get((owner, slot))
        if held is not None and held[0] == connection_id:
            del self.slots[(owner, slot)]

    def save_connection(self, connection: Connection, slots: list[tuple[str, str]]) -> None:
        self.connections[connection.connection_id] = (connection, list(slots))

    def connection(self, connection_id: str) -> tuple[Connection, list[tuple[str, str]]] | None:
        return self.connections.get(connection_id)

    def delete_connection(self, connection_id: str) -> None:
        self.connections.pop(connection_id, None)

    def add_follower(self, topic: str, connection_id: str, expires_ms: int, player_id: str | None = None) -> None:
        self.follows.setdefault(topic, {})[connection_id] = (expires_ms, player_id)

    def remove_follower(self, topic: str, connection_id: str) -> None:
        self.follows.get(topic, {}).pop(connection_id, None)

    def followers(self, topic: str, now_ms: int) -> list[Follower]:
        held = sorted(self.follows.get(topic, {}).items())
        return [Follower(cid, player) for cid, (expires, player) in held if expires > now_ms]


def _expiring(record: dict[str, Any], expires_ms: int) -> dict[str, Any]:
    return with_version({**record, "expires_ms": expires_ms, "expires": expires_ms // 1000 + 1}, SCHEMA_VERSION)


class DynamoLive(DynamoTable, env="LIVE_TABLE", default="LiveTable"):
    """``LiveRepository`` on DynamoDB."""

    def put_ticket(self, ticket: Ticket) -> None:
        record = {"pk": TICKET + ticket.digest, "sk": "T", "player_id": ticket.player_id, "address": ticket.address}
        call(
            "put_item",
            TableName=self.table,
            Item=to_item(_expiring(record, ticket.expires_ms)),
            ConditionExpression="attribute_not_exists(pk)",
        )

    def take_ticket(self, digest: str) -> Ticket | None:
        answer = call(
            "delete_item",
            TableName=self.table,
            Key=item_key(TICKET + digest, "T"),
            ConditionExpression="attribute_exists(pk)",
            ReturnValues="ALL_OLD",
        )
        if not answer or "Attributes" not in answer:
            return None
        record = upgrade(from_item(answer["Attributes"]))
        return Ticket(digest, record.get("player_id"), record.get("address"), int(record["expires_ms"]))

    def claim_slot(self, owner: str, connection_id: str, limit: int, now_ms: int, expires_ms: int) -> str | None:
        held = {
            str(record["sk"]): int(record["expires_ms"])
            for record in map(from_item, query_all(TableName=self.table, KeyConditionExpression="pk = :pk",
                                                   ExpressionAttributeValues={":pk": {"S": owner}},
                                                   ConsistentRead=True))
        }  # fmt: skip
        for number in range(limit):
            slot = f"{SLOT}{number}"
            if held.get(slot, 0) > now_ms:
                continue
            record = {"pk": owner, "sk": slot, "connection_id": connection_id}
            if (
                call(
                    "put_item",
                    TableName=self.table,
                    Item=to_item(_expiring(record, expires_ms)),
                    ConditionExpression="attribute_not_exists(pk) OR expires_ms <= :now",
                    ExpressionAttributeValues={":now": {"N": str(now_ms)}},
                )
                is not None
            ):
                return slot
        return None

    def release_slot(self, owner: str, slot: str, connection_id: str) -> None:
        call(
            "delete_item",
            TableName=self.table,
            Key=item_key(owner, slot),
            ConditionExpression="connection_id = :c",
            ExpressionAttributeValues={":c": {"S": connection_id}},
        )

    def save_connection(self, connection: Connection, slots: list[tuple[str, str]]) -> None:
        record = {
            "pk": CONNECTION + connection.connection_id,
            "sk": "C",
            "player_id": connection.player_id,
            "address": connection.address,
            "follows": list(connection.follows),
            "slots": [f"{owner}|{slot}" for owner, slot in slots],
        }
        read("put_item", TableName=self.table, Item=to_item(_expiring(record, connection.expires_ms)))

    def connection(self, connection_id: str) -> tuple[Connection, list[tuple[str, str]]] | None:
        answer = read("get_item", TableName=self.table, Key=item_key(CONNECTION + connection_id, "C"),
                      ConsistentRead=True)  # fmt: skip
        if "Item" not in answer:
            return None
        record = upgrade(from_item(answer["Item"]))
        connection = Connection(
            connection_id,
            record.get("player_id"),
            record.get("address"),
            int(record["expires_ms"]),
            tuple(record.get("follows") or ()),
        )
        slots = [tuple(text.split("|", 1)) for text in record.get("slots") or ()]
        return connection, [(owner, slot) for owner, slot in slots]

    def delete_connection(self, connection_id: str) -> None:
        read("delete_item", TableName=self.table, Key=item_key(CONNECTION + connection_id, "C"))

    def add_follower(self, topic: str, connection_id: str, expires_ms: int, player_id: str | None = None) -> None:
        record = {"pk": follow_key(topic), "sk": FOLLOWER + connection_id, "player_id": player_id}
        read("put_item", TableName=self.table, Item=to_item(_expiring(record, expires_ms)))

    def remove_follower(self, topic: str, connection_id: str) -> None:
        read("delete_item", TableName=self.table, Key=item_key(follow_key(topic), FOLLOWER + connection_id))

    def followers(self, topic: str, now_ms: int) -> list[Follower]:
        items = query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk",
            FilterExpression="expires_ms > :now",
            ExpressionAttributeValues={":pk": {"S": follow_key(topic)}, ":now": {"N": str(now_ms)}},
            ProjectionExpression="sk, player_id, schema_version",
            ConsistentRead=True,  # a follower that subscribed a moment ago gets the next move
        )
        followers = [upgrade(from_item(item)) for item in items]
        return [Follower(str(record["sk"])[len(FOLLOWER) :], record.get("player_id")) for record in followers]


# -- the connections' other end: API Gateway's management API --------------------------------------------------
class Sockets(Protocol):
    def send(self, connection_id: str, data: bytes) -> bool:
        """Send ``data`` (one text message) to the connection: False when it is gone (410)."""
        ...


class InMemorySockets:
    """``Sockets`` that keeps what is sent, per connection; ``gone`` are answered as closed."""

    def __init__(self) -> None:
        self.sent: dict[str, list[bytes]] = {}
        self.gone: set[str] = set()

    def send(self, connection_id: str, data: bytes) -> bool:
        if connection_id in self.gone:
            return False
        self.sent.setdefault(connection_id, []).append(data)
        return True


class ApiGatewaySockets:
    """``Sockets`` through ``PostToConnection`` on ``LIVE_ENDPOINT`` (the stage's https URL; the local runner's
    stand-in under ``make run``)."""

    def __init__(self, endpoint: str | None = None):
        self.endpoint = endpoint or os.environ.get("LIVE_ENDPOINT") or ""

    def send(self, connection_id: str, data: bytes) -> bool:
        from common.persistence.sockets import post_to_connection

        return post_to_connection(self.endpoint, connection_id, data)
