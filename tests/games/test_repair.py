"""A head that cannot rebuild its position (a rules layer that lists moves in another order, or a
Tanzanian manoeuvre too long to keep) makes the game read its log instead: slower, never wrong."""

from __future__ import annotations

import pytest
from common import store
from common.store import GameStore


def _rewrite_head(game_id: str, **changes) -> None:
    """Change the stored head behind the API's back (as a different rules version would read it)."""
    head = GameStore().get_head(game_id)
    head.update(changes)
    item = store.to_item({**head, "pk": head.pop("id"), "sk": "H"})
    store.client().put_item(TableName=GameStore().table, Item=item)


@pytest.mark.parametrize(
    "damage",
    [
        {"recent_check": b"\x00" * 8},  # the moves since the anchor no longer match their checksum
        {"recent": b"\xfe\xfe"},  # indexes out of range
        {"overflow": True, "recent": None, "recent_check": None},  # too long to keep
    ],
)
def test_the_log_stands_in_for_a_head_that_cannot_rebuild(api, damage):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"])
    _rewrite_head(game_id, **damage)
    state = api.get(game_id).body
    assert state["moves"] == ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"] and state["last_move"] == "Nf3"
    _rewrite_head(game_id, **damage)
    assert api.move(seats["black"], game_id, "Nf6", 5).body["ply"] == 6
    _rewrite_head(game_id, **damage)
    retried = api.move(seats["black"], game_id, "Nf6", 5)  # the retry is recognised from the log too
    assert retried.status == 200 and retried.body["ply"] == 6
    # The repetition history came from the log: the third Ng1/Ng8 cycle still draws.
    state = api.play(game_id, seats, ["Ng1", "Ng8"])
    assert state["status"] == {"result": "draw", "reason": "threefold_repetition"}


def test_a_move_that_moved_the_anchor_heals_the_head(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["Nf3", "Nf6"])
    _rewrite_head(game_id, overflow=True, recent=None, recent_check=None)
    api.play(game_id, seats, ["e4"])  # a pawn move: a new anchor, the head keeps its moves again
    head = GameStore().get_head(game_id)
    assert "overflow" not in head and head["anchor_ply"] == 2 and len(head["recent"]) == 1


def test_payload_limits_and_methods(api):
    token = api.new_player()["token"]
    big = api.call("POST", "/v1/games", raw_body='{"game": "chess", "x": "' + "a" * 70_000 + '"}', token=token)
    assert big.status == 413 and big.code == "payload_too_large"
    wrong = api.call("DELETE", "/v1/games/AAAAAAAAAAAA", token=token)
    assert wrong.status == 405 and "GET" in wrong.headers["allow"]
