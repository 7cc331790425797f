"""What a player's ``RatingsTable`` partition shows of their country, shared by the players routes (which write it)
and the games' ratings (which copy it): the public **card** and the country's **copies** on the rating items.

* The card (``sk`` ``#card``, sorting before every game) holds ``country`` only while the player shows it, so a
  profile's Query of the partition reads it at no extra call. A hidden country is written nowhere but the player
  item (keyed by the token's hash, which no public route reads).
* A rating item on its game's rating list (it carries ``board``: ``games.ratings.repository``) also carries
  ``board_country`` = ``<game>#<country>`` while the card shows a country: the key of the sparse index
  ``RatingsByCountry`` (``board_country``, ``board_rating``), so a country's list is one Query, as the whole list
  is on ``RatingsByBoard``.

The card is the truth and the copies follow it, with single-item conditional writes only:

* ``save_card`` writes the card, then makes every rating item of the partition agree with it (``copy_card``): each
  change a write conditional on the item's ``version``, which it bumps, so a settle that read the item before it
  loses its own conditional write and reads again.
* A settle that writes a listed rating reads the card again after its write (``RatingStore.save``) and, when
  the card changed since it was read, runs ``copy_card`` itself. Of a hide or show (card, then copies) and a racing
  settle (item, then card), one always sees the other's write: a hidden country never stays on the list, and a
  shown one is not left off it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import Record, to_attribute, with_version
from common.persistence.deadline import StoreUnavailable
from common.persistence.store import call, from_item, query_all, read, to_item
from common.persistence.table import DynamoTable, item_key

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef

#: The rating list of a game (``games.ratings.repository``): the sparse index of the listed rating items.
BOARD_INDEX = "RatingsByBoard"
CARD_SK = "#card"
#: The layout of a card. 1: ``country`` while shown.
CARD_LAYOUT = 1
#: The rating item's copy of the shown country, the key of ``RatingsByCountry``.
BOARD_COUNTRY = "board_country"
COUNTRY_INDEX = "RatingsByCountry"
#: Rounds of ``copy_card`` (a Query, then a conditional write an item that disagrees) before a 503.
MAX_COPY_ROUNDS = 5


def country_board(game: str, country: str | None) -> str | None:
    """The ``RatingsByCountry`` key of a listed rating of ``game`` whose player shows ``country`` (None: none)."""
    return f"{game}#{country}" if country else None


def wanted_copy(item: Record, country: str | None) -> str | None:
    """What a rating item's ``board_country`` must be under a card showing ``country``: only a listed item has one."""
    return country_board(item["sk"], country) if item.get("board") else None


def copy_onto(items: list[Record], country: str | None) -> int:
    """The in-memory stores' ``copy_card``: each rating record of a partition's ``items`` (its ``sk`` a game, not a
    ``#`` item) made to agree with a card showing ``country``, each change a new version; the number changed."""
    changed = 0
    for item in items:
        wanted = item.get(BOARD_COUNTRY) if item["sk"].startswith("#") else wanted_copy(item, country)
        if item.get(BOARD_COUNTRY) != wanted:
            item.pop(BOARD_COUNTRY, None)
            item.update({BOARD_COUNTRY: wanted} if wanted else {})
            item["version"] += 1
            changed += 1
    return changed


def card_record(player_id: str, country: str | None) -> Record:
    record: Record = {"pk": player_id, "sk": CARD_SK}
    if country is not None:
        record["country"] = country
    return with_version(record, CARD_LAYOUT)


class CardRepository(Protocol):
    def save_card(self, player_id: str, country: str | None) -> None:
        """Write the player's public card (``country`` what anyone may see; None: nothing), then make its copies
        on the rating items agree with it."""
        ...


