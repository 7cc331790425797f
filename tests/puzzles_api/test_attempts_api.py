"""Attempts through the API (moto): a whole solve and a whole failure in each game, only the first attempt
counting, the puzzle by id, and every refusal with its status and code, changing nothing."""

from __future__ import annotations

import pytest
from puzzles_api.domain.daily import daily_puzzle
from puzzles_api.domain.progress import PUZZLE_RD
from puzzles_api.repository import COUNTER_SHARDS, PuzzleStore

from puzzles.catalog import GAMES, load
from tests.puzzles_api.client import failing_line, snapshot
from tests.puzzles_api.sets import find

TODAY = "2025-06-15"


def longest(game: str):
    """The puzzle of ``game`` with the longest solution (several round trips)."""
    return max(load(game), key=lambda puzzle: (len(puzzle.solution), puzzle.id))


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_solve_counts_once_for_the_player(api, game):
    token = api.new_player()
    puzzle = longest(game)
    answers = api.solve(puzzle, token)
    assert len(answers) == len(puzzle.solution[::2]) >= 2
    for answer in answers[:-1]:  # going on: no rating yet
        assert answer.body["rated"] is None and answer.body["solution"] is None and answer.body["source"] is None
    final = answers[-1].body
    assert (
        final["rated"] is True
        and final["rating_change"] > 0
        and final["rating"] == pytest.approx(1500 + final["rating_change"])
    )
    assert final["source"] == puzzle.source and final["solution"] is None
    progress = api.progress(token)
    assert (progress["solved"], progress["failed"]) == (1, 0)
    assert progress["recent"] == [
        {
            "id": puzzle.id,
            "game": game,
            "result": "solved",
            "at": "2025-06-15T15:06:40Z",
            "rating_change": final["rating_change"],
        }
    ]
    assert progress["rating"] == final["rating"] and progress["rating_deviation"] < 350
    # The same puzzle again: the same verdicts, nothing counted.
    again = api.solve(puzzle, token)
    assert again[-1].body["rated"] is False and again[-1].body["rating_change"] == 0
    assert api.progress(token)["solved"] == 1
    assert PuzzleStore().counts(puzzle.id) == {"plays": 1, "solves": 1}


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_failure_shows_the_solution_and_a_replay_does_not_count(api, game):
    token = api.new_player()
    puzzle = longest(game)
    # Right first, then wrong as late as the puzzle allows.
    line = failing_line(puzzle)
    assert len(line) >= 2
    for step in range(1, len(line)):
        assert api.attempt(puzzle.id, line[:step], token).body["result"] == "continue"
    failed = api.attempt(puzzle.id, line, token)
    assert failed.status == 200
    body = failed.body
    assert body["result"] == "failed" and body["solution"] == list(puzzle.solution) and body["reply"] is None
    assert body["rated"] is True and body["rating_change"] < 0
    progress = api.progress(token)
    assert (progress["solved"], progress["failed"], progress["recent"][0]["result"]) == (0, 1, "failed")
    # Replaying the failed puzzle with the solution now known solves it, and changes nothing.
    replay = api.solve(puzzle, token)[-1].body
    assert replay["rated"] is False and replay["rating"] == body["rating"]
    after = api.progress(token)
    assert (after["solved"], after["failed"], after["rating"]) == (0, 1, progress["rating"])
    assert PuzzleStore().counts(puzzle.id) == {"plays": 1, "solves": 0}


def test_without_a_token_attempts_are_checked_and_nothing_is_stored(api):
    puzzle = longest("chess")
    before = snapshot()
    answers = api.solve(puzzle)
    assert answers[-1].body == {
        "result": "solved", "reply": None, "solution": None, "source": puzzle.source,
        "rated": None, "rating": None, "rating_change": None,
    }  # fmt: skip
    assert api.fail(puzzle).body["solution"] is None  # a solution is earned with a stored failure
    assert snapshot() == before


def test_the_first_finished_attempt_counts_even_when_the_player_solves_it_later(api):
    token = api.new_player()
    puzzle = longest("english")
    api.fail(puzzle, token)
    rating = api.progress(token)["rating"]
    for _ in range(3):
        assert api.solve(puzzle, token)[-1].body["rated"] is False
    progress = api.progress(token)
    assert (progress["solved"], progress["failed"], progress["rating"]) == (0, 1, rating)


def test_an_abandoned_attempt_does_not_count_and_the_next_finished_one_does(api):
    token = api.new_player()
    puzzle = longest("tanzanian")
    assert api.attempt(puzzle.id, [puzzle.solution[0]], token).body["result"] == "continue"
    assert api.progress(token)["recent"] == []
    assert api.solve(puzzle, token)[-1].body["rated"] is True


def test_ratings_follow_glicko2_against_the_puzzles_fixed_rating(api):
    from common.ratings.glicko2 import Rating, update

    token = api.new_player()
    hard, easy = max(load("chess"), key=lambda p: p.rating), min(load("chess"), key=lambda p: p.rating)
    api.solve(hard, token)
    api.fail(easy, token)
    expected = update(Rating(), [(Rating(hard.rating, PUZZLE_RD), 1.0)])
    expected = update(expected, [(Rating(easy.rating, PUZZLE_RD), 0.0)])
    progress = api.progress(token)
    assert progress["rating"] == pytest.approx(expected.rating, abs=0.01)
    assert progress["rating_deviation"] == pytest.approx(expected.rd, abs=0.01)
    assert progress["volatility"] == pytest.approx(expected.volatility, abs=1e-6)


