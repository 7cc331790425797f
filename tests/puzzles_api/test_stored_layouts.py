"""Every repository writes ``schema_version`` and reads every item through its own ``upgrade``: an item written
before versions were stored (no ``schema_version``) reads exactly as the same item written today. Run on moto
(DynamoDB's own items, written by hand as the older code wrote them) and on the in-memory repositories; the
tables of template.yaml come from tests/fixtures.py."""

from dataclasses import replace

import pytest
from common.persistence import store
from common.persistence.attributes import SCHEMA_FIELD, Record, split_version, with_version

from tests.checks import known

PLAYER: Record = {"token_hash": "ab" * 32, "player_id": "p1", "name": "Asha", "created": 5}


def _player(record: dict):
    from common.players.domain import Player

    return Player(record["player_id"], record["token_hash"], record.get("name"), created=record["created"])


def _raw_item(table: str, key: dict) -> dict:
    answer = store.read("get_item", TableName=table, Key=store.to_item(key), ConsistentRead=True)
    return store.from_item(answer["Item"])


def _put_raw(table: str, record: dict) -> None:
    store.read("put_item", TableName=table, Item=store.to_item(record))


def test_a_version_is_split_off_and_an_item_without_one_is_version_0():
    assert split_version(with_version({"a": 1}, 3)) == (3, {"a": 1})
    assert split_version({"a": 1}) == (0, {"a": 1})


@pytest.mark.usefixtures("moto_tables")
def test_an_older_player_item_reads_as_a_new_one():
    from common.players.repository import SCHEMA_VERSION, PlayerStore

    players = PlayerStore()
    assert players.create(_player(PLAYER))
    assert _raw_item(players.table, {"token_hash": PLAYER["token_hash"]})[SCHEMA_FIELD] == SCHEMA_VERSION
    new = players.get(PLAYER["token_hash"])
    older: Record = {**PLAYER, "token_hash": "cd" * 32}
    _put_raw(players.table, older)  # as written before versions were stored
    assert players.get(older["token_hash"]) == replace(known(new), token_hash="cd" * 32) == _player(older)
    assert players.set_name(older["token_hash"], "Baraka") == _player({**older, "name": "Baraka"})


def test_an_older_player_item_reads_the_same_in_memory():
    from common.players.repository import InMemoryPlayers

    players = InMemoryPlayers()
    assert players.create(_player(PLAYER))
    players._players["cd" * 32] = {**PLAYER, "token_hash": "cd" * 32}  # an item of version 0, put by hand
    assert players.get("cd" * 32) == _player({**PLAYER, "token_hash": "cd" * 32})
    assert players.get(PLAYER["token_hash"]) == _player(PLAYER)


@pytest.mark.usefixtures("moto_tables")
def test_an_older_attempt_and_rating_read_as_new_ones():
    from puzzles_api.repository import SCHEMA_VERSION, PuzzleStore

    puzzles = PuzzleStore()
    from puzzles_api.domain.progress import Attempt

    attempt = Attempt("chess-abc", solved=True, at=7, daily=False)
    assert puzzles.record_first_attempt("p1", attempt)
    assert _raw_item(puzzles.table, {"pk": "player#p1", "sk": "chess-abc"})[SCHEMA_FIELD] == SCHEMA_VERSION
    _put_raw(puzzles.table, {"pk": "player#p2", "sk": "chess-abc", "result": "solved", "at": 7, "daily": False})
    assert puzzles.get_attempt("p2", "chess-abc") == puzzles.get_attempt("p1", "chess-abc") == attempt
    from common.ratings.glicko2 import Rating
    from puzzles_api.domain.puzzle_rating import PuzzleRating

    rating = {"rating": 1500.0, "rd": 350.0, "vol": 0.06, "plays": 0, "solves": 0, "info": 0.0, "gain": 0.0, "at": 1}
    assert puzzles.save_rating("chess-new", PuzzleRating(Rating(1500.0, 350.0, 0.06), at=1), None)
    assert _raw_item(puzzles.table, {"pk": "puzzle#chess-new", "sk": "rating"})[SCHEMA_FIELD] == SCHEMA_VERSION
    _put_raw(puzzles.table, {"pk": "puzzle#chess-old", "sk": "rating", **rating})
    new, old = puzzles.rating_state("chess-new")[0], puzzles.rating_state("chess-old")[0]
    assert new == old == PuzzleRating(Rating(1500.0, 350.0, 0.06), at=1)


@pytest.mark.usefixtures("moto_tables")
def test_an_older_subscription_reads_as_a_new_one():
    from push.domain import Subscription
    from push.repository import SCHEMA_VERSION, DynamoSubscriptions

    from tests.push.conftest import browser_keys

    keys = browser_keys()
    subscriptions = DynamoSubscriptions()
    new = Subscription("https://fcm.googleapis.com/fcm/send/a", keys["p256dh"], keys["auth"], "sw", (), 1, None)
    subscriptions.save("p1", new)
    (item,) = store.read("scan", TableName=subscriptions.table)["Items"]
    written = store.from_item(item)
    assert written[SCHEMA_FIELD] == SCHEMA_VERSION
    # The oldest items had no version, no ``tz`` (UTC was meant) and no ``kinds`` when none was chosen.
    older = {key: value for key, value in written.items() if key not in (SCHEMA_FIELD, "tz", "kinds")}
    _put_raw(subscriptions.table, {**older, "pk": "player#p2"})
    assert subscriptions.list("p2") == subscriptions.list("p1") == [new]
