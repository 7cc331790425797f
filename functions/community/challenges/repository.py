"""Where direct challenges are kept: the ``ChallengeRepository`` protocol, ``InMemoryChallenges`` and
``DynamoChallenges`` on ``CommunityTable`` (beside the follows, ``community.repository``):

* ``pk = "player#<receiver>"``, ``sk = "challenge#<id>"``: the challenge as its receiver holds it, the one
  that decides: every answer is a write conditional on its ``state`` being ``open``;
* ``pk = "player#<sender>"``, ``sk = "challenging#<id>"``: the sender's copy, written after the receiver's,
  so the sender's list shows the answer (and the game). A crash between the two leaves the copy behind until the
  receiver's item is read again (``challenge``), which brings it up to date.

Both carry ``expires`` (DynamoDB's TTL): two days after the challenge lapses.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import split_version, with_version
from common.persistence.store import call, from_item, query_all, read, to_item
from common.persistence.table import DynamoTable

from community.challenges.domain import Challenge, Challenger

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import PutItemInputTypeDef

PLAYER, RECEIVED, SENT = "player#", "challenge#", "challenging#"
#: 1: the layout above.
SCHEMA_VERSION = 1


class ChallengeRepository(Protocol):
    def add(self, challenge: Challenge) -> None:
        """Store a new challenge (the receiver's item, then the sender's copy)."""
        ...

    def received(self, player_id: str, challenge_id: str) -> Challenge | None: ...

    def sent(self, player_id: str, challenge_id: str) -> Challenge | None: ...

    def answer(self, challenge: Challenge) -> bool:
        """Store ``challenge`` as answered if the stored one is still open (then its sender's copy); whether it
        was."""
        ...

    def copy(self, challenge: Challenge) -> None:
        """Write the sender's copy again (after a crash left it behind the receiver's item)."""
        ...

    def received_by(self, player_id: str) -> list[Challenge]:
        """Every challenge kept for the player as receiver, oldest first."""
        ...

    def sent_by(self, player_id: str) -> list[Challenge]: ...

    def forget(self, player_id: str) -> int:
        """Delete every challenge of the player, received and sent, and the other side's item of each
        ("Delete my data"); how many challenges."""
        ...


def record_of(challenge: Challenge) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": challenge.id,
        "game": challenge.game,
        "options": dict(challenge.options),
        "rated": challenge.rated,
        "color": challenge.color,
        "at": challenge.at,
        "state": challenge.state,
        "expires": challenge.expires(),
    }
    for role, side in (("sender", challenge.sender), ("receiver", challenge.receiver)):
        record[f"{role}_id"], record[f"{role}_name"], record[f"{role}_key"] = side.player_id, side.name, side.token_hash
    if challenge.game_id is not None:
        record["game_id"] = challenge.game_id
    if challenge.answered is not None:
        record["answered"] = challenge.answered
    return record


def challenge_of(record: dict[str, Any]) -> Challenge:
    def side(role: str) -> Challenger:
        return Challenger(str(record[f"{role}_id"]), record.get(f"{role}_name"), str(record[f"{role}_key"]))

    return Challenge(
        id=str(record["id"]),
        sender=side("sender"),
        receiver=side("receiver"),
        game=str(record["game"]),
        options=dict(record.get("options") or {}),
        rated=bool(record["rated"]),
        color=record["color"],
        at=int(record["at"]),
        state=record["state"],
        game_id=record.get("game_id"),
        answered=None if record.get("answered") is None else int(record["answered"]),
    )


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored item in the current layout (there is one so far)."""
    _version, record = split_version(item)
    return record


