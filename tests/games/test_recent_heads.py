"""A warm instance starts a move from the head it last read or wrote (``games.protocol.RecentHeads``): one
DynamoDB call fewer, and never a wrong answer, because the append at ``seq + 1`` refuses a head that is
behind its log. Two ``Api`` objects are two Lambda instances, each with its own kept heads (moto)."""

from __future__ import annotations

import pytest
from common import store
from games.domain import GameHead, Snapshot
from games.protocol import RecentHeads

from tests.games.client import Api, snapshot


@pytest.fixture
def calls():
    seen: list[str] = []

    def count(model, **_):
        seen.append(model.name)

    events = store.client().meta.events
    events.register("before-call.dynamodb", count)
    yield seen
    events.unregister("before-call.dynamodb", count)


@pytest.fixture
def game(api):
    game_id, seats = api.start_game()
    assert api.move(seats["white"], game_id, "e4", 0).status == 200
    return game_id, seats


def test_a_move_after_a_get_on_the_same_instance_does_not_read_the_head(api, game, calls):
    game_id, seats = game
    api.get(game_id)
    calls.clear()
    answer = api.move(seats["black"], game_id, "e5", 1)
    assert answer.status == 200 and answer.body["ply"] == 2
    assert sorted(calls) == ["PutItem", "PutItem"]  # the event and the new head, no read
    calls.clear()
    assert api.move(seats["white"], game_id, "Nf3", 2).status == 200  # and after its own move
    assert sorted(calls) == ["PutItem", "PutItem"]


def test_another_instance_reads_the_head(api, game, handler, calls):
    game_id, seats = game
    calls.clear()
    assert Api(handler).move(seats["black"], game_id, "e5", 1).status == 200
    assert sorted(calls) == ["GetItem", "PutItem", "PutItem"]


def test_a_kept_head_behind_the_log_catches_up_before_it_decides(api, game, handler):
    game_id, seats = game
    api.get(game_id)  # this instance keeps the game at ply 1
    other = Api(handler)
    assert other.move(seats["black"], game_id, "e5", 1).status == 200
    answer = api.move(seats["white"], game_id, "Nf3", 2)  # the kept head says ply 1: it reads what it missed
    assert answer.status == 200 and answer.body["ply"] == 3
    assert api.get(game_id).body["moves"] == ["e4", "e5", "Nf3"]


def test_a_kept_head_behind_the_log_never_writes_a_second_move_at_a_ply(api, game, handler):
    game_id, seats = game
    api.get(game_id)
    assert Api(handler).move(seats["black"], game_id, "e5", 1).status == 200
    before = snapshot()
    answer = api.move(seats["black"], game_id, "d5", 1)  # legal on the kept head, too late on the game
    assert answer.status == 409 and answer.code == "stale_ply"
    assert answer.body["game"]["ply"] == 2
    assert snapshot() == before


def test_a_retry_on_a_kept_head_answers_the_game_as_it_is(api, game, handler):
    game_id, seats = game
    assert api.move(seats["black"], game_id, "e5", 1).status == 200  # this instance keeps ply 2
    assert Api(handler).move(seats["white"], game_id, "Nf3", 2).status == 200
    answer = api.move(seats["black"], game_id, "e5", 1)  # a retry of what is done: nothing to write
    assert answer.status == 200 and answer.body["ply"] == 3  # with the move the other instance took


def test_a_refusal_on_a_kept_head_is_checked_against_the_log(api, game, handler):
    game_id, seats = game
    api.get(game_id)  # kept: black to move
    assert Api(handler).move(seats["black"], game_id, "e5", 1).status == 200
    answer = api.move(seats["white"], game_id, "Nf3", 2)  # "not your turn" on the kept head; the log says it is
    assert answer.status == 200


def _head(game_id: str, seq: int) -> GameHead:
    return GameHead(
        id=game_id,
        game="chess",
        options={},
        seq=seq,
        ply=seq - 1,
        state="active",
        turn="white",
        result="ongoing",
        reason=None,
        white=None,
        black=None,
        snapshot=Snapshot("8/8/8/8/8/8/8/K6k w - - 0 1", 0, b""),
        created=0,
        updated=0,
    )


def test_recent_heads_keep_the_newest_head_of_a_game():
    recent = RecentHeads()
    recent.keep(_head("a", 5))
    recent.keep(_head("a", 3))  # an older read arriving late does not replace it
    assert recent.get("a").seq == 5
    recent.keep(_head("a", 6))
    assert recent.get("a").seq == 6


def test_recent_heads_drop_the_least_recently_used_game():
    recent = RecentHeads(size=2)
    recent.keep(_head("a", 1))
    recent.keep(_head("b", 1))
    recent.get("a")
    recent.keep(_head("c", 1))
    assert recent.get("b") is None
    assert recent.get("a") is not None and recent.get("c") is not None
