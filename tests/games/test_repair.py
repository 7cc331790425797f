"""A head that cannot give its position (an older head format, or a damaged one) makes the game read its log
instead: slower, never wrong, and the head is written again in the current format."""

from __future__ import annotations

import pytest
from common.persistence import store
from games.repository import GameStore

from tests.checks import known

#: A change that takes the attribute out of the stored head.
DROP = object()


def _rewrite_head(game_id: str, **changes: object) -> None:
    """Change the stored head behind the API's back (as an older version of the function wrote it); an
    attribute changed to ``DROP`` is taken out."""
    head = known(GameStore().get_head(game_id))
    for name, value in changes.items():
        if value is DROP:
            head.pop(name, None)
        else:
            head[name] = value
    item = store.to_item({**head, "pk": head.pop("id"), "sk": "H"})
    store.client().put_item(TableName=GameStore().table, Item=item)


OLDER_FORMAT = {
    **dict.fromkeys(("fen", "memory", "last_moves", "schema_version"), DROP),
    "anchor_fen": None,
    "anchor_ply": 0,
    "recent": b"\x01",
}


@pytest.mark.parametrize(
    "damage",
    [
        {"memory": b"\x00" * 5},  # the repetition keys are cut short
        {"fen": "not a position"},
        OLDER_FORMAT,
    ],
)
def test_the_log_stands_in_for_a_head_that_cannot_give_its_position(api, damage):
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


def test_a_head_in_the_older_format_is_written_again_in_the_current_one(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["Nf3", "Nf6"])
    _rewrite_head(game_id, **OLDER_FORMAT)
    assert api.get(game_id).body["ply"] == 2
    head = known(GameStore().get_head(game_id))
    assert head["fen"] == api.get(game_id).body["fen"] and "anchor_fen" not in head and head["seq"] == 4


def test_payload_limits_and_methods(api):
    token = api.new_player()["token"]
    big = api.call("POST", "/v1/games", raw_body='{"game": "chess", "x": "' + "a" * 70_000 + '"}', token=token)
    assert big.status == 413 and big.code == "payload_too_large"
    wrong = api.call("DELETE", "/v1/games/AAAAAAAAAAAA", token=token)
    assert wrong.status == 405 and "GET" in wrong.headers["allow"]
