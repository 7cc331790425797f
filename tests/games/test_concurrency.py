"""Many requests at once, on a real dynalite server over HTTP (its conditional writes are DynamoDB's; moto,
in-process, does not serialise concurrent writers).

Each request runs in its own forked process, as each runs in its own Lambda instance: Powertools keeps the
current event in class state (``BaseRouter.current_event``), so two resolvers in one process must not run
at once, and the local runner serialises them for the same reason.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from games.repository import GameStore

from tests.games.client import Answer, Api, at_once

THREADS = 20

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")


def _at_once(handler, calls) -> list[Answer]:
    """Each ``call(api)`` in its own process (a Lambda instance), all released together; the answers, after a
    client's retries: on a starved machine a request may run out of time waiting for dynalite and answer 503
    ``store_unavailable`` ("send it again"), having written nothing, so it is sent again, as a phone does."""
    answers = at_once(lambda: Api(handler), calls)
    for index, call in enumerate(calls):
        for _ in range(5):
            if answers[index].status != 503:
                break
            assert answers[index].code == "store_unavailable", answers[index].body
            answers[index] = call(Api(handler))
    return answers


def _log_is_whole(game_id: str) -> list[dict]:
    head, events = GameStore().load(game_id)
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))  # no gap, no duplicate
    moves = [event for event in events if event["kind"] == "move"]
    assert [event["ply"] for event in moves] == list(range(1, len(moves) + 1))
    assert head is not None and head["seq"] == len(events) and head["ply"] == len(moves)
    return moves


def test_twenty_different_moves_at_the_same_ply(dynalite_api, handler):
    game_id, seats = dynalite_api.start_game("chess")
    legal = dynalite_api.get(game_id).body["legal_moves"]
    assert len(legal) == THREADS
    answers = _at_once(handler, [lambda api, move=move: api.move(seats["white"], game_id, move, 0) for move in legal])
    statuses = sorted(answer.status for answer in answers)
    assert statuses == [200] + [409] * (THREADS - 1), [(a.status, a.body) for a in answers]
    [winner] = [answer for answer in answers if answer.status == 200]
    for loser in (answer for answer in answers if answer.status == 409):
        assert loser.code == "stale_ply" and loser.body["game"]["last_move"] == winner.body["last_move"]
    [move] = _log_is_whole(game_id)
    assert move["move"] == winner.body["last_move"]


def test_twenty_copies_of_the_same_move(dynalite_api, handler):
    game_id, seats = dynalite_api.start_game("english")
    answers = _at_once(handler, [lambda api: api.move(seats["black"], game_id, "11-15", 0)] * THREADS)
    assert all(answer.status == 200 for answer in answers), [(a.status, a.body) for a in answers]
    assert len({answer.text for answer in answers}) == 1  # every retry, the same answer
    assert len(_log_is_whole(game_id)) == 1


def test_both_players_act_at_once(dynalite_api, handler):
    """Moves, draw offers and a resignation racing: every request is 200 or a clean refusal, the log whole."""
    game_id, seats = dynalite_api.start_game("chess")
    dynalite_api.play(game_id, seats, ["e4", "e5"])

    def white_plays(move: str) -> Callable[[Api], Answer]:
        return lambda api: api.move(seats["white"], game_id, move, 2)

    calls = [white_plays(move) for move in ("Nf3", "Nc3", "d4", "Bc4")]
    calls += [lambda api: api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["black"])]
    calls += [lambda api: api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])] * 2
    answers = _at_once(handler, calls)
    assert all(answer.status in (200, 409) for answer in answers), [(a.status, a.body) for a in answers]
    moves = _log_is_whole(game_id)
    state = dynalite_api.get(game_id).body
    assert state["status"] == {"result": "white", "reason": "resignation"}
    assert len(moves) in (2, 3)  # white's move got in before the resignation, or did not


def test_a_whole_game_on_dynalite(dynalite_api):
    game_id, seats = dynalite_api.start_game("chess")
    state = dynalite_api.play(game_id, seats, ["f3", "e5", "g4", "Qh4#"])
    assert state["status"] == {"result": "black", "reason": "checkmate"}
    listed = dynalite_api.call("GET", "/v1/players/me/games", token=seats["white"], query={"status": "finished"})
    assert [game["id"] for game in listed.body["games"]] == [game_id]


def test_twenty_acceptances_at_once_create_one_game_and_one_201(dynalite_api, handler):
    game_id, seats = dynalite_api.start_game("chess")
    resigned = dynalite_api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
    assert resigned.status == 200
    assert dynalite_api.call("POST", f"/v1/games/{game_id}/rematch", token=seats["white"]).status == 200  # the offer
    accept = {"action": "accept"}
    answers = _at_once(
        handler,
        [lambda api: api.call("POST", f"/v1/games/{game_id}/rematch", accept, token=seats["black"])] * THREADS,
    )
    statuses = sorted(answer.status for answer in answers)
    assert statuses == [200] * (THREADS - 1) + [201], [(a.status, a.body) for a in answers]
    assert len({answer.body["game"]["id"] for answer in answers}) == 1
    _log_is_whole(answers[0].body["game"]["id"])
