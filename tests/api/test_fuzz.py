"""Fuzzing POST /v1/validate: whatever the body, the answer is a verdict or a 4xx in the error shape.

Bodies come from three sources: arbitrary bytes, arbitrary JSON, and well-formed requests with one part
made wrong (the kind that reaches the rules layer). Bounded so it runs in seconds.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from validate_move.handler import lambda_handler
from validate_move.models import ValidateResponse

from tests.api.helpers import assert_error, call
from tests.checks import known

RESPONSE = TypeAdapter(ValidateResponse)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
moves_text = st.sampled_from(["e4", "e5", "Nf3", "O-O", "9-13", "11-15", "a3-b4", "c3-d4", "22-18", "exd5", "Qh4#"])
fens = st.sampled_from(
    [
        None,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:Wa1,b2,b4,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
        "W:WK1:BK32",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "",
    ]
)
plausible_requests: st.SearchStrategy[dict[str, object]] = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["chess", "english", "tanzanian", "Chess", "go"]),
        "move": moves_text | st.text(max_size=8),
    },
    optional={
        "fen": fens | st.text(max_size=40),
        "moves": st.lists(moves_text | st.text(max_size=6), max_size=8),
        "options": st.dictionaries(
            st.sampled_from(["mandatory_capture", "move_limit", "threefold_repetition", "thirty_moves", "x"]),
            st.none() | st.booleans() | st.integers(-5, 20_000),
            max_size=3,
        ),
        "extra": json_values,
    },
)


def check(body: bytes | str) -> None:
    answer = call(lambda_handler, "POST", "/v1/validate", body)
    assert answer.status < 500, answer.body
    if answer.status == 200:
        RESPONSE.validate_python(answer.body)
    else:
        assert_error(answer, answer.status, known(answer.error_code))
        assert answer.status in (400, 413, 422)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(body):
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        answer = call(lambda_handler, "POST", "/v1/validate", body, base64_body=True)
        assert_error(answer, 400, "invalid_json")
        return
    check(text)


@FUZZ
@given(json_values)
def test_arbitrary_json(value):
    check(json.dumps(value))


@FUZZ
@given(plausible_requests)
def test_plausible_requests_with_something_wrong(request):
    check(json.dumps(request))
