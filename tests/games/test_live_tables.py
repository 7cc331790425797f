"""Live tables (``turn_seconds``): a turn of 30 s on the server's clock, the computer playing on for the
absent player from the first read after the deadline, a late move refused, and the player taking the seat
back; on moto and on dynalite, with only the clock faked."""

from __future__ import annotations

import os

import pytest

from tests.games.client import Api, at_once, snapshot

TANZANIAN_OPENING = ["c3-d4", "f6-e5"]


def post(api, game_id: str, action: str, token: str):
    return api.call("POST", f"/v1/games/{game_id}/{action}", token=token)


@pytest.fixture
def live_api(backend, handler):
    return Api(handler)


def live_game(api, seconds: int = 30):
    game_id, seats = api.start_game("tanzanian", options={"turn_seconds": seconds})
    api.play(game_id, seats, TANZANIAN_OPENING)  # White (Asha) to move at ply 2
    return game_id, seats


def events_of(game_id: str) -> list[dict]:
    """The game's log in order, as stored."""
    items = snapshot()[os.environ["GAMES_TABLE"]]
    events = (item for item in items if item["pk"] == game_id and item["sk"] != "H" and "kind" in item)  # no listings
    return sorted(events, key=lambda item: item["sk"])


def test_a_live_turn_runs_out_the_computer_plays_on_and_the_player_resumes(live_api, clock):
    api = live_api
    game_id, seats = live_game(api)
    state = api.get(game_id).body
    assert state["options"]["turn_seconds"] == 30 and state["turn"] == "white" and state["ply"] == 2
    assert state["turn_ms_left"] == 30_000  # the clock has not moved since Black's move
    clock.advance(seconds=30)
    etag = api.get(game_id).headers["etag"]
    assert api.get(game_id).body["turn_ms_left"] == 0  # at the deadline itself the turn still holds
    assert api.get(game_id, headers={"If-None-Match": etag}).status == 304  # nothing due: no change

    clock.advance(seconds=1)  # Asha's turn has run out; no one has read the game yet
    before = snapshot()
    late = api.move(seats["white"], game_id, "d4-c5", 2)
    assert late.status == 409 and late.code == "turn_time_over", late.body
    assert late.body["game"]["ply"] == 2
    assert snapshot() == before  # the late move changed nothing

    # Baraka's page polls: the first read after the deadline lets the computer play on for Asha, at once.
    seen = api.get(game_id, headers={"If-None-Match": etag})
    assert seen.status == 200, seen.status
    after = seen.body
    assert after["cpu_takeover"]["seat"] == "white" and after["players"]["white"]["name"] == "Asha"
    assert after["ply"] == 3 and after["turn"] == "black" and after["turn_ms_left"] == 30_000
    kinds = [event["kind"] for event in events_of(game_id)]
    assert kinds[-2:] == ["cpu_takeover", "move"]

    # Asha's late move, sent again: still refused, and still nothing written.
    before = snapshot()
    again = api.move(seats["white"], game_id, "d4-c5", 2)
    assert again.status == 409 and again.code == "turn_time_over"
    assert snapshot() == before

    # Baraka answers in time; the computer answers him for Asha (in the same answer, or on the next read when a
    # loaded machine left the store too little of the request's time: the reply is then owed, never lost).
    clock.advance(seconds=10)
    assert api.move(seats["black"], game_id, after["legal_moves"][0], 3).status == 200
    answered = api.get(game_id).body
    assert answered["ply"] == 5 and answered["turn"] == "black"

    # Asha comes back on the same device with her token and takes her seat back.
    resumed = post(api, game_id, "resume", seats["white"])
    assert resumed.status == 200 and resumed.body["cpu_takeover"] is None
    clock.advance(seconds=5)
    moved = api.move(seats["black"], game_id, answered["legal_moves"][0], 5).body
    assert moved["turn"] == "white" and moved["ply"] == 6  # the computer no longer answers for her
    clock.advance(seconds=29)
    mine = api.move(seats["white"], game_id, moved["legal_moves"][0], 6)
    assert mine.status == 200 and mine.body["ply"] == 7, mine.body


def test_a_live_game_both_players_left_ends_with_no_result(live_api, clock):
    api = live_api
    game_id, seats = live_game(api, seconds=60)
    clock.advance(seconds=61)
    taken = api.get(game_id).body  # the computer plays on for Asha
    assert taken["cpu_takeover"]["seat"] == "white" and taken["turn"] == "black"
    clock.advance(seconds=61)  # now Baraka has gone too: nobody played; the one who left first does not win
    over = api.get(game_id).body
    assert over["state"] == "finished" and over["status"] == {"result": "aborted", "reason": "abandoned"}
    assert over["turn_ms_left"] is None and over["deadline"] is None


def test_the_opponents_claim_at_a_live_table_lets_the_computer_play_on(live_api, clock):
    api = live_api
    game_id, seats = live_game(api)
    clock.advance(seconds=31)
    claimed = post(api, game_id, "claim-timeout", seats["black"])
    assert claimed.status == 200, claimed.body
    assert claimed.body["state"] == "active" and claimed.body["cpu_takeover"]["seat"] == "white"


def test_one_computer_move_however_many_readers_see_the_turn_run_out(dynalite_api, handler, clock):
    game_id, _ = live_game(dynalite_api)
    clock.advance(seconds=31)
    # Eight instances read the game at once (forked processes on one dynalite server): each may see the turn
    # run out, and the conditional appends let one takeover and one computer move through.
    answers = at_once(lambda: Api(handler), [lambda reader: reader.get(game_id)] * 8)
    # A reader that lost every round to the others may be told to retry (503); none sees a half-done turn.
    assert {answer.status for answer in answers} <= {200, 503} and 200 in {answer.status for answer in answers}
    assert {answer.body["ply"] for answer in answers if answer.status == 200} == {3}
    kinds = [event["kind"] for event in events_of(game_id)]
    assert kinds.count("cpu_takeover") == 1 and kinds.count("move") == 3  # two opening moves, one computer move


def test_a_poll_with_nothing_due_is_one_query(moto_tables, handler, clock, count_calls):
    api = Api(handler)
    game_id, _ = live_game(api)
    etag = api.get(game_id).headers["etag"]
    clock.advance(seconds=20)
    count_calls.calls.clear()
    answer = api.get(game_id, headers={"If-None-Match": etag}, query={"moves_after": "2"})
    assert answer.status == 304 and count_calls.calls == ["Query"]


@pytest.mark.parametrize("value", [0, 45, 120, True, "30", 30.0])
def test_the_turn_limit_is_none_30_or_60(api, value):
    player = api.new_player("Asha")["token"]
    before = snapshot()
    answer = api.call("POST", "/v1/games", {"game": "tanzanian", "options": {"turn_seconds": value}}, token=player)
    assert answer.status == 422 and answer.code in ("invalid_option", "invalid_request"), answer.body
    assert snapshot() == before
    created = api.create(player, "tanzanian", options={"turn_seconds": None}).body["game"]
    assert "turn_seconds" not in created["options"] and created["turn_ms_left"] is None


def test_a_rematch_keeps_the_live_table(api, clock):
    game_id, seats = live_game(api)
    assert post(api, game_id, "resign", seats["white"]).status == 200
    assert post(api, game_id, "rematch", seats["black"]).status == 200  # an offer: nothing made yet
    answer = api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "accept"}, token=seats["white"])
    assert answer.status == 201, answer.body
    rematch = answer.body["game"]
    assert rematch["options"]["turn_seconds"] == 30 and rematch["turn_ms_left"] == 30_000
