"""The games repository's contract (``games.repository.GameRepository``), run three times: on the in-memory
repository the fast tests use, on moto, and on a real dynalite server over HTTP.

What the games protocol relies on: a conditional append that exactly one writer wins, a head that only
moves forward, Query order, the player index, and values that come back as they went in.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from common.persistence.store import item_size
from common.players.domain import Player
from common.players.repository import PlayerStore
from games.repository import GameStore, InMemoryGameStore

from tests.checks import known
from tests.stores import STORES, on_each_store


@pytest.fixture(params=STORES)
def games_store(request):
    return on_each_store(request, InMemoryGameStore, GameStore)


def _event(seq: int, **fields) -> dict:
    return {"seq": seq, "kind": "move", "at": 1_700_000_000_000 + seq, **fields}


def _head(game_id: str, seq: int, **fields) -> dict:
    return {"id": game_id, "seq": seq, "state": "active", "fen": "8/8/8/8/8/8/8/8 w - - 0 1", **fields}


def test_an_event_number_is_taken_once(games_store):
    store = games_store
    assert store.append_event("g1", _event(1, move="e4"))
    assert not store.append_event("g1", _event(1, move="d4"))
    assert store.append_event("g2", _event(1, move="d4"))  # another game, its own numbers
    assert store.get_event("g1", 1)["move"] == "e4"
    assert store.get_event("g1", 2) is None


def test_values_come_back_as_they_went_in(games_store):
    store = games_store
    event = _event(
        1,
        blob=b"\x00\xff\x01",
        flag=False,
        count=0,
        big=2**52,
        nested={"a": None, "b": [1, "x", True]},
        text="Ñino ☺",
        empty_list=[],
    )
    store.append_event("g1", event)
    assert store.get_event("g1", 1) == event
    head = _head("g1", 1, key=bytes(range(32)), options={"move_limit": None, "days_per_move": 3}, name=None)
    assert store.save_head(head)
    expected = {name: value for name, value in head.items() if value is not None}  # None is an absent attribute
    assert store.get_head("g1") == expected


def test_the_head_only_moves_forward(games_store):
    store = games_store
    assert store.save_head(_head("g1", 2, note="two"))
    assert not store.save_head(_head("g1", 1, note="one"))
    assert not store.save_head(_head("g1", 2, note="two again"))
    assert store.get_head("g1")["note"] == "two"
    assert store.save_head(_head("g1", 5, note="five"))
    assert store.get_head("g1")["note"] == "five"
    assert store.get_head("nothing") is None


def test_a_head_of_the_older_format_is_replaced_at_the_same_seq(games_store):
    older = {key: value for key, value in _head("g1", 3, note="old").items() if key != "fen"}
    assert games_store.save_head(older)
    assert games_store.save_head(_head("g1", 3, note="new"))
    assert games_store.get_head("g1")["note"] == "new"
    assert not games_store.save_head(_head("g1", 3, note="again"))


def test_the_log_reads_in_order_with_the_head_last(games_store):
    store = games_store
    for seq in (3, 1, 2, 10, 4):  # written out of order; numbers sort by value
        store.append_event("g1", _event(seq))
    store.append_event("g0", _event(1))
    store.save_head(_head("g1", 4))
    head, events = store.load("g1")
    assert head["seq"] == 4
    assert [event["seq"] for event in events] == [1, 2, 3, 4, 10]
    head, events = store.load("g1", after_seq=3)
    assert head["seq"] == 4 and [event["seq"] for event in events] == [4, 10]
    assert [event["seq"] for event in store.events_after("g1", 2)] == [3, 4, 10]
    assert store.events_after("g1", 10) == []
    assert store.load("nothing") == (None, [])


def test_a_long_log_is_read_whole_across_pages(games_store):
    store = games_store
    padding = "x" * 3900
    for seq in range(1, 300):  # about 1.2 MB: more than one Query page (1 MB)
        store.append_event("long", _event(seq, pad=padding))
    _, events = store.load("long")
    assert [event["seq"] for event in events] == list(range(1, 300))


def test_a_players_games_by_seat_in_order(games_store):
    store = games_store
    heads = [
        _head("a" * 12, 1, white_id="p1", white_order=2_000, black_id="p2", black_order=3_000),
        _head("b" * 12, 1, white_id="p1", white_order=2_500),
        _head("c" * 12, 1, white_id="p1", white_order=1_000),
        _head("d" * 12, 1, black_id="p1", black_order=2_700),
        _head("e" * 12, 1, white_id="p9", white_order=2_600),
    ]
    for head in heads:
        store.save_head(head)
    found, more = store.games_of_player("p1", "white", 1_500, 9_999, None, 10)
    assert [head["id"][0] for head in found] == ["b", "a"] and not more
    found, more = store.games_of_player("p1", "white", 0, 9_999, None, 2)
    assert [head["id"][0] for head in found] == ["b", "a"] and more
    after = (found[-1]["white_order"], found[-1]["id"])
    found, more = store.games_of_player("p1", "white", 0, 9_999, after, 2)
    assert [head["id"][0] for head in found] == ["c"] and not more
    found, _ = store.games_of_player("p1", "black", 0, 9_999, None, 10)
    assert [head["id"][0] for head in found] == ["d"]
    found, _ = store.games_of_player("p2", "black", 0, 9_999, None, 10)
    assert [head["id"][0] for head in found] == ["a"]


def test_the_reminder_index_holds_due_heads_and_a_reminder_moves_on_once(games_store):
    store, hour = games_store, 480_000
    due = hour * 3_600_000 + 60_000
    assert store.save_head(_head("g-due", 7, reminder_due=due, reminder_hour=hour))
    assert store.save_head(_head("g-later", 7, reminder_due=due + 120_000, reminder_hour=hour))
    assert store.save_head(_head("g-none", 3))
    assert store.due_for_reminders(hour, due + 1) == ["g-due"]
    assert store.due_for_reminders(hour - 1, due + 1) == []
    assert not store.advance_reminder("g-due", seq=6, due=due, next_due=due + 1)  # not the head read
    assert store.advance_reminder("g-due", seq=7, due=due, next_due=due + 22 * 3_600_000)
    assert not store.advance_reminder("g-due", seq=7, due=due, next_due=None)  # moved on already
    assert store.due_for_reminders(hour, due + 1) == []
    assert store.due_for_reminders(hour + 22, due + 22 * 3_600_000) == ["g-due"]


@pytest.mark.usefixtures("backend")
def test_players_by_token_hash():
    players = PlayerStore()
    asha = Player("p1", "ab" * 32, "Asha", created=5)
    assert players.create(asha)
    assert not players.create(replace(asha, player_id="p2"))
    assert players.get("ab" * 32) == asha
    assert players.get("cd" * 32) is None
    assert known(players.set_name("ab" * 32, "Baraka")).name == "Baraka"
    assert known(players.set_name("ab" * 32, None)).name is None
    assert known(players.get("ab" * 32)).name is None
    assert players.set_name("cd" * 32, "Nobody") is None
    assert players.get("cd" * 32) is None  # a rename creates no player


def test_item_size_follows_dynamodb_rules():
    assert item_size({"pk": "abc"}) == 2 + 3
    assert item_size({"n": 12345}) == 1 + 3 + 1  # (5 digits + 1) // 2 + 1
    assert item_size({"b": b"\x00" * 32, "t": True}) == (1 + 32) + (1 + 1)
    assert item_size({"m": {"a": "xy"}}) == 1 + 3 + (1 + 2 + 1)


@pytest.fixture(params=["moto", "dynalite"])
def dynamodb_games_store(request):
    request.getfixturevalue(f"{request.param}_tables")
    return GameStore()


def test_a_head_keeps_what_dynamodb_reads_as_attributes_and_reads_the_same_in_the_older_layout(
    dynamodb_games_store,
):
    import os

    from common.persistence import store
    from games.repository.dynamodb import HEAD_ATTRIBUTES

    head = _head(
        "g1",
        4,
        white_id="p1",
        white_order=31_700_000_000_000,
        white_key=bytes(range(32)),
        reminder_due=1_700_000_000_000,
        reminder_hour=472_222,
        options={"days_per_move": 3},
        last_moves=[{"ply": 3, "move": "e4"}],
    )
    assert dynamodb_games_store.save_head(head)
    key = {"pk": {"S": "g1"}, "sk": {"S": "H"}}
    table = os.environ["GAMES_TABLE"]
    item = store.client().get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
    # The indexes and the conditional write find their attributes; the rest is one document.
    for name in ("seq", "fen", "white_id", "white_order", "white_key", "reminder_due", "reminder_hour"):
        assert name in item, name
    assert set(item) - HEAD_ATTRIBUTES == {"doc", "white_key"}
    # A head stored before the document existed (every field an attribute) reads as the same record.
    older = store.to_item({"pk": "g1", "sk": "H", **{name: value for name, value in head.items() if name != "id"}})
    store.client().put_item(TableName=table, Item=older)
    assert dynamodb_games_store.get_head("g1") == head


def test_an_item_of_an_older_layout_reads_through_the_repository_in_the_current_one(games_store):
    """Records written before ``schema_version``: a head without its position and token hashes as hex text;
    events without their time. ``upgrade`` reads them; a current head replaces the old one at the same seq."""
    from dataclasses import replace

    from games.domain import Created, DamagedHead, Joined
    from games.repository import SCHEMA_VERSION, StoredGames

    key = bytes(range(32))
    seats = {"white": {"id": "p1", "key": key.hex(), "name": "Asha"}, "black": None}
    options = {"days_per_move": 3, "swap_colors": True}
    created = {"seq": 1, "kind": "create", "by": "white", "game_id": "old000000001", "game": "chess",
               "options": options, "seats": seats}  # fmt: skip
    joined = {"seq": 2, "kind": "join", "by": "black", "at": 7, "seat": {"id": "p2", "key": key.hex(), "name": "B"}}
    for event in (created, joined):
        assert games_store.append_event("old000000001", event)
    older_head = {"id": "old000000001", "game": "chess", "options": options, "seq": 2, "ply": 0, "state": "active",
                  "turn": "white", "result": "ongoing", "created": 5, "updated": 7, "white_id": "p1",
                  "white_key": key.hex(), "white_order": 3 * 10**13 + 7, "black_id": "p2", "black_key": key.hex(),
                  "black_order": 2 * 10**13 + 7, "anchor_fen": "8/8/8/8/8/8/8/8 w - - 0 1", "anchor_ply": 0,
                  "recent": b"\x01"}  # fmt: skip
    assert games_store.save_head(older_head)
    games = StoredGames(games_store)

    head = games.get_head("old000000001")
    assert head is not None and head.seq == 2 and not head.position_known
    assert head.white is not None and head.white.key == key and head.black is not None and head.black.key == key
    with pytest.raises(DamagedHead):
        head.position()  # a change of the game folds its log instead
    first, second = games.events_after("old000000001", 0)
    assert isinstance(first, Created) and first.at == 0 and first.white is not None and first.white.key == key
    assert isinstance(second, Joined) and second.at == 7 and second.seat.key == key
    listed, more = games.games_of_player("p1", "white", 0, 4 * 10**13, None, 10)
    assert [(game.order, game.head.id) for game in listed] == [(3 * 10**13 + 7, "old000000001")] and not more

    current = replace(head, position_known=True, snapshot=replace(head.snapshot, fen=CHESS_START))
    assert games.save_head(current)  # the same seq: the older layout is replaced
    stored = games_store.get_head("old000000001")
    assert stored["schema_version"] == SCHEMA_VERSION and stored["fen"] == CHESS_START and "anchor_fen" not in stored
    assert known(games.get_head("old000000001")).position().fen() == CHESS_START


CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
