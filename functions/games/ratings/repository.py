"""Where game ratings are kept: ``RatingRepository`` (the protocol), ``InMemoryRatings`` and ``RatingStore``
(DynamoDB, ``RATINGS_TABLE``); ``tests/games/test_ratings_store.py`` runs one contract on all of them.

One item per player per game (pk the player's id, sk the game), under 25 KB: the Glicko-2 values, the count,
the ids of the last rated games applied and the history. ``save`` writes a whole item on the condition that
the stored one is still the version it was read at: single-item optimistic concurrency, no transaction.

The leaderboard is the index ``RatingsByBoard``: ``board`` (the game) and ``board_rating`` are written only
while the player is eligible (``GameRating.board_until``), so the index is sparse and holds only the players
who may be listed; ``board_until`` is filtered on at read, since eligibility lapses with time alone: when the
tenth latest game leaves the 90 days, or when the deviation, growing while the player is away, reaches 100
(``GameRating.board_until`` computes the earlier at each write), so the leaderboard stays one Query.

Beside them in the player's partition: the public card (``#card``) and one **tally** per game
(``#results#<game>``: the all-time wins, draws and losses, ``ResultTally``), all read by the profile's one Query;
every ``#`` item sorts before the games and is no rating.

A country's list is the index ``RatingsByCountry``: a listed item also carries ``board_country`` (``<game>#<country>``)
while the player's public card shows a country; a settle reads the card with the rating (``get_with_card``: one
BatchGetItem), and ``common.ratings.repository`` keeps the copies in step with the card when it changes.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import Record, split_version, with_version
from common.persistence.deadline import StoreUnavailable
from common.persistence.store import call, from_item, read, to_attribute, to_item
from common.persistence.table import DynamoTable, item_key
from common.ratings import glicko2
from common.ratings.repository import (
    BOARD_COUNTRY,
    BOARD_INDEX,
    CARD_SK,
    COUNTRY_INDEX,
    CardStore,
    card_record,
    copy_onto,
    country_board,
    query_partition,
)

from games.ratings.domain import GameRating, ResultTally, pairing_claimed

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import PutItemInputTypeDef

#: Attempts at a pair's conditional claim before giving up (503) under extreme contention.
MAX_CLAIM_ROUNDS = 5
#: The layout of a rating item. 1: the first. 2: adds ``last_at``, when the last rated game ended (from which
#: the deviation grows); a layout-1 item takes it from its history's last point where the history is read
#: (``GameRating.last_game_at``), and has no growth in the summary, which does not read the history. 3: adds
#: ``earned``, the games against established opponents (the rating list's rule); a layout-2 item has none, so
#: its player is listed again after games against 5 established opponents.
SCHEMA_VERSION = 3
#: What a player's own list of ratings reads (never the history nor the applied ids).
SUMMARY_FIELDS = ("pk", "sk", "#name", "rating", "rd", "vol", "games", "version", "last_at")
#: A tally's sort key is this and the game: before the games, after the card.
TALLY_PREFIX = "#results#"
#: The layout of a tally item. 1: the first, ``counted`` the game ids alone; 2: ``counted`` (game id, outcome)
#: pairs (a layout-1 id reads with no outcome: never counted again, never recounted).
TALLY_VERSION = 2


def rating_record(rating: GameRating, now: int) -> Record:
    """The stored record of ``rating``; the leaderboard's attributes only while the player is eligible."""
    until = rating.board_until()
    eligible = until is not None and until > now
    record: Record = {
        "pk": rating.player_id,
        "sk": rating.game,
        "name": rating.name,
        "rating": rating.rating.rating,
        "rd": rating.rating.rd,
        "vol": rating.rating.volatility,
        "games": rating.games,
        "applied": list(rating.applied) or None,
        "history": [list(point) for point in rating.history] or None,
        "version": rating.version,
        "last_at": rating.last_at,
        "earned": [list(point) for point in rating.earned] or None,
        "board": rating.game if eligible else None,
        "board_rating": round(rating.rating.rating) if eligible else None,
        "board_until": until if eligible else None,
        BOARD_COUNTRY: country_board(rating.game, rating.country) if eligible else None,
    }
    return with_version({key: value for key, value in record.items() if value is not None}, SCHEMA_VERSION)


