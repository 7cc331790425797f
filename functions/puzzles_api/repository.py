"""Where the puzzle progress is kept: the ``PuzzleProgressRepository`` protocol the puzzle service depends on,
``InMemoryPuzzleProgress`` for fast tests and ``PuzzleStore`` on DynamoDB (``tests/puzzles_api/test_store_contract.py``
runs the same contract on all of them). The player's own progress (rating, counts, streak) is on the player's
item (``common.players.repository``, ``save_puzzles``): ``progress_of``, ``read_progress`` and ``save_progress``
read and write it there as a ``Progress``. The codecs of the stored maps (``progress_record``,
``progress_from_record``; attempts and puzzle ratings) are here, beside the stores, and nowhere else.

The puzzle progress table (``PuzzleProgressTable``, ``PUZZLES_TABLE``): each player's first attempt at each
puzzle, the puzzles' sharded play counters and their folded ratings (docs/puzzles.md). ``record_first_attempt``
is a conditional put (False when the attempt exists), ``save_rating`` writes only over the folded count it
read. Attempts and ratings carry ``schema_version`` and are read through ``upgrade``.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from common.persistence.attributes import Record, split_version, stored_copy, with_version
from common.persistence.memory import put_absent
from common.persistence.store import StoreUnavailable, call, from_item, put_new, query_all, read, to_item
from common.persistence.table import DynamoTable
from common.players.domain import Player
from common.players.repository import PlayerRepository
from common.ratings import glicko2

from puzzles_api.domain.progress import UTC_NAME, Attempt, Progress, Recent, local_date
from puzzles_api.domain.puzzle_rating import PuzzleRating, Totals

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import KeysAndAttributesTypeDef, PutItemInputTypeDef, QueryInputTypeDef

#: Play counters per puzzle are split over this many items in DynamoDB (no hot key on the daily puzzle).
COUNTER_SHARDS = 8
#: The layout of an attempt item (``result``, ``at``, ``daily``) and of a rating item
#: (``puzzles_api.domain.puzzle_rating``). Items written before versions were stored (0) have the same layout.
SCHEMA_VERSION = 1


def upgrade(item: Record) -> Record:
    """A stored attempt or rating in the current layout, whatever layout it was written in."""
    _version, record = split_version(item)  # 0 and 1 share one layout: nothing to change yet
    return record


# -- a player's progress, on the player's item -----------------------------------------------------------
def progress_from_record(record: Mapping[str, Any] | None) -> Progress:
    """The progress a stored map holds (none: a new player's)."""
    if not record:
        return Progress()
    return Progress(
        version=int(record["v"]),
        rating=glicko2.Rating(float(record["rating"]), float(record["rd"]), float(record["vol"])),
        solved=int(record.get("solved", 0)),
        failed=int(record.get("failed", 0)),
        streak=int(record.get("streak", 0)),
        best_streak=int(record.get("best", 0)),
        daily_at=record.get("daily_at"),
        daily_day=_legacy_day(record) if record.get("day") is None else int(record["day"]),
        tz=record.get("tz"),
        shift=int(record.get("shift") or 0),
        tz_next=record.get("tz_next"),
        tz_from=record.get("tz_from"),
        recent=tuple(
            Recent(puzzle, bool(solved), int(at), float(change)) for puzzle, solved, at, change in record["recent"]
        ),
        older=tuple((item[1:], item[0] == "+") for item in (record.get("older") or "").split()),
    )


def progress_record(progress: Progress) -> Record:
    """The stored map (short names and lists keep it small: well under 1 KB with ten recent attempts)."""
    return {
        "v": progress.version,
        "rating": progress.rating.rating,
        "rd": progress.rating.rd,
        "vol": progress.rating.volatility,
        "solved": progress.solved,
        "failed": progress.failed,
        "streak": progress.streak,
        "best": progress.best_streak,
        "daily_at": progress.daily_at,
        "day": progress.daily_day,
        "tz": progress.tz,
        "shift": progress.shift,
        "tz_next": progress.tz_next,
        "tz_from": progress.tz_from,
        "recent": [[item.puzzle, int(item.solved), item.at, round(item.rating_change, 2)] for item in progress.recent],
        "older": " ".join(("+" if solved else "-") + puzzle for puzzle, solved in progress.older) or None,
    }


def _legacy_day(record: Mapping[str, Any]) -> int | None:
    """The day of the latest daily solve of a map stored before days were kept: its date in the stored zone."""
    if record.get("daily_at") is None:
        return None
    return local_date(record["daily_at"], record.get("tz") or UTC_NAME).toordinal()


def progress_of(player: Player) -> Progress:
    """The progress on the player's item as the read that checked the token brought it."""
    return progress_from_record(player.puzzles)


def read_progress(players: PlayerRepository, token_hash: str) -> Progress | None:
    """The player's progress read again (None: no such player)."""
    player = players.get(token_hash)
    return None if player is None else progress_of(player)


def save_progress(players: PlayerRepository, token_hash: str, progress: Progress, expected_version: int) -> bool:
    """Write ``progress`` over the stored one if that still has ``expected_version`` (0: none yet)."""
    return players.save_puzzles(token_hash, progress_record(progress), expected_version)


# -- attempts and puzzle ratings ---------------------------------------------------------------------------
def _attempt_record(attempt: Attempt) -> Record:
    return {
        "puzzle": attempt.puzzle,
        "result": "solved" if attempt.solved else "failed",
        "at": attempt.at,
        "daily": attempt.daily or None,  # left out when false: smaller items
    }


def _attempt_of(record: Record) -> Attempt:
    return Attempt(record["puzzle"], record["result"] == "solved", int(record["at"]), bool(record.get("daily")))


def _rating_record(rating: PuzzleRating) -> Record:
    return {
        "rating": round(rating.rating.rating, 4),
        "rd": round(rating.rating.rd, 4),
        "vol": round(rating.rating.volatility, 8),
        "plays": rating.folded.plays,
        "solves": rating.folded.solves,
        "info": round(rating.folded.info, 6),
        "gain": round(rating.folded.gain, 6),
        "at": rating.at,
    }


def _rating_of(record: Record) -> PuzzleRating:
    rating = glicko2.Rating(float(record["rating"]), float(record["rd"]), float(record["vol"]))
    folded = Totals(int(record["plays"]), int(record["solves"]), float(record["info"]), float(record["gain"]))
    return PuzzleRating(rating, folded, int(record["at"]))


def _totals(sums: Mapping[str, float]) -> Totals:
    return Totals(int(sums["plays"]), int(sums["solves"]), float(sums["info"]), float(sums["gain"]))


class PuzzleProgressRepository(Protocol):
    def record_first_attempt(self, player_id: str, attempt: Attempt) -> bool: ...

    def get_attempt(self, player_id: str, puzzle_id: str) -> Attempt | None: ...

    def attempted(self, player_id: str, id_prefix: str) -> set[str]: ...

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None: ...

    def counts(self, puzzle_id: str) -> dict[str, int]: ...

    def rating_state(self, puzzle_id: str) -> tuple[PuzzleRating | None, Totals]:
        """The puzzle's stored rating (None before its first fold) and the sums of its counter shards."""
        ...

    def save_rating(self, puzzle_id: str, rating: PuzzleRating, folded_plays: int | None) -> PuzzleRating | None:
        """Write the rating if the folded count is still ``folded_plays`` (None: only when there is none): the
        rating as stored (rounded, as every process reads it), or None when the write lost."""
        ...


class InMemoryPuzzleProgress:
    """A ``PuzzleProgressRepository`` in dicts (one process)."""

    def __init__(self) -> None:
        self._attempts: dict[tuple[str, str], Record] = {}
        self._counts: dict[str, dict[str, float]] = {}
        self._ratings: dict[str, Record] = {}
        self._lock = threading.Lock()

    def record_first_attempt(self, player_id: str, attempt: Attempt) -> bool:
        key = (player_id, attempt.puzzle)
        with self._lock:
            return put_absent(self._attempts, key, with_version(stored_copy(_attempt_record(attempt)), SCHEMA_VERSION))

    def get_attempt(self, player_id: str, puzzle_id: str) -> Attempt | None:
        found = self._attempts.get((player_id, puzzle_id))
        return _attempt_of(upgrade(copy.deepcopy(found))) if found is not None else None

    def attempted(self, player_id: str, id_prefix: str) -> set[str]:
        return {
            puzzle for player, puzzle in list(self._attempts) if player == player_id and puzzle.startswith(id_prefix)
        }

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None:
        with self._lock:
            totals = self._counts.setdefault(f"{puzzle_id}#{shard}", dict.fromkeys(_COUNTERS, 0.0))
            totals["plays"] += 1
            totals["solves"] += int(solved)
            totals["info"] += info
            totals["gain"] += gain

    def counts(self, puzzle_id: str) -> dict[str, int]:
        """The sums over the ``COUNTER_SHARDS`` shards, as DynamoDB's ``PuzzleStore`` reads them."""
        totals = self._totals(puzzle_id)
        return {"plays": int(totals["plays"]), "solves": int(totals["solves"])}

    def rating_state(self, puzzle_id: str) -> tuple[PuzzleRating | None, Totals]:
        rating = self._ratings.get(puzzle_id)
        return (_rating_of(upgrade(copy.deepcopy(rating))) if rating is not None else None), _totals(
            self._totals(puzzle_id)
        )

    def save_rating(self, puzzle_id: str, rating: PuzzleRating, folded_plays: int | None) -> PuzzleRating | None:
        with self._lock:
            current = self._ratings.get(puzzle_id)
            if (current is None) != (folded_plays is None) or (current and current.get("plays") != folded_plays):
                return None
            record = _rating_record(rating)
            self._ratings[puzzle_id] = with_version(stored_copy(record), SCHEMA_VERSION)
            return _rating_of(record)

    def _totals(self, puzzle_id: str) -> dict[str, float]:
        shards = [self._counts.get(f"{puzzle_id}#{shard}", {}) for shard in range(COUNTER_SHARDS)]
        return {name: sum(shard.get(name, 0.0) for shard in shards) for name in _COUNTERS}


#: What each counter shard of a puzzle adds up: its first attempts, their solves and their Glicko-2 terms.
_COUNTERS = ("plays", "solves", "info", "gain")


_ATTEMPT_PREFIX = "player#"
_COUNTER_PREFIX = "puzzle#"
_COUNTER_SORT_KEY = "count"
_RATING_SORT_KEY = "rating"


class PuzzleStore(DynamoTable, env="PUZZLES_TABLE", default="PuzzleProgressTable"):
    """The puzzle progress table.

    * ``pk = "player#<player id>"``, ``sk = <puzzle id>``: the player's first finished attempt at the puzzle
      (``result``, ``at``, ``daily``). Written once, with ``attribute_not_exists``: the lock that makes only
      the first attempt count. One Query lists the puzzles a player has tried in a game (ids start with it).
    * ``pk = "puzzle#<puzzle id>#<shard>"``, ``sk = "count"``: ``plays`` and ``solves`` of first attempts,
      one of ``COUNTER_SHARDS`` items chosen at random per attempt; the counts are their sums. They also add
      up the Glicko-2 terms of the puzzle's games (``info``, ``gain``).
    * ``pk = "puzzle#<puzzle id>"``, ``sk = "rating"``: the puzzle's rating and the totals folded into it
      (``puzzles_api.domain.puzzle_rating``), written only when the puzzle is served, never by an attempt.
    """

    def record_first_attempt(self, player_id: str, attempt: Attempt) -> bool:
        """Store the player's first finished attempt at ``attempt.puzzle``; False if there is one already."""
        record = {key: value for key, value in _attempt_record(attempt).items() if key != "puzzle"}
        return put_new(
            self.table, {"pk": _ATTEMPT_PREFIX + player_id, "sk": attempt.puzzle, **record}, SCHEMA_VERSION, "pk"
        )

    def get_attempt(self, player_id: str, puzzle_id: str) -> Attempt | None:
        key = {"pk": {"S": _ATTEMPT_PREFIX + player_id}, "sk": {"S": puzzle_id}}
        answer = call("get_item", TableName=self.table, Key=key, ConsistentRead=True)
        item = answer.get("Item") if answer else None
        return _attempt(from_item(item)) if item else None

    def attempted(self, player_id: str, id_prefix: str) -> set[str]:
        """The ids, starting with ``id_prefix`` (such as ``"chess-"``), of the puzzles the player has attempted.

        One Query (paginated past 1 MB); it reads about 60 bytes a puzzle tried, so 1,000 puzzles cost 15 KB.
        """
        params: QueryInputTypeDef = {
            "TableName": self.table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": {"S": _ATTEMPT_PREFIX + player_id}, ":prefix": {"S": id_prefix}},
            "ProjectionExpression": "sk",
            "ConsistentRead": True,  # a puzzle finished a moment ago must not be served again
        }
        return {item["sk"]["S"] for item in query_all(**params)}

    def count_play(self, puzzle_id: str, solved: bool, shard: int, info: float = 0.0, gain: float = 0.0) -> None:
        """Add one first attempt to counter ``shard`` of the puzzle: one play, a solve if ``solved``, and the
        game's Glicko-2 terms (``puzzles_api.domain.puzzle_rating``)."""
        self.update(
            _counter_key(puzzle_id, shard),
            "ADD plays :one, solves :solved, info :info, gain :gain",
            values={
                ":one": {"N": "1"},
                ":solved": {"N": "1" if solved else "0"},
                ":info": {"N": f"{info:.6f}"},
                ":gain": {"N": f"{gain:.6f}"},
            },
        )

    def counts(self, puzzle_id: str) -> dict[str, int]:
        """``{"plays", "solves"}`` of the puzzle: the sums of its counter shards (one BatchGetItem)."""
        totals = self.rating_state(puzzle_id)[1]
        return {"plays": totals.plays, "solves": totals.solves}

    def rating_state(self, puzzle_id: str) -> tuple[PuzzleRating | None, Totals]:
        """The puzzle's rating (None before its first fold) and the sums of its counter shards (``plays``,
        ``solves``, ``info``, ``gain``), in one BatchGetItem."""
        rating_key = _rating_key(puzzle_id)
        keys = [rating_key] + [_counter_key(puzzle_id, shard) for shard in range(COUNTER_SHARDS)]
        request: dict[str, KeysAndAttributesTypeDef] = {self.table: {"Keys": keys}}
        totals = {"plays": 0.0, "solves": 0.0, "info": 0.0, "gain": 0.0}
        rating: PuzzleRating | None = None
        for _ in range(5):  # DynamoDB may leave keys unprocessed under load: ask again for those
            answer = read("batch_get_item", RequestItems=request)
            for item in answer.get("Responses", {}).get(self.table, ()):
                record = upgrade(from_item(item))
                if record["sk"] == _RATING_SORT_KEY:
                    rating = _rating_of(record)
                    continue
                for name in totals:
                    totals[name] += float(record.get(name, 0))
            request = answer.get("UnprocessedKeys") or {}
            if not request:
                return rating, _totals(totals)
        raise StoreUnavailable()

    def save_rating(self, puzzle_id: str, rating: PuzzleRating, folded_plays: int | None) -> PuzzleRating | None:
        """Write the puzzle's folded rating if the folded count is still ``folded_plays`` (None: no item yet)."""
        record = _rating_record(rating)
        item = to_item(with_version({**_rating_key_plain(puzzle_id), **record}, SCHEMA_VERSION))
        if folded_plays is None:
            condition, values = "attribute_not_exists(pk)", {}
        else:
            condition, values = "plays = :folded", {":folded": {"N": str(folded_plays)}}
        params: PutItemInputTypeDef = {"TableName": self.table, "Item": item, "ConditionExpression": condition}
        if values:
            params["ExpressionAttributeValues"] = values
        return _rating_of(record) if call("put_item", **params) is not None else None


def _rating_key_plain(puzzle_id: str) -> dict[str, str]:
    return {"pk": f"{_COUNTER_PREFIX}{puzzle_id}", "sk": _RATING_SORT_KEY}


def _rating_key(puzzle_id: str) -> dict[str, dict[str, str]]:
    return {name: {"S": value} for name, value in _rating_key_plain(puzzle_id).items()}


def _counter_key(puzzle_id: str, shard: int) -> dict[str, Any]:
    return {"pk": {"S": f"{_COUNTER_PREFIX}{puzzle_id}#{shard}"}, "sk": {"S": _COUNTER_SORT_KEY}}


def _attempt(item: dict[str, Any]) -> Attempt:
    item = upgrade(item)
    item["puzzle"] = item.pop("sk")
    return _attempt_of(item)