class CardStore(DynamoTable, env="RATINGS_TABLE", default="RatingsTable"):
    """Public cards and their copies on DynamoDB (``RATINGS_TABLE``)."""

    def save_card(self, player_id: str, country: str | None) -> None:
        """One unconditional put (the card is derived from the player item, and the latest choice is the one
        that holds), then ``copy_card``: one Query, and a write for each rating item that disagrees (at most 3)."""
        call("put_item", TableName=self.table, Item=to_item(card_record(player_id, country)))
        self.copy_card(player_id)

    def card_country(self, player_id: str) -> str | None:
        """The country the card shows now (None: none, or hidden): one strongly consistent GetItem."""
        answer = read("get_item", TableName=self.table, Key=item_key(player_id, CARD_SK), ConsistentRead=True)
        return from_item(answer["Item"]).get("country") if "Item" in answer else None

    def with_card(self, player_id: str, sk: str) -> tuple[Record | None, str | None]:
        """The item ``sk`` of the player's partition and the country their card shows: one BatchGetItem (strongly
        consistent; its two reads are not one snapshot, hence ``after_copy``)."""
        keys = [item_key(player_id, sk), item_key(player_id, CARD_SK)]
        found: dict[str, Record] = {}
        while keys:
            answer = read("batch_get_item", RequestItems={self.table: {"Keys": keys, "ConsistentRead": True}})
            found.update((item["sk"], item) for item in map(from_item, answer["Responses"].get(self.table, [])))
            keys = answer.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return found.get(sk), found.get(CARD_SK, {}).get("country")

    def after_copy(self, player_id: str, country: str | None) -> None:
        """After a write of a listed rating item with ``country`` copied (None: none): when the card no longer
        shows that (hidden or shown since it was read), make the copies agree with it. One GetItem, and
        ``copy_card`` only then."""
        if self.card_country(player_id) != country:
            self.copy_card(player_id)

    def listed_players(self, game: str) -> list[str]:
        """Every player on ``game``'s rating list, lapsed or not: a Query of ``RatingsByBoard``, keys only."""
        items = query_all(
            TableName=self.table,
            IndexName=BOARD_INDEX,
            KeyConditionExpression="board = :game",
            ExpressionAttributeValues={":game": {"S": game}},
            ProjectionExpression="pk",
        )
        return sorted({item["pk"]["S"] for item in items})

    def copy_card(self, player_id: str) -> int:
        """Make every rating item's ``board_country`` agree with the card as it is now: a strongly consistent Query
        of the partition (the card comes first), then a write conditional on the version read for each item that
        disagrees; a lost condition (a settle wrote meanwhile) reads again. The number of items written."""
        written = 0
        for _ in range(MAX_COPY_ROUNDS):
            items = query_partition(self.table, player_id, "sk, version, board, board_country, country")
            card = next((item for item in items if item["sk"] == CARD_SK), {})
            ratings = [item for item in items if not item["sk"].startswith("#")]  # no card, no tally
            outcomes = [self._copy(player_id, item, card.get("country")) for item in ratings]
            written += outcomes.count(True)
            if False not in outcomes:
                return written
        raise StoreUnavailable("a rating is too busy right now; try again")

    def _copy(self, player_id: str, item: Record, country: str | None) -> bool | None:
        """Write ``item``'s copy of ``country`` if it disagrees (True); None when it agrees already, False when
        its version moved meanwhile."""
        wanted = wanted_copy(item, country)
        if item.get(BOARD_COUNTRY) == wanted:
            return None
        version = int(item.get("version", 0))
        values: dict[str, Any] = {":read": to_attribute(version), ":next": to_attribute(version + 1)}
        if wanted is None:
            update = f"SET version = :next REMOVE {BOARD_COUNTRY}"
        else:
            update = f"SET version = :next, {BOARD_COUNTRY} = :key"
            values[":key"] = to_attribute(wanted)
        answer = self.update(item_key(player_id, item["sk"]), update, "version = :read", values=values)
        return answer is not None


def query_partition(table: str, player_id: str, projection: str, names: dict[str, str] | None = None) -> list[Record]:
    """The items of the player's partition, ``projection`` of each: one strongly consistent Query."""
    params: QueryInputTypeDef = {
        "TableName": table,
        "KeyConditionExpression": "pk = :player",
        "ExpressionAttributeValues": {":player": {"S": player_id}},
        "ProjectionExpression": projection,
        "ConsistentRead": True,
    }
    if names:
        params["ExpressionAttributeNames"] = names
    return [from_item(item) for item in read("query", **params)["Items"]]
