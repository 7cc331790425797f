"""A game's view says whether it has a review to read (``review``), so its page asks for one only when there is
one: a player's request appends ``ask_review`` to the log once; a finished rated game's review, which notify asks
for by itself, reads as pending until it is stored. Reading the game costs the same store calls either way."""

from __future__ import annotations

from tests.games.test_ratings_api import FOOLS_MATE, rated_game


def test_asking_for_a_review_shows_on_the_game_once(apis, queue):
    api, _puzzles = apis
    game_id, seats = api.start_game("english")
    assert api.get(game_id).body["review"] == "none"  # not over: nothing to review
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])
    ended = api.get(game_id)
    assert ended.body["review"] == "none"
    assert api.call("GET", f"/v1/games/{game_id}/review").code == "review_not_found"
    assert api.call("POST", f"/v1/games/{game_id}/review", token=seats["white"]).status == 202
    asked = api.get(game_id)
    assert asked.body["review"] == "asked" and asked.headers["etag"] != ended.headers["etag"]  # pollers see it
    assert api.call("POST", f"/v1/games/{game_id}/review", token=seats["black"]).status == 202
    again = api.get(game_id)
    assert again.body["review"] == "asked" and again.headers["etag"] == asked.headers["etag"]  # one event
    assert queue.sent == [game_id]
    assert api.call("GET", f"/v1/games/{game_id}/review").body["status"] == "pending"


def test_a_refused_request_marks_nothing(apis):
    api, _puzzles = apis
    game_id, seats = api.start_game("chess")
    before = api.get(game_id)
    refused = api.call("POST", f"/v1/games/{game_id}/review", token=seats["white"])
    assert (refused.status, refused.code) == (409, "game_not_finished")
    stranger = api.new_player("Chausiku")
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
    assert api.call("POST", f"/v1/games/{game_id}/review", token=stranger["token"]).code == "not_a_player"
    after = api.get(game_id)
    assert after.body["review"] == "none" and after.body["ply"] == before.body["ply"]


def test_a_finished_rated_game_has_its_review_pending_before_notify_stores_it(apis, queue):
    api, _puzzles = apis
    game_id, tokens, _ = rated_game(api, opened=False)
    for ply, move in enumerate(FOOLS_MATE):
        api.move(tokens["white" if ply % 2 == 0 else "black"], game_id, move, ply)
    assert api.get(game_id).body["review"] == "asked"
    read = api.call("GET", f"/v1/games/{game_id}/review")
    assert read.status == 200 and read.body["status"] == "pending"
    assert queue.sent == []  # the games function asked for nothing: notify does


def test_a_rated_game_without_a_move_has_no_review(apis):
    api, _puzzles = apis
    game_id, tokens, _ = rated_game(api, opened=False)
    api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"])
    assert api.get(game_id).body["review"] == "none"
    assert api.call("GET", f"/v1/games/{game_id}/review").code == "review_not_found"


def test_reading_a_game_costs_the_same_calls_before_and_after_a_review_is_asked(apis, count_calls):
    api, _puzzles = apis
    game_id, seats = api.start_game("chess")
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
    count_calls.calls.clear()
    api.get(game_id)
    before = sorted(count_calls.calls)
    api.call("POST", f"/v1/games/{game_id}/review", token=seats["black"])
    count_calls.calls.clear()
    assert api.get(game_id).body["review"] == "asked"
    assert sorted(count_calls.calls) == before == ["Query"]