def rating_from(item: Record) -> GameRating:
    _version, record = split_version(item)
    history = tuple((int(at), int(value)) for at, value in record.get("history") or ())
    last_at = record.get("last_at")
    return GameRating(
        player_id=record["pk"],
        game=record["sk"],
        name=record.get("name"),
        rating=glicko2.Rating(float(record["rating"]), float(record["rd"]), float(record["vol"])),
        games=int(record.get("games", 0)),
        applied=tuple(record.get("applied") or ()),
        history=history,
        version=int(record.get("version", 0)),
        last_at=int(last_at) if last_at is not None else None,
        earned=tuple((int(at), str(opponent)) for at, opponent in record.get("earned") or ()),
    )


class RatingRepository(Protocol):
    def get(self, player_id: str, game: str) -> GameRating | None: ...

    def get_with_card(self, player_id: str, game: str) -> GameRating | None: ...  # with its card's ``country``

    def get_many(self, player_ids: list[str], game: str) -> dict[str, GameRating]: ...

    def save(self, rating: GameRating, now: int) -> bool: ...  # if still at the version read (``RatingStore.save``)

    def of_player(self, player_id: str) -> list[GameRating]: ...

    def with_histories(self, player_id: str) -> list[GameRating]:
        """The player's ratings with their histories (a public profile's graphs): one Query."""
        ...

    def card_and_histories(self, player_id: str) -> tuple[str | None, list[GameRating]]:
        """The country on the player's public card (None: none, or hidden) and ``with_histories``: one Query."""
        ...

    def save_card(self, player_id: str, country: str | None) -> None: ...

    def copy_card(self, player_id: str) -> int: ...  # ``common.ratings.repository.CardStore``'s

    def listed_players(self, game: str) -> list[str]: ...  # on ``game``'s list, lapsed or not (the back-fill's)

    def public_partition(self, player_id: str) -> PublicPartition:
        """The card's country, the ratings with their histories and the tallies: one Query."""
        ...

    def tally(self, player_id: str, game: str) -> ResultTally | None: ...

    def save_tally(self, tally: ResultTally) -> bool:
        """Write ``tally`` if the stored one is still the version it was read at (``tally.version - 1``)."""
        ...

    def board(self, game: str, now: int, limit: int, country: str | None = None) -> list[GameRating]: ...

    def claim_pairing(self, pair: str, game: str, game_id: str, now: int, window_ms: int, limit: int) -> bool:
        """Claim one of a pair's ``limit`` rated games of ``game`` in the window for ``game_id``; True if it is
        claimed (now or before), False when the window is full."""
        ...


class _PartitionReads:
    """The reads both stores answer from ``public_partition`` (one Query)."""

    def public_partition(self, player_id: str) -> PublicPartition:
        raise NotImplementedError

    def with_histories(self, player_id: str) -> list[GameRating]:
        return self.card_and_histories(player_id)[1]

    def card_and_histories(self, player_id: str) -> tuple[str | None, list[GameRating]]:
        found = self.public_partition(player_id)
        return found.country, found.ratings


