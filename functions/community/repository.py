"""Where the community keeps its items: the ``CommunityRepository`` protocol, ``InMemoryCommunity`` (the unit
tests' and the contract's reference) and ``DynamoCommunity`` on ``CommunityTable`` (template.yaml,
``COMMUNITY_TABLE``):

* ``pk = "player#<id>"``, ``sk = "card"``: a player the community may be asked to follow (name, token hash:
  only to read that player's blocks), written when the player opens the community page or is followed from
  a game.
* ``pk = "player#<follower>"``, ``sk = "follows#<followed>"``: a follow (the name followed, since when); and
  ``pk = "player#<followed>"``, ``sk = "follower#<follower>"``: its mirror, so a player's followers are one Query
  too. The follow is written first (conditional: once), then its mirror; a crash between them leaves a follow
  without a mirror, which the next follow of the same player writes again.
* ``pk = "feedback#<day>"``, ``sk = "<ms>#<random>"``: one piece of feedback, tied to no player, with
  ``expires`` (DynamoDB's TTL).

Every write is one single-item (conditional) write; the client is ``common.persistence.store``'s.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from typing import Any, Protocol

from common.persistence.attributes import split_version
from common.persistence.memory import put_absent
from common.persistence.store import call, from_item, put, query_all, read
from common.persistence.table import DynamoTable, item_key

from community.domain import Card, Feedback, Follow

PLAYER, CARD, FOLLOWS, FOLLOWER, FEEDBACK = "player#", "card", "follows#", "follower#", "feedback#"
#: 1: the layout above.
SCHEMA_VERSION = 1


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored item in the current layout (there is one so far)."""
    _version, record = split_version(item)
    return record


class CommunityRepository(Protocol):
    def save_card(self, card: Card) -> None: ...

    def card(self, player_id: str) -> Card | None: ...

    def remove_card(self, player_id: str) -> None:
        """Forget the player's card ("Delete my data")."""
        ...

    def add_follow(self, follower: str, follow: Follow) -> bool:
        """Store the follow and its mirror; False when it was stored already (the mirror is written again)."""
        ...

    def remove_follow(self, follower: str, followed: str) -> bool:
        """Remove the follow and its mirror; whether the follow was there."""
        ...

    def follows(self, player_id: str) -> list[Follow]:
        """The players ``player_id`` follows, oldest first."""
        ...

    def followers(self, player_id: str) -> set[str]:
        """The ids of the players who follow ``player_id``."""
        ...

    def add_feedback(self, feedback: Feedback, expires: int) -> None: ...


class InMemoryCommunity:
    """A ``CommunityRepository`` in dicts, with the same conditions as DynamoDB's."""

    def __init__(self) -> None:
        self.cards: dict[str, Card] = {}
        self.following: dict[str, dict[str, Follow]] = {}
        self.feedback: list[tuple[Feedback, int]] = []
        self._lock = threading.Lock()

    def save_card(self, card: Card) -> None:
        self.cards[card.player_id] = card

    def card(self, player_id: str) -> Card | None:
        return self.cards.get(player_id)

    def remove_card(self, player_id: str) -> None:
        self.cards.pop(player_id, None)

    def add_follow(self, follower: str, follow: Follow) -> bool:
        with self._lock:
            return put_absent(self.following.setdefault(follower, {}), follow.player_id, follow)

    def remove_follow(self, follower: str, followed: str) -> bool:
        with self._lock:
            return self.following.get(follower, {}).pop(followed, None) is not None

    def follows(self, player_id: str) -> list[Follow]:
        found = list(self.following.get(player_id, {}).values())
        return sorted(copy.deepcopy(found), key=lambda follow: (follow.since, follow.player_id))

    def followers(self, player_id: str) -> set[str]:
        return {follower for follower, mine in self.following.items() if player_id in mine}

    def add_feedback(self, feedback: Feedback, expires: int) -> None:
        self.feedback.append((feedback, expires))


class DynamoCommunity(DynamoTable, env="COMMUNITY_TABLE", default="CommunityTable"):
    """``CommunityRepository`` on DynamoDB."""

    def _put(self, record: dict[str, Any], condition: str | None = None) -> bool:
        return put(self.table, record, SCHEMA_VERSION, condition)

    def save_card(self, card: Card) -> None:
        record = {"pk": PLAYER + card.player_id, "sk": CARD, "token_hash": card.token_hash, "name": card.name}
        self._put(record)

    def card(self, player_id: str) -> Card | None:
        answer = read("get_item", TableName=self.table, Key=item_key(PLAYER + player_id, CARD), ConsistentRead=True)
        if "Item" not in answer:
            return None
        record = upgrade(from_item(answer["Item"]))
        return Card(player_id, str(record["token_hash"]), record.get("name"))

    def remove_card(self, player_id: str) -> None:
        call("delete_item", TableName=self.table, Key=item_key(PLAYER + player_id, CARD))

    def add_follow(self, follower: str, follow: Follow) -> bool:
        record = {"pk": PLAYER + follower, "sk": FOLLOWS + follow.player_id, "name": follow.name, "at": follow.since}
        new = self._put(record, "attribute_not_exists(sk)")
        self._put({"pk": PLAYER + follow.player_id, "sk": FOLLOWER + follower, "at": follow.since})
        return new

    def remove_follow(self, follower: str, followed: str) -> bool:
        found = call(
            "delete_item",
            TableName=self.table,
            Key=item_key(PLAYER + follower, FOLLOWS + followed),
            ConditionExpression="attribute_exists(sk)",
        )
        call("delete_item", TableName=self.table, Key=item_key(PLAYER + followed, FOLLOWER + follower))
        return found is not None

    def _query(self, player_id: str, prefix: str) -> list[dict[str, Any]]:
        return [
            upgrade(from_item(item))
            for item in query_all(
                TableName=self.table,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": PLAYER + player_id}, ":prefix": {"S": prefix}},
                ConsistentRead=True,
            )
        ]

    def follows(self, player_id: str) -> list[Follow]:
        found = [
            Follow(str(record["sk"]).removeprefix(FOLLOWS), record.get("name"), int(record["at"]))
            for record in self._query(player_id, FOLLOWS)
        ]
        return sorted(found, key=lambda follow: (follow.since, follow.player_id))

    def followers(self, player_id: str) -> set[str]:
        return {str(record["sk"]).removeprefix(FOLLOWER) for record in self._query(player_id, FOLLOWER)}

    def add_feedback(self, feedback: Feedback, expires: int) -> None:
        day = time.strftime("%Y-%m-%d", time.gmtime(feedback.at / 1000))
        record = {
            "pk": FEEDBACK + day,
            "sk": f"{feedback.at}#{secrets.token_urlsafe(6)}",
            "category": feedback.category,
            "text": feedback.text,
            "lang": feedback.lang,
            "expires": expires,
        }
        self._put(record)
