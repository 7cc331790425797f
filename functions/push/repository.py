"""Where subscriptions live: the ``SubscriptionRepository`` protocol, ``InMemorySubscriptions`` (the unit
tests' and the contract suite's reference) and, on DynamoDB, the push table (``PushTable`` in template.yaml, ``PUSH_TABLE``): subscriptions and reminder markers.

* ``pk = "player#<player id>"``, ``sk = "sub#<endpoint hash>"``: one subscription (endpoint, keys, lang,
  kinds, created, and ``expires``, the epoch second DynamoDB's TTL removes it at, from ``expirationTime``).
  A player's subscriptions are one Query of at most 10 small items.
* ``pk = "game#<game id>"``, ``sk = "reminder#<deadline ms>#<stage>"``: a reminder that was sent (written
  once, ``attribute_not_exists``: the memory that makes each reminder go once); ``expires`` clears it.

Every write is one single-item conditional write. The client is the shared one of ``common.persistence.store``
(``DYNAMODB_ENDPOINT``, created on first use); every call goes through its ``call`` (the request's time budget; a throttled or failing DynamoDB raises
``StoreUnavailable``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import split_version, with_version
from common.persistence.store import StoreUnavailable, call, from_item, put_new, query_all, to_item
from common.persistence.table import DynamoTable, item_key

from push.domain import HOUR_MS, Subscription, endpoint_hash, newest_first, next_daily_at

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef

DAILY_INDEX = "SubscriptionsByDailyHour"
PLAYER_PREFIX = "player#"
SUBSCRIPTION_PREFIX = "sub#"
GAME_PREFIX = "game#"
REMINDER_PREFIX = "reminder#"
#: A reminder's marker outlives its deadline by this long (then TTL deletes it).
MARKER_DAYS = 30
#: The layout of a subscription item and of a reminder marker. 1: as described above; items written before
#: versions were stored (0) have the same layout but may lack ``tz`` (then UTC) and ``kinds``.
SCHEMA_VERSION = 1


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored subscription in the current layout, whatever layout it was written in."""
    _version, record = split_version(item)
    record["kinds"] = record.get("kinds") or []
    record["tz"] = record.get("tz") or "UTC"
    return record


class SubscriptionRepository(Protocol):
    """Where subscriptions live; every write is one single-item (conditional) write."""

    def save(self, player_id: str, subscription: Subscription) -> bool:
        """Store it (replacing one with the same endpoint); True if the endpoint was new for the player."""
        ...

    def list(self, player_id: str) -> list[Subscription]:
        """The player's subscriptions, newest first."""
        ...

    def delete(self, player_id: str, endpoint: str, created: int | None = None) -> bool:
        """Remove the one with this endpoint (only if stored at ``created``, when given); whether it was there."""
        ...