class InMemoryChallenges:
    """A ``ChallengeRepository`` in dicts, with the same conditions as DynamoDB's."""

    def __init__(self) -> None:
        self.by_receiver: dict[str, dict[str, Challenge]] = {}
        self.by_sender: dict[str, dict[str, Challenge]] = {}
        self._lock = threading.Lock()

    def add(self, challenge: Challenge) -> None:
        self.by_receiver.setdefault(challenge.receiver.player_id, {})[challenge.id] = challenge
        self.copy(challenge)

    def received(self, player_id: str, challenge_id: str) -> Challenge | None:
        return self.by_receiver.get(player_id, {}).get(challenge_id)

    def sent(self, player_id: str, challenge_id: str) -> Challenge | None:
        return self.by_sender.get(player_id, {}).get(challenge_id)

    def answer(self, challenge: Challenge) -> bool:
        with self._lock:
            mine = self.by_receiver.get(challenge.receiver.player_id, {})
            stored = mine.get(challenge.id)
            if stored is None or stored.state != "open":
                return False
            mine[challenge.id] = challenge
        self.copy(challenge)
        return True

    def copy(self, challenge: Challenge) -> None:
        self.by_sender.setdefault(challenge.sender.player_id, {})[challenge.id] = replace(challenge)

    def received_by(self, player_id: str) -> list[Challenge]:
        return sorted(copy.deepcopy(list(self.by_receiver.get(player_id, {}).values())), key=_order)

    def sent_by(self, player_id: str) -> list[Challenge]:
        return sorted(copy.deepcopy(list(self.by_sender.get(player_id, {}).values())), key=_order)

    def forget(self, player_id: str) -> int:
        received, sent = self.by_receiver.pop(player_id, {}), self.by_sender.pop(player_id, {})
        for challenge in received.values():
            self.by_sender.get(challenge.sender.player_id, {}).pop(challenge.id, None)
        for challenge in sent.values():
            self.by_receiver.get(challenge.receiver.player_id, {}).pop(challenge.id, None)
        return len(received) + len(sent)


def _order(challenge: Challenge) -> tuple[int, str]:
    return challenge.at, challenge.id


class DynamoChallenges(DynamoTable, env="COMMUNITY_TABLE", default="CommunityTable"):
    """``ChallengeRepository`` on DynamoDB (the community's table)."""

    def _put(self, owner: str, prefix: str, challenge: Challenge, condition: dict[str, Any] | None = None) -> bool:
        record = {"pk": PLAYER + owner, "sk": prefix + challenge.id, **record_of(challenge)}
        params: PutItemInputTypeDef = {"TableName": self.table, "Item": to_item(with_version(record, SCHEMA_VERSION))}
        return call("put_item", **params, **(condition or {})) is not None

    def add(self, challenge: Challenge) -> None:
        self._put(challenge.receiver.player_id, RECEIVED, challenge)
        self.copy(challenge)

    def _get(self, player_id: str, sk: str) -> Challenge | None:
        key = {"pk": {"S": PLAYER + player_id}, "sk": {"S": sk}}
        answer = read("get_item", TableName=self.table, Key=key, ConsistentRead=True)
        return challenge_of(upgrade(from_item(answer["Item"]))) if "Item" in answer else None

    def received(self, player_id: str, challenge_id: str) -> Challenge | None:
        return self._get(player_id, RECEIVED + challenge_id)

    def sent(self, player_id: str, challenge_id: str) -> Challenge | None:
        return self._get(player_id, SENT + challenge_id)

    def answer(self, challenge: Challenge) -> bool:
        condition = {
            "ConditionExpression": "#state = :open",
            "ExpressionAttributeNames": {"#state": "state"},
            "ExpressionAttributeValues": {":open": {"S": "open"}},
        }
        if not self._put(challenge.receiver.player_id, RECEIVED, challenge, condition):
            return False
        self.copy(challenge)
        return True

    def copy(self, challenge: Challenge) -> None:
        self._put(challenge.sender.player_id, SENT, challenge)

    def _items(self, player_id: str, prefix: str) -> list[dict[str, Any]]:
        return query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": PLAYER + player_id}, ":prefix": {"S": prefix}},
            ConsistentRead=True,
        )

    def _list(self, player_id: str, prefix: str) -> list[Challenge]:
        found = [challenge_of(upgrade(from_item(item))) for item in self._items(player_id, prefix)]
        return sorted(found, key=_order)

    def received_by(self, player_id: str) -> list[Challenge]:
        return self._list(player_id, RECEIVED)

    def sent_by(self, player_id: str) -> list[Challenge]:
        return self._list(player_id, SENT)

    def forget(self, player_id: str) -> int:
        received, sent = self.received_by(player_id), self.sent_by(player_id)
        keys = [(player_id, RECEIVED + item.id) for item in received]
        keys += [(item.sender.player_id, SENT + item.id) for item in received]
        keys += [(player_id, SENT + item.id) for item in sent]
        keys += [(item.receiver.player_id, RECEIVED + item.id) for item in sent]
        for owner, sk in keys:
            call("delete_item", TableName=self.table, Key={"pk": {"S": PLAYER + owner}, "sk": {"S": sk}})
        return len(received) + len(sent)