def test_counters_are_sharded_and_add_up(api):
    puzzle = daily_puzzle("chess", __import__("datetime").date(2025, 6, 15))
    players = [api.new_player() for _ in range(12)]
    for index, token in enumerate(players):
        if index % 3:
            api.solve(puzzle, token)
        else:
            api.fail(puzzle, token)
    assert PuzzleStore().counts(puzzle.id) == {"plays": 12, "solves": 8}
    keys = {item["pk"] for item in snapshot().get("PuzzleProgressTable", []) if item["pk"].startswith("puzzle#")}
    assert keys <= {f"puzzle#{puzzle.id}#{shard}" for shard in range(COUNTER_SHARDS)} and len(keys) > 1


# -------------------------------------------------------------------------------------- the puzzle by id
@pytest.mark.parametrize("game", GAMES)
def test_a_puzzle_by_id_without_its_solution(api, game):
    puzzle = load(game)[7]
    answer = api.call("GET", f"/v1/puzzles/{puzzle.id}")
    assert answer.status == 200 and answer.body == puzzle.public()
    assert "solution" not in answer.text and answer.headers["cache-control"] == "public, max-age=86400"
    assert api.call("GET", f"/v1/puzzles/{puzzle.id}", headers={"if-none-match": answer.headers["etag"]}).status == 304


def test_lichess_ids_are_case_sensitive(api):
    lower, upper = api.call("GET", "/v1/puzzles/chess-001wr"), api.call("GET", "/v1/puzzles/chess-001wR")
    assert lower.status == upper.status == 200 and lower.body["fen"] != upper.body["fen"]


# ------------------------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "puzzle_id",
    ["chess-nope", "chess-", "go-00008", "00008", "CHESS-00008", "chess-00008x", "english-" + "a" * 41, "chess-0%200"],
)
def test_an_unknown_puzzle_is_404_on_every_route(api, puzzle_id):
    for method, path, body in (
        ("GET", f"/v1/puzzles/{puzzle_id}", None),
        ("POST", f"/v1/puzzles/{puzzle_id}/attempt", {"moves": ["e4"]}),
    ):
        answer = api.call(method, path, body)
        assert (answer.status, answer.code) == (404, "puzzle_not_found"), (path, answer.body)


@pytest.mark.parametrize(
    ("body", "raw"),
    [
        ({}, None),
        ({"moves": []}, None),
        ({"moves": "Re1+"}, None),
        ({"moves": [1]}, None),
        ({"moves": [None]}, None),
        ({"moves": [""]}, None),
        ({"moves": ["x" * 65]}, None),
        ({"moves": ["Re1+"] * 33}, None),
        ({"moves": ["Re1+"], "extra": 1}, None),
        ([["Re1+"]], None),
        (None, "not json"),
        (None, '{"moves": ["Re1+"]'),
    ],
)
def test_malformed_moves_are_refused_and_change_nothing(api, body, raw):
    token = api.new_player()
    before = snapshot()
    answer = api.call("POST", "/v1/puzzles/chess-000Zo/attempt", body, token=token, raw_body=raw)
    assert answer.status in (400, 422) and answer.code in ("invalid_json", "invalid_request", "invalid_body"), (
        answer.body
    )
    assert snapshot() == before


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        (["Zz9"], "illegal_move"),
        (["Rf8f1"], "illegal_move"),  # no rook on f8
        (["Re1+", "Kf2"], "illegal_move"),  # the opponent's answer is not the solver's move
        (["Rd8", "Re1"], "attempt_over"),  # failed at the first move already
        (["Re1+", "Rf1#", "Kg2"], "attempt_over"),
    ],
)
def test_moves_that_are_not_an_attempt_are_422_and_change_nothing(api, moves, code):
    token = api.new_player()
    before = snapshot()
    answer = api.attempt("chess-000Zo", moves, token)  # 4r3/1k6/... b: Re1+ Kf2 Rf1#
    assert (answer.status, answer.code) == (422, code), answer.body
    assert snapshot() == before


@pytest.mark.parametrize(
    "authorization",
    ["Bearer ubao_" + "A" * 43, "Bearer nope", "Basic dXNlcjpwYXNz", "Bearer", "ubao_" + "A" * 43],
)
def test_a_wrong_token_is_401_on_every_route_that_takes_one(api, authorization):
    before = snapshot()
    calls = [
        ("POST", "/v1/puzzles/chess-000Zo/attempt", {"moves": ["Re1+", "Rf1#"]}, {}),
        ("POST", "/v1/puzzles/chess-000Zo/attempt", {"moves": ["Re1+"]}, {}),
        ("GET", "/v1/puzzles/next", None, {"game": "chess"}),
        ("GET", "/v1/players/me/puzzles", None, {"tz": "UTC"}),
    ]
    for method, path, body, query in calls:
        answer = api.call(method, path, body, headers={"authorization": authorization}, query=query)
        assert (answer.status, answer.code) == (401, "unauthorized"), (path, answer.body)
        assert answer.headers["www-authenticate"].startswith("Bearer")
    assert snapshot() == before


def test_routes_that_need_a_token_say_so(api):
    for path, query in (("/v1/puzzles/next", {"game": "chess"}), ("/v1/players/me/puzzles", {})):
        answer = api.call("GET", path, query=query)
        assert (answer.status, answer.code) == (401, "unauthorized")


def test_an_unknown_puzzle_is_404_before_any_write(api):
    token = api.new_player()
    before = snapshot()
    assert api.attempt("english-0000000000", ["9-13"], token).status == 404
    assert snapshot() == before


def test_the_store_keeps_one_attempt_item_per_first_attempt(api):
    token = api.new_player()
    puzzle = find("chess-000Zo")
    api.solve(puzzle, token)
    api.fail(puzzle, token)
    attempts = [item for item in snapshot()["PuzzleProgressTable"] if item["pk"].startswith("player#")]
    assert len(attempts) == 1 and attempts[0]["sk"] == puzzle.id and attempts[0]["result"] == "solved"