class InMemoryRatings(_PartitionReads):
    """A ``RatingRepository`` in a dict, with the same condition as DynamoDB's."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], Record] = {}
        self.pairings: dict[tuple[str, str], list[tuple[str, int]]] = {}
        self._lock = threading.Lock()

    def get(self, player_id: str, game: str) -> GameRating | None:
        item = self.items.get((player_id, game))
        return rating_from(copy.deepcopy(item)) if item else None

    def get_with_card(self, player_id: str, game: str) -> GameRating | None:
        with self._lock:
            rating = self.get(player_id, game)
            return replace(rating, country=self._card_country(player_id)) if rating else None

    def get_many(self, player_ids: list[str], game: str) -> dict[str, GameRating]:
        found = {player_id: self.get(player_id, game) for player_id in player_ids}
        return {player_id: rating for player_id, rating in found.items() if rating is not None}

    def save(self, rating: GameRating, now: int) -> bool:
        with self._lock:
            stored = self.items.get((rating.player_id, rating.game))
            if (stored.get("version") if stored else 0) != rating.version - 1:
                return False
            record = self.items[(rating.player_id, rating.game)] = rating_record(rating, now)
            if "board" in record and rating.country != self._card_country(rating.player_id):
                copy_onto(self._partition(rating.player_id), self._card_country(rating.player_id))  # as DynamoDB's
            return True

    def of_player(self, player_id: str) -> list[GameRating]:
        return [rating_from(_summary(item)) for item in self._partition(player_id) if _is_rating(item["sk"])]

    def public_partition(self, player_id: str) -> PublicPartition:
        return _partition_of(copy.deepcopy(self._partition(player_id)))

    def tally(self, player_id: str, game: str) -> ResultTally | None:
        item = self.items.get((player_id, TALLY_PREFIX + game))
        return tally_from(copy.deepcopy(item)) if item else None

    def save_tally(self, tally: ResultTally) -> bool:
        with self._lock:
            stored = self.items.get((tally.player_id, TALLY_PREFIX + tally.game))
            if (stored.get("version") if stored else 0) != tally.version - 1:
                return False
            self.items[(tally.player_id, TALLY_PREFIX + tally.game)] = tally_record(tally)
            return True

    def save_card(self, player_id: str, country: str | None) -> None:
        with self._lock:
            self.items[(player_id, CARD_SK)] = card_record(player_id, country)
            copy_onto(self._partition(player_id), country)

    def copy_card(self, player_id: str) -> int:
        with self._lock:
            return copy_onto(self._partition(player_id), self._card_country(player_id))

    def listed_players(self, game: str) -> list[str]:
        return sorted({item["pk"] for item in self.items.values() if item.get("board") == game})

    def _card_country(self, player_id: str) -> str | None:
        return self.items.get((player_id, CARD_SK), {}).get("country")

    def _partition(self, player_id: str) -> list[Record]:
        return [item for (owner, _), item in sorted(self.items.items()) if owner == player_id]

    def board(self, game: str, now: int, limit: int, country: str | None = None) -> list[GameRating]:
        """As the index answers: the best ``limit`` read, then those still eligible kept."""
        key, value = ("board", game) if country is None else (BOARD_COUNTRY, country_board(game, country))
        listed = sorted(
            (item for item in self.items.values() if item.get(key) == value),
            key=lambda item: item["board_rating"],
            reverse=True,
        )[:limit]
        return [rating_from(_summary(item)) for item in listed if item["board_until"] > now]

    def claim_pairing(self, pair: str, game: str, game_id: str, now: int, window_ms: int, limit: int) -> bool:
        with self._lock:
            games = self.pairings.setdefault((pair, game), [])
            claimed = pairing_claimed(games, game_id, now, window_ms, limit)
            if claimed is None:
                games[:] = [*(entry for entry in games if entry[1] > now - window_ms), (game_id, now)]
                return True
            return claimed


class RatingStore(_PartitionReads, DynamoTable, env="RATINGS_TABLE", default="RatingsTable"):
    """The ratings table on DynamoDB."""

    def get(self, player_id: str, game: str) -> GameRating | None:
        answer = read("get_item", TableName=self.table, Key=item_key(player_id, game), ConsistentRead=True)
        return rating_from(from_item(answer["Item"])) if "Item" in answer else None

    def get_with_card(self, player_id: str, game: str) -> GameRating | None:
        """The rating and the player's card: one BatchGetItem (strongly consistent)."""
        item, country = CardStore(self.table).with_card(player_id, game)
        return replace(rating_from(item), country=country) if item else None

    def get_many(self, player_ids: list[str], game: str) -> dict[str, GameRating]:
        """The ratings of these players in ``game`` (those that exist): one BatchGetItem (strongly consistent)."""
        keys = [item_key(player_id, game) for player_id in dict.fromkeys(player_ids)]
        found: dict[str, GameRating] = {}
        while keys:
            answer = read("batch_get_item", RequestItems={self.table: {"Keys": keys, "ConsistentRead": True}})
            for item in answer["Responses"].get(self.table, []):
                rating = rating_from(from_item(item))
                found[rating.player_id] = rating
            keys = answer.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return found

    def save(self, rating: GameRating, now: int) -> bool:
        """Write ``rating`` if the stored one is still the version it was read at (``rating.version - 1``); a
        write that lists the player reads the card again after it (one GetItem), and when the card no longer
        shows the country copied (hidden, or shown, meanwhile) makes the copies agree with it
        (``common.ratings.repository``)."""
        record = rating_record(rating, now)
        if not _put_at_version(self.table, record, rating.version - 1):
            return False
        if "board" in record:  # listed: the copy follows the card even if it changed since it was read
            CardStore(self.table).after_copy(rating.player_id, rating.country)
        return True

    def of_player(self, player_id: str) -> list[GameRating]:
        """The player's ratings, one per game played rated, without their histories: one Query."""
        items = query_partition(self.table, player_id, ", ".join(SUMMARY_FIELDS), {"#name": "name"})
        return [rating_from(item) for item in items if _is_rating(item["sk"])]

    def forget(self, player_id: str) -> None:
        """Delete the player's ratings, tallies and public card ("Delete my data"): one Query of the partition's
        keys, one delete an item."""
        for sk in [*(item["sk"] for item in query_partition(self.table, player_id, "sk")), CARD_SK]:
            call("delete_item", TableName=self.table, Key={"pk": {"S": player_id}, "sk": {"S": sk}})

    def public_partition(self, player_id: str) -> PublicPartition:
        """The card's country, the ratings with their histories and the tallies: one Query (the card, at most
        three tallies of about 1 KB and three ratings of about 20 KB)."""
        answer = read(
            "query",
            TableName=self.table,
            KeyConditionExpression="pk = :player",
            ExpressionAttributeValues={":player": {"S": player_id}},
        )
        return _partition_of([from_item(item) for item in answer["Items"]])

    def tally(self, player_id: str, game: str) -> ResultTally | None:
        answer = read(
            "get_item", TableName=self.table, Key=item_key(player_id, TALLY_PREFIX + game), ConsistentRead=True
        )
        return tally_from(from_item(answer["Item"])) if "Item" in answer else None

    def save_tally(self, tally: ResultTally) -> bool:
        return _put_at_version(self.table, tally_record(tally), tally.version - 1)

    def save_card(self, player_id: str, country: str | None) -> None:
        CardStore(self.table).save_card(player_id, country)

    def copy_card(self, player_id: str) -> int:
        return CardStore(self.table).copy_card(player_id)

    def listed_players(self, game: str) -> list[str]:
        return CardStore(self.table).listed_players(game)

    def board(self, game: str, now: int, limit: int, country: str | None = None) -> list[GameRating]:
        """The eligible players of ``game`` (of ``country`` only, when given), best first: one Query on the sparse
        index (``limit`` items read)."""
        key = game if country is None else country_board(game, country)
        answer = read(
            "query",
            TableName=self.table,
            IndexName=BOARD_INDEX if country is None else COUNTRY_INDEX,
            KeyConditionExpression=f"{'board' if country is None else BOARD_COUNTRY} = :key",
            FilterExpression="board_until > :now",
            ExpressionAttributeValues={":key": {"S": key}, ":now": to_attribute(now)},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [rating_from(from_item(item)) for item in answer["Items"]]

    def claim_pairing(self, pair: str, game: str, game_id: str, now: int, window_ms: int, limit: int) -> bool:
        """The pair's item (``pk`` the pair's key, ``sk`` the game: no player's id, so no player's Query reads
        it) holds the window's claims; a claim is a write conditional on the version read (a lost race reads
        again)."""
        key = {"pk": {"S": pair}, "sk": {"S": game}}
        for _ in range(MAX_CLAIM_ROUNDS):
            answer = read("get_item", TableName=self.table, Key=key, ConsistentRead=True)
            item = from_item(answer["Item"]) if "Item" in answer else {}
            games = [(str(entry[0]), int(entry[1])) for entry in item.get("games") or ()]
            claimed = pairing_claimed(games, game_id, now, window_ms, limit)
            if claimed is not None:
                return claimed
            version = int(item.get("version", 0))
            kept = [[claimed_id, at] for claimed_id, at in games if at > now - window_ms]
            record = {"pk": pair, "sk": game, "games": [*kept, [game_id, now]], "version": version + 1}
            if _put_at_version(self.table, with_version(record, SCHEMA_VERSION), version):
                return True
        raise StoreUnavailable("the pair's games are too busy right now; try again")


@dataclass(frozen=True)
class PublicPartition:
    """What a player's partition shows anyone: the card's country (None: none, or hidden), the ratings with
    their histories, and the tallies of wins, draws and losses."""

    country: str | None
    ratings: list[GameRating]
    tallies: list[ResultTally]


def tally_record(tally: ResultTally) -> Record:
    record: Record = {
        "pk": tally.player_id,
        "sk": TALLY_PREFIX + tally.game,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "counted": [list(entry) for entry in tally.counted] or None,
        "version": tally.version,
    }
    return with_version({key: value for key, value in record.items() if value is not None}, TALLY_VERSION)


def tally_from(item: Record) -> ResultTally:
    _version, record = split_version(item)
    return ResultTally(
        player_id=record["pk"],
        game=record["sk"].removeprefix(TALLY_PREFIX),
        wins=int(record.get("wins", 0)),
        draws=int(record.get("draws", 0)),
        losses=int(record.get("losses", 0)),
        counted=tuple(_counted_entry(entry) for entry in record.get("counted") or ()),
        version=int(record.get("version", 0)),
    )


def _counted_entry(entry: Any) -> tuple[str, str]:
    return (str(entry), "") if isinstance(entry, str) else (str(entry[0]), str(entry[1]))


def _partition_of(items: list[Record]) -> PublicPartition:
    """A partition's items read as the card's country, the ratings and the tallies."""
    card = next((item for item in items if item["sk"] == CARD_SK), {})
    return PublicPartition(
        country=card.get("country"),
        ratings=[rating_from(item) for item in items if _is_rating(item["sk"])],
        tallies=[tally_from(item) for item in items if item["sk"].startswith(TALLY_PREFIX)],
    )


def _is_rating(sk: str) -> bool:
    """A rating's sort key is its game; the card's and the tallies' start with ``#``."""
    return not sk.startswith("#")


def _put_at_version(table: str, record: Record, read_version: int) -> bool:
    """Put ``record`` if the stored item is still at ``read_version`` (0: there is none); False if not."""
    params: PutItemInputTypeDef = {"TableName": table, "Item": to_item(record)}
    if read_version == 0:
        params["ConditionExpression"] = "attribute_not_exists(pk)"
    else:
        params["ConditionExpression"] = "version = :read"
        params["ExpressionAttributeValues"] = {":read": to_attribute(read_version)}
    return call("put_item", **params) is not None


def _summary(item: Record) -> Record:
    """An item without its history and applied ids (what the Query and the index give)."""
    return {key: value for key, value in item.items() if key not in ("history", "applied")}
