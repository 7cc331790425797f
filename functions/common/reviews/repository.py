"""Where reviews and personal puzzles are kept: the ``ReviewRepository`` protocol, ``InMemoryReviews`` (the tests'
reference) and ``DynamoReviews`` on the reviews table (``ReviewsTable`` in template.yaml, ``REVIEWS_TABLE``).

* ``pk = "game#<game id>"``, ``sk = "review"``: one game's review. ``request`` puts it ``pending`` only if it is
  not there (``attribute_not_exists``), so of two requests exactly one is told it started the review; ``finish``
  writes it ``done`` only over ``pending``, so a message delivered twice stores one review. The review itself
  (every move, its position and evaluation) is one JSON text: about 120 bytes a move, so even a 1,000-ply game
  stays far under DynamoDB's 400 KB.
* ``pk = "player#<player id>"``, ``sk = "mine#<puzzle id>"``: one personal puzzle (the record in the puzzle
  sets' shape, JSON), the game it came from and ``finished`` once its first attempt ended. A player's puzzles
  are one Query.

This module imports only ``common.persistence``: the games, review and puzzles functions all read it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from common.persistence.attributes import split_version
from common.persistence.memory import put_absent
from common.persistence.store import from_item, put_new, query_all, read
from common.persistence.table import DynamoTable, item_key
from common.reviews.domain import (
    MistakePuzzle,
    PersonalPuzzle,
    ReviewedMove,
    ReviewEval,
    ReviewResult,
    StoredReview,
)

GAME_PREFIX = "game#"
PLAYER_PREFIX = "player#"
REVIEW_KEY = "review"
MINE_PREFIX = "mine#"
#: The layout of a review item and of a personal puzzle item (as described above).
SCHEMA_VERSION = 1

__all__ = [
    "MistakePuzzle",
    "PersonalPuzzle",
    "ReviewRepository",
    "StoredReview",
    "mistake_of",
    "mistake_record",
    "review_record",
    "review_of",
]


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored review or personal puzzle in the current layout, whatever layout it was written in (one so far)."""
    _version, record = split_version(item)
    return record


# -- the codec: a review as its JSON text keeps it (the layout the review route answered before) ---------------
def _eval_record(value: ReviewEval) -> dict[str, Any]:
    if value.winner is not None:
        return {"winner": value.winner, "win_in": value.win_in}
    return {"score": value.score}


def _eval_of(record: dict[str, Any]) -> ReviewEval:
    return ReviewEval(record.get("score"), record.get("winner"), record.get("win_in"))


def _move_record(move: ReviewedMove) -> dict[str, Any]:
    record: dict[str, Any] = {"ply": move.ply, "move": move.move, "eval": _eval_record(move.eval), "best": move.best}
    if move.mark is not None:
        record["mark"] = move.mark
    record["fen"], record["colour"] = move.fen, move.colour
    if move.best_squares:
        record["best_squares"] = list(move.best_squares)
    return record


def _move_of(record: dict[str, Any]) -> ReviewedMove:
    squares = record.get("best_squares")
    return ReviewedMove(
        ply=int(record["ply"]),
        move=record["move"],
        colour=record["colour"],
        fen=record["fen"],
        eval=_eval_of(record["eval"]),
        best=record["best"],
        mark=record.get("mark"),
        best_squares=tuple(squares) if squares else None,
    )


def review_record(result: ReviewResult) -> dict[str, Any]:
    """The review as JSON values: its stored text, and the answer of the review route once done."""
    record: dict[str, Any] = {
        "start": {"fen": result.start_fen, "eval": _eval_record(result.start_eval)},
        "moves": [_move_record(move) for move in result.moves],
        "accuracy": {"white": result.accuracy_white, "black": result.accuracy_black},
    }
    if result.puzzles is not None:
        record["puzzles"] = dict(result.puzzles)
    return record


def review_of(record: dict[str, Any]) -> ReviewResult:
    start, accuracy = record["start"], record["accuracy"]
    return ReviewResult(
        start_fen=start["fen"],
        start_eval=_eval_of(start["eval"]),
        moves=tuple(_move_of(move) for move in record["moves"]),
        accuracy_white=float(accuracy["white"]),
        accuracy_black=float(accuracy["black"]),
        puzzles=record.get("puzzles"),
    )


# -- the codec of a personal puzzle: the JSON text of the puzzle sets' shape, with its mistake's fields -----


def mistake_record(puzzle: MistakePuzzle) -> dict[str, Any]:
    """The puzzle in the sets' shape (``puzzles/*.jsonl``) with ``owner``, ``ply``, ``mark``, ``kind`` and ``played``."""
    record: dict[str, Any] = {
        "id": puzzle.id,
        "game": puzzle.game,
        "fen": puzzle.fen,
        "solution": list(puzzle.solution),
        "rating": puzzle.rating,
        "themes": list(puzzle.themes),
        "source": puzzle.source,
        "licence": puzzle.licence,
        "owner": puzzle.owner,
        "ply": puzzle.ply,
    }
    for name, value in (("mark", puzzle.mark), ("kind", puzzle.kind), ("played", puzzle.played)):
        if value is not None:
            record[name] = value
    if puzzle.alternatives:
        record["alternatives"] = [list(step) for step in puzzle.alternatives]
    return record


def mistake_of(record: Mapping[str, Any]) -> MistakePuzzle:
    return MistakePuzzle(
        id=record["id"],
        game=record["game"],
        fen=record["fen"],
        solution=tuple(record["solution"]),
        rating=int(record["rating"]),
        themes=tuple(record["themes"]),
        source=record["source"],
        licence=record["licence"],
        owner="white" if record["owner"] == "white" else "black",
        ply=int(record["ply"]),
        mark=record.get("mark"),
        kind=record.get("kind"),
        played=record.get("played"),
        alternatives=tuple(tuple(step) for step in record.get("alternatives", ())),
    )


