"""The puzzle progress table (``PuzzleProgressTable``, ``PUZZLES_TABLE``): each player's first attempt at each
puzzle, the puzzles' sharded play counters and their folded ratings (docs/puzzles.md). Calls go through
``common.persistence.store`` like every other DynamoDB call.
"""

from __future__ import annotations

import os
from typing import Any

from common.persistence.repositories import COUNTER_SHARDS
from common.persistence.store import StoreUnavailable, call, from_item, read, to_item

# ------------------------------------------------------------------------------------ puzzle progress
_ATTEMPT_PREFIX = "player#"
_COUNTER_PREFIX = "puzzle#"
_COUNTER_SORT_KEY = "count"
_RATING_SORT_KEY = "rating"


class PuzzleStore:
    """The puzzle progress table.

    * ``pk = "player#<player id>"``, ``sk = <puzzle id>``: the player's first finished attempt at the puzzle
      (``result``, ``at``, ``daily``). Written once, with ``attribute_not_exists``: the lock that makes only
      the first attempt count. One Query lists the puzzles a player has tried in a game (ids start with it).
    * ``pk = "puzzle#<puzzle id>#<shard>"``, ``sk = "count"``: ``plays`` and ``solves`` of first attempts,
      one of ``COUNTER_SHARDS`` items chosen at random per attempt; the counts are their sums. They also add
      up the Glicko-2 terms of the puzzle's games (``info``, ``gain``).
    * ``pk = "puzzle#<puzzle id>"``, ``sk = "rating"``: the puzzle's rating and the totals folded into it
      (``puzzles_api.puzzle_rating``), written only when the puzzle is served, never by an attempt.
    """

    def __init__(self, table: str | None = None):
        self.table = table or os.environ.get("PUZZLES_TABLE") or "PuzzleProgressTable"

    def record_first_attempt(self, player_id: str, attempt: dict[str, Any]) -> bool:
        """Store the player's first finished attempt at ``attempt["puzzle"]``; False if there is one already."""
        record = {key: value for key, value in attempt.items() if key != "puzzle"}
        item = to_item({"pk": _ATTEMPT_PREFIX + player_id, "sk": attempt["puzzle"], **record})
        answer = call("put_item", TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(pk)")
        return answer is not None

    def get_attempt(self, player_id: str, puzzle_id: str) -> dict[str, Any] | None:
        key = {"pk": {"S": _ATTEMPT_PREFIX + player_id}, "sk": {"S": puzzle_id}}
        answer = call("get_item", TableName=self.table, Key=key, ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return _attempt(from_item(item)) if item else None

    def attempted(self, player_id: str, id_prefix: str) -> set[str]:
        """The ids, starting with ``id_prefix`` (such as ``"chess-"``), of the puzzles the player has attempted.

        One Query (paginated past 1 MB); it reads about 60 bytes a puzzle tried, so 1,000 puzzles cost 15 KB.
        """
        params: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": {"S": _ATTEMPT_PREFIX + player_id}, ":prefix": {"S": id_prefix}},
            "ProjectionExpression": "sk",
            "ConsistentRead": True,  # a puzzle finished a moment ago must not be served again
        }
        ids: set[str] = set()
        while True:
            answer = read("query", **params)
            ids.update(item["sk"]["S"] for item in answer.get("Items", ()))
            if "LastEvaluatedKey" not in answer:
                return ids
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None:
        """Add one first attempt to counter ``shard`` of the puzzle: one play, a solve if ``solved``, and the
        game's Glicko-2 terms (``puzzles_api.puzzle_rating``)."""
        call(
            "update_item",
            TableName=self.table,
            Key=_counter_key(puzzle_id, shard),
            UpdateExpression="ADD plays :one, solves :solved, info :info, gain :gain",
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":solved": {"N": "1" if solved else "0"},
                ":info": {"N": f"{info:.6f}"},
                ":gain": {"N": f"{gain:.6f}"},
            },
        )

    def counts(self, puzzle_id: str) -> dict[str, int]:
        """``{"plays", "solves"}`` of the puzzle: the sums of its counter shards (one BatchGetItem)."""
        totals = self.rating_state(puzzle_id)[1]
        return {"plays": int(totals["plays"]), "solves": int(totals["solves"])}

    def rating_state(self, puzzle_id: str) -> tuple[dict[str, Any] | None, dict[str, float]]:
        """The puzzle's rating item (None before its first fold) and the sums of its counter shards
        (``plays``, ``solves``, ``info``, ``gain``), in one BatchGetItem."""
        rating_key = _rating_key(puzzle_id)
        keys = [rating_key] + [_counter_key(puzzle_id, shard) for shard in range(COUNTER_SHARDS)]
        request = {self.table: {"Keys": keys}}
        totals = {"plays": 0.0, "solves": 0.0, "info": 0.0, "gain": 0.0}
        rating = None
        for _ in range(5):  # DynamoDB may leave keys unprocessed under load: ask again for those
            answer = read("batch_get_item", RequestItems=request)
            for item in answer.get("Responses", {}).get(self.table, ()):
                record = from_item(item)
                if record["sk"] == _RATING_SORT_KEY:
                    rating = record
                    continue
                for name in totals:
                    totals[name] += float(record.get(name, 0))
            request = answer.get("UnprocessedKeys") or {}
            if not request:
                return rating, totals
        raise StoreUnavailable()

    def save_rating(self, puzzle_id: str, record: dict[str, Any], folded_plays: int | None) -> bool:
        """Write the puzzle's folded rating if the folded count is still ``folded_plays`` (None: no item yet)."""
        item = to_item({**_rating_key_plain(puzzle_id), **record})
        if folded_plays is None:
            condition, values = "attribute_not_exists(pk)", {}
        else:
            condition, values = "plays = :folded", {":folded": {"N": str(folded_plays)}}
        params = {"TableName": self.table, "Item": item, "ConditionExpression": condition}
        if values:
            params["ExpressionAttributeValues"] = values
        return call("put_item", **params) is not None


def _rating_key_plain(puzzle_id: str) -> dict[str, str]:
    return {"pk": f"{_COUNTER_PREFIX}{puzzle_id}", "sk": _RATING_SORT_KEY}


def _rating_key(puzzle_id: str) -> dict[str, dict[str, str]]:
    return {name: {"S": value} for name, value in _rating_key_plain(puzzle_id).items()}


def _counter_key(puzzle_id: str, shard: int) -> dict[str, Any]:
    return {"pk": {"S": f"{_COUNTER_PREFIX}{puzzle_id}#{shard}"}, "sk": {"S": _COUNTER_SORT_KEY}}


def _attempt(item: dict[str, Any]) -> dict[str, Any]:
    item = dict(item)
    item["puzzle"] = item.pop("sk")
    item.pop("pk", None)
    return item
