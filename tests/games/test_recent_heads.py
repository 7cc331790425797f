"""A warm instance starts a move from the head it last read or wrote (``games.service.protocol.RecentHeads``): one
DynamoDB call fewer, and never a wrong answer, because the append at ``seq + 1`` refuses a head that is
behind its log. Two ``Api`` objects are two Lambda instances, each with its own kept heads (moto)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from games.domain import GameHead
from games.service.protocol import RecentHeads

from tests.checks import known
from tests.games.client import Api, snapshot
from tests.games.long_game import long_game


@pytest.fixture
def game(api):
    game_id, seats = api.start_game()
    assert api.move(seats["white"], game_id, "e4", 0).status == 200
    return game_id, seats


def test_a_move_after_a_get_on_the_same_instance_does_not_read_the_head(api, game, count_calls):
    game_id, seats = game
    api.get(game_id)
    count_calls.calls.clear()
    answer = api.move(seats["black"], game_id, "e5", 1)
    assert answer.status == 200 and answer.body["ply"] == 2
    assert sorted(count_calls.calls) == ["PutItem", "PutItem"]  # the event and the new head, no read
    count_calls.calls.clear()
    assert api.move(seats["white"], game_id, "Nf3", 2).status == 200  # and after its own move
    assert sorted(count_calls.calls) == ["PutItem", "PutItem"]


def test_another_instance_reads_the_head(api, game, handler, count_calls):
    game_id, seats = game
    count_calls.calls.clear()
    assert Api(handler).move(seats["black"], game_id, "e5", 1).status == 200
    assert sorted(count_calls.calls) == ["GetItem", "PutItem", "PutItem"]


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


_TOKENS = {"white": "ubao_" + "w" * 43, "black": "ubao_" + "b" * 43}
_SOME_HEAD = long_game("x", _TOKENS, 2)[0]


def _head(game_id: str, seq: int) -> GameHead:
    return replace(_SOME_HEAD, id=game_id, seq=seq)


def test_recent_heads_keep_the_newest_head_of_a_game():
    recent = RecentHeads()
    recent.keep(_head("a", 5))
    recent.keep(_head("a", 3))  # an older read arriving late does not replace it
    assert known(recent.get("a")).seq == 5
    recent.keep(_head("a", 6))
    assert known(recent.get("a")).seq == 6


def test_recent_heads_drop_the_least_recently_used_game():
    recent = RecentHeads(size=2)
    recent.keep(_head("a", 1))
    recent.keep(_head("b", 1))
    recent.get("a")
    recent.keep(_head("c", 1))
    assert recent.get("b") is None
    assert recent.get("a") is not None and recent.get("c") is not None
