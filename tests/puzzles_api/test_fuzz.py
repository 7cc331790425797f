"""Fuzzing every puzzles route with hypothesis: whatever arrives, the answer is never a 5xx, every refusal has
the API's error shape, and no refused request writes anything. Bounded to run in seconds."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzzing import check_answer, drawn_requests, fuzzed
from tests.puzzles_api.client import snapshot
from tests.puzzles_api.sets import find

ROUTES = [
    ("GET", "/v1/puzzles/daily"),
    ("GET", "/v1/puzzles/next"),
    ("GET", "/v1/puzzles/{id}"),
    ("POST", "/v1/puzzles/{id}/attempt"),
    ("GET", "/v1/players/me/puzzles"),
]
PUZZLE = find("chess-000Zo")  # Re1+ Kf2 Rf1#
likely_moves = st.sampled_from(
    ["Re1+", "e8e1", "Rf1#", "Rd8", "Kf2", "e4", "9-13", "c3-d4", "", " ", "Re1++", "O-O", "a7xa3"]
)
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
bodies = (
    st.fixed_dictionaries({"moves": st.lists(likely_moves | st.text(max_size=8), max_size=5)}).map(json.dumps)
    | st.dictionaries(st.sampled_from(["moves", "tz", "game", "x"]), values, max_size=3).map(json.dumps)
    | st.text(max_size=40)
    | st.binary(max_size=30).map(lambda raw: raw.decode("latin-1"))
    | st.none()
)
queries = st.dictionaries(
    st.sampled_from(["game", "date", "tz", "x"]),
    st.sampled_from(["chess", "english", "tanzanian", "go", "2025-06-15", "2025-01-01", "2031-01-01", "UTC",
                     "Asia/Manila", "Mars/Base", "../x", ""]) | st.text(max_size=30),
    max_size=3,
)  # fmt: skip
ids = st.sampled_from([PUZZLE.id, "english-5a5c999cac", "chess-001wr", "chess-00008"]) | st.text(
    alphabet="ABCabc012-_%.chesnglit", max_size=24
)


def _check(answer):
    check_answer(answer)
    if answer.status < 400 and answer.status != 304:
        assert "solution" not in answer.body or answer.body.get("result") == "failed" or answer.body["solution"] is None


def test_no_request_gets_a_5xx_and_no_refusal_writes(api, clock):
    player = api.new_player()
    tokens = st.sampled_from([None, player, "ubao_" + "Z" * 43]) | st.text(max_size=50)

    etags = st.none() | st.text(max_size=20) | st.just("*")

    @fuzzed(250)
    @given(request=drawn_requests(ROUTES, ids, tokens, etags, queries, bodies), hours=st.integers(0, 30))
    def send(request, hours):
        clock.advance(seconds=3600 * hours)
        before = snapshot() if request["method"] == "POST" else None
        answer = api.call(**request)
        _check(answer)
        if before is not None and answer.status >= 400:
            assert snapshot() == before

    send()


def test_fuzzed_attempts_at_a_real_puzzle_are_judged_or_refused(api):
    token = api.new_player()

    @fuzzed(120)
    @given(
        moves=st.lists(
            likely_moves | st.from_regex(r"[a-h][1-8][a-h][1-8][qrbn]?", fullmatch=True), min_size=1, max_size=4
        )
    )
    def request(moves):
        answer = api.attempt(PUZZLE.id, moves, token)
        _check(answer)
        if answer.status == 200:
            assert answer.body["result"] in ("continue", "solved", "failed")
        else:
            assert answer.status == 422 and answer.code in (
                "illegal_move",
                "attempt_over",
                "ambiguous_move",
                "invalid_request",
            )

    request()
    # Whatever happened, at most the first finished attempt counted.
    progress = api.progress(token)
    assert progress["solved"] + progress["failed"] <= 1
