"""Every request costs the same store calls at ply 10 and at ply 3,000: the head holds the position and what
the draw rules remember, so no request reads or replays the moves to act on a game. (CPU per request is in
``make bench``, as a ratio; tests do not time.)"""

from __future__ import annotations

import pytest
from games.repository import GameStore

from tests.checks import known
from tests.games.long_game import SHUFFLE, write_long_game

PLIES = (10, 3_000)


def _requests(api, game_id, seats, ply):
    turn = "white" if ply % 2 == 0 else "black"
    return {
        "move": lambda: api.move(seats[turn], game_id, SHUFFLE[ply % 4], ply),
        "retry": lambda: api.move(seats[turn], game_id, SHUFFLE[ply % 4], ply),
        "stale": lambda: api.move(seats[turn], game_id, SHUFFLE[ply % 4], ply - 2),
        "get": lambda: api.get(game_id),
        "poll": lambda: api.get(game_id, headers={"if-none-match": api.get(game_id).headers["etag"]}),
        "get_moves_after": lambda: api.call("GET", f"/v1/games/{game_id}", query={"moves_after": ply - 2}),
        "older_moves": lambda: api.call("GET", f"/v1/games/{game_id}/moves", query={"before": ply, "limit": 50}),
        "offer_draw": lambda: api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["white"]),
    }


@pytest.mark.slow
def test_the_same_store_calls_at_ply_10_and_ply_3000(api, count_calls):
    calls: dict[int, dict[str, list[str]]] = {}
    for plies in PLIES:
        seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
        game_id = f"long{plies:08d}"
        write_long_game(GameStore(), game_id, seats, plies)
        calls[plies] = {}
        for name, request in _requests(api, game_id, seats, plies).items():
            count_calls.calls.clear()
            answer = request()
            assert answer.status in (200, 304, 409), (name, answer.body)
            if name == "poll":
                assert answer.status == 304
                count_calls.calls = count_calls.calls[1:]  # the GET that fetched the ETag
            calls[plies][name] = sorted(count_calls.calls)
    assert calls[10] == calls[3_000]
    assert calls[10]["move"] == ["GetItem", "PutItem", "PutItem"]  # the head, the event, the new head
    assert calls[10]["get"] == ["Query"]  # the head (which has the first position) with the latest events
    assert calls[10]["older_moves"] == ["Query"]
    assert api.get("long00003000").body["ply"] == 3_001


def test_the_move_that_reaches_the_maximum_length_draws(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    write_long_game(GameStore(), "limit0000000", seats, 10, max_plies=12)
    first = api.move(seats["white"], "limit0000000", SHUFFLE[10 % 4], 10)
    assert first.status == 200 and first.body["status"] == {"result": "ongoing", "reason": None}
    last = api.move(seats["black"], "limit0000000", SHUFFLE[11 % 4], 11)
    assert last.body["state"] == "finished" and last.body["status"] == {"result": "draw", "reason": "move_limit"}


def test_every_new_game_has_the_documented_maximum_length(api):
    from games.domain import MAX_PLIES

    token = api.new_player()["token"]
    game_id = api.create(token, "tanzanian").body["game"]["id"]
    assert MAX_PLIES == 1_000 and known(GameStore().get_event(game_id, 1)).get("max_plies") is None  # the default