class InMemorySubscriptions:
    """A ``SubscriptionRepository`` in a dict: the unit tests' and the contract suite's reference."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Subscription]] = {}

    def save(self, player_id: str, subscription: Subscription) -> bool:
        mine = self.items.setdefault(player_id, {})
        new = subscription.endpoint not in mine
        mine[subscription.endpoint] = subscription
        return new

    def list(self, player_id: str) -> list[Subscription]:
        return newest_first(self.items.get(player_id, {}).values())

    def delete(self, player_id: str, endpoint: str, created: int | None = None) -> bool:
        mine = self.items.get(player_id, {})
        found = mine.get(endpoint)
        if found is None or (created is not None and found.created != created):
            return False
        del mine[endpoint]
        return True


class DynamoSubscriptions(DynamoTable, env="PUSH_TABLE", default="PushTable"):
    """``SubscriptionRepository`` on DynamoDB."""

    def save(self, player_id: str, subscription: Subscription) -> bool:
        record: dict[str, Any] = {
            "pk": PLAYER_PREFIX + player_id,
            "sk": SUBSCRIPTION_PREFIX + subscription.endpoint_hash,
            "endpoint": subscription.endpoint,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": subscription.lang,
            "kinds": list(subscription.kinds),
            "created": subscription.created,
            "expiration_time": subscription.expiration_time,
            "expires": None if subscription.expiration_time is None else subscription.expiration_time // 1000 + 1,
            "tz": subscription.tz,
        }
        if subscription.wants("daily_puzzle"):  # into the sparse daily index: when its next 08:00 is
            daily_at = next_daily_at(subscription.created, subscription.tz)
            record.update(daily_at=daily_at, daily_hour=daily_at // HOUR_MS)
        # The same endpoint hash for another endpoint would be a SHA-256 collision; refuse rather than mix them.
        answer = call(
            "put_item",
            TableName=self.table,
            Item=to_item(with_version(record, SCHEMA_VERSION)),
            ConditionExpression="attribute_not_exists(sk) OR endpoint = :endpoint",
            ExpressionAttributeValues={":endpoint": {"S": subscription.endpoint}},
            ReturnValues="ALL_OLD",
        )
        if answer is None:
            raise StoreUnavailable("that endpoint cannot be stored; subscribe again")
        return not answer.get("Attributes")

    def list(self, player_id: str) -> list[Subscription]:
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {
                ":pk": {"S": PLAYER_PREFIX + player_id},
                ":prefix": {"S": SUBSCRIPTION_PREFIX},
            },
            "ConsistentRead": True,
        }
        return newest_first([_subscription(from_item(item)) for item in query_all(**params)])

    def delete(self, player_id: str, endpoint: str, created: int | None = None) -> bool:
        condition = "endpoint = :endpoint"
        values: dict[str, Any] = {":endpoint": {"S": endpoint}}
        if created is not None:
            condition += " AND created = :created"
            values[":created"] = {"N": str(created)}
        answer = call(
            "delete_item",
            TableName=self.table,
            Key={"pk": {"S": PLAYER_PREFIX + player_id}, "sk": {"S": SUBSCRIPTION_PREFIX + endpoint_hash(endpoint)}},
            ConditionExpression=condition,
            ExpressionAttributeValues=values,
        )
        return answer is not None


def _subscription(item: dict[str, Any]) -> Subscription:
    record = upgrade(item)
    return Subscription(
        endpoint=record["endpoint"],
        p256dh=record["p256dh"],
        auth=record["auth"],
        lang=record["lang"],
        kinds=tuple(record["kinds"]),
        created=int(record["created"]),
        expiration_time=record.get("expiration_time"),
        tz=record["tz"],
    )


class DynamoReminderMarks(DynamoTable, env="PUSH_TABLE", default="PushTable"):
    """``ReminderMarks`` on DynamoDB: one item per reminder sent."""

    def mark(self, game_id: str, deadline: int, stage: str) -> bool:
        record = {
            "pk": GAME_PREFIX + game_id,
            "sk": f"{REMINDER_PREFIX}{deadline}#{stage}",
            "expires": deadline // 1000 + MARKER_DAYS * 86_400,
        }
        return put_new(self.table, record, SCHEMA_VERSION, "sk")


class DynamoDailySubscriptions(DynamoTable, env="PUSH_TABLE", default="PushTable"):
    """The subscriptions that want the daily puzzle, by the hour of their next 08:00 (``SubscriptionsByDailyHour``,
    sparse: only those carry ``daily_hour``)."""

    def due(self, hour: int, now_ms: int) -> list[tuple[str, Subscription, int]]:
        """(player id, subscription, its ``daily_at``) of those due by ``now_ms`` in hour bucket ``hour``."""
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "IndexName": DAILY_INDEX,
            "KeyConditionExpression": "daily_hour = :hour AND daily_at <= :now",
            "ExpressionAttributeValues": {":hour": {"N": str(hour)}, ":now": {"N": str(now_ms)}},
        }
        found: list[tuple[str, Subscription, int]] = []
        for item in query_all(**params):
            record = from_item(item)
            player_id = str(record["pk"]).removeprefix(PLAYER_PREFIX)
            found.append((player_id, _subscription(record), int(record["daily_at"])))
        return found

    def claim(self, player_id: str, endpoint: str, daily_at: int, next_at: int) -> bool:
        """Move the subscription's next daily puzzle from ``daily_at`` to ``next_at``; False if another sweep did."""
        answer = self.update(
            item_key(PLAYER_PREFIX + player_id, SUBSCRIPTION_PREFIX + endpoint_hash(endpoint)),
            "SET daily_at = :next, daily_hour = :hour",
            "daily_at = :at",
            values={
                ":at": {"N": str(daily_at)},
                ":next": {"N": str(next_at)},
                ":hour": {"N": str(next_at // HOUR_MS)},
            },
        )
        return answer is not None