class ReviewRepository(Protocol):
    def get(self, game_id: str) -> StoredReview | None:
        """The game's review (pending or done), or None before one was asked for."""
        ...

    def request(self, game_id: str, now_ms: int) -> bool:
        """Store the review as pending unless one is there; True only to the request that stored it."""
        ...

    def finish(self, game_id: str, result: ReviewResult) -> bool:
        """Store the review's result over its pending item; False if it is already done (or was never asked)."""
        ...

    def add_puzzles(self, puzzles: list[PersonalPuzzle]) -> None:
        """Keep each player's personal puzzles (one already kept stays as it is, finished or not)."""
        ...

    def puzzles_of(self, player_id: str) -> list[PersonalPuzzle]:
        """The player's personal puzzles, in the order of their games' plies."""
        ...

    def mark_finished(self, player_id: str, puzzle_id: str) -> bool:
        """Record that the player's first attempt at a personal puzzle ended; True the first time only."""
        ...


def _ordered(puzzles: list[PersonalPuzzle]) -> list[PersonalPuzzle]:
    return sorted(puzzles, key=lambda puzzle: (puzzle.game_id, puzzle.puzzle.ply, puzzle.id))


class InMemoryReviews:
    """A ``ReviewRepository`` in dicts (one process)."""

    def __init__(self) -> None:
        self.reviews: dict[str, StoredReview] = {}
        self.puzzles: dict[tuple[str, str], PersonalPuzzle] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str) -> StoredReview | None:
        return self.reviews.get(game_id)

    def request(self, game_id: str, now_ms: int) -> bool:
        with self._lock:
            return put_absent(self.reviews, game_id, StoredReview(game_id, "pending", now_ms))

    def finish(self, game_id: str, result: ReviewResult) -> bool:
        with self._lock:
            found = self.reviews.get(game_id)
            if found is None or found.status != "pending":
                return False
            self.reviews[game_id] = StoredReview(game_id, "done", found.requested, result)
            return True

    def add_puzzles(self, puzzles: list[PersonalPuzzle]) -> None:
        with self._lock:
            for puzzle in puzzles:
                self.puzzles.setdefault((puzzle.player_id, puzzle.id), puzzle)

    def puzzles_of(self, player_id: str) -> list[PersonalPuzzle]:
        return _ordered([puzzle for (owner, _), puzzle in self.puzzles.items() if owner == player_id])

    def mark_finished(self, player_id: str, puzzle_id: str) -> bool:
        with self._lock:
            found = self.puzzles.get((player_id, puzzle_id))
            if found is None or found.finished:
                return False
            self.puzzles[(player_id, puzzle_id)] = replace(found, finished=True)
            return True


class DynamoReviews(DynamoTable, env="REVIEWS_TABLE", default="ReviewsTable"):
    """``ReviewRepository`` on DynamoDB: single-item conditional writes, one Query per player's puzzles."""

    def get(self, game_id: str) -> StoredReview | None:
        answer = read(
            "get_item", TableName=self.table, Key=item_key(GAME_PREFIX + game_id, REVIEW_KEY), ConsistentRead=True
        )
        if "Item" not in answer:
            return None
        record = upgrade(from_item(answer["Item"]))
        result = review_of(json.loads(record["body"])) if record.get("body") else None
        return StoredReview(game_id, record["status"], int(record["requested"]), result)

    def request(self, game_id: str, now_ms: int) -> bool:
        record = {"pk": GAME_PREFIX + game_id, "sk": REVIEW_KEY, "status": "pending", "requested": now_ms}
        return put_new(self.table, record, SCHEMA_VERSION, "pk")

    def finish(self, game_id: str, result: ReviewResult) -> bool:
        answer = self.update(
            item_key(GAME_PREFIX + game_id, REVIEW_KEY),
            "SET #status = :done, body = :body",
            "#status = :pending",
            names={"#status": "status"},
            values={
                ":done": {"S": "done"},
                ":pending": {"S": "pending"},
                ":body": {"S": json.dumps(review_record(result), separators=(",", ":"))},
            },
        )
        return answer is not None

    def add_puzzles(self, puzzles: list[PersonalPuzzle]) -> None:
        for puzzle in puzzles:
            record = {
                "pk": PLAYER_PREFIX + puzzle.player_id,
                "sk": MINE_PREFIX + puzzle.id,
                "game_id": puzzle.game_id,
                "puzzle": json.dumps(mistake_record(puzzle.puzzle), separators=(",", ":")),
                "finished": False,
            }
            put_new(self.table, record, SCHEMA_VERSION, "pk")

    def puzzles_of(self, player_id: str) -> list[PersonalPuzzle]:
        items = query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :mine)",
            ExpressionAttributeValues={":pk": {"S": PLAYER_PREFIX + player_id}, ":mine": {"S": MINE_PREFIX}},
            ConsistentRead=True,
        )
        found: list[PersonalPuzzle] = []
        for item in items:
            record = upgrade(from_item(item))
            puzzle = mistake_of(json.loads(record["puzzle"]))
            found.append(PersonalPuzzle(player_id, record["game_id"], puzzle, bool(record["finished"])))
        return _ordered(found)

    def mark_finished(self, player_id: str, puzzle_id: str) -> bool:
        key = item_key(PLAYER_PREFIX + player_id, MINE_PREFIX + puzzle_id)
        unfinished, values = "attribute_exists(pk) AND finished = :no", {":yes": {"BOOL": True}, ":no": {"BOOL": False}}
        return self.update(key, "SET finished = :yes", unfinished, values=values) is not None
