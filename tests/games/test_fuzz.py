"""Fuzzing every games and players route with hypothesis: whatever arrives, the answer is never a 5xx, and
every refusal has the API's error shape. Bounded to run in seconds."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzzing import check_answer, drawn_requests, fuzzed, no_request_gets_a_5xx

ROUTES = [
    ("POST", "/v1/players"),
    ("PATCH", "/v1/players/me"),
    ("GET", "/v1/players/me/games"),
    ("POST", "/v1/games"),
    ("GET", "/v1/games/{id}"),
    ("POST", "/v1/games/{id}/join"),
    ("POST", "/v1/games/{id}/moves"),
    ("POST", "/v1/games/{id}/resign"),
    ("POST", "/v1/games/{id}/draw"),
    ("POST", "/v1/games/{id}/claim-timeout"),
    ("POST", "/v1/games/{id}/rematch"),
    ("GET", "/v1/games/{id}/export"),
    ("GET", "/v1/players/me"),
    ("GET", "/v1/players/me/ratings/{id}"),
    ("GET", "/v1/leaderboard"),
]
FIELDS = [
    "game",
    "color",
    "options",
    "fen",
    "invite",
    "move",
    "ply",
    "action",
    "name",
    "days_per_move",
    "move_limit",
    "mandatory_capture",
    "swap_colors",
    "rated",
]

scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=8,
)
likely = st.sampled_from(
    [
        "chess",
        "english",
        "tanzanian",
        "white",
        "black",
        "random",
        "offer",
        "accept",
        "decline",
        "e4",
        "e5",
        "11-15",
        "c3-d4",
        "Nf3",
        "",
        " ",
        "0",
        "-1",
        "Asha",
    ]
)
bodies = (
    st.dictionaries(st.sampled_from(FIELDS), likely | values | st.integers(-3, 30), max_size=5).map(json.dumps)
    | values.map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=40).map(lambda raw: raw.decode("latin-1"))
    | st.none()
)
queries = st.dictionaries(
    st.sampled_from(["status", "cursor", "limit", "game", "x"]), st.text(max_size=40) | likely, max_size=3
)
id_texts = st.text(alphabet="ABCabc012-_%./", min_size=0, max_size=14)


def test_no_request_gets_a_5xx(api, clock):
    game_id, seats = api.start_game("chess")
    outsider = api.new_player()["token"]
    tokens = st.sampled_from([None, seats["white"], seats["black"], outsider, "ubao_" + "Z" * 43]) | st.text(
        max_size=50
    )
    ids = st.one_of(st.just(game_id), st.just(game_id), id_texts)  # the game's own id two times in three
    etags = st.none() | st.text(max_size=20) | st.just('"2.4"') | st.just("*")
    no_request_gets_a_5xx(api, clock, 250, drawn_requests(ROUTES, ids, tokens, etags, queries, bodies), days=20)


def test_fuzzed_moves_never_corrupt_the_game(api):
    """Random move texts and plies at a live game: each is refused cleanly or played, and the game's log
    always replays to the state the API shows."""
    from shared_rules import get_game

    game_id, seats = api.start_game("english")

    @fuzzed(80)
    @given(
        move=likely | st.text(max_size=12) | st.from_regex(r"[0-9]{1,2}[-x][0-9]{1,2}", fullmatch=True),
        ply=st.integers(-1, 8),
        color=st.sampled_from(["white", "black"]),
    )
    def request(move, ply, color):
        answer = api.call("POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=seats[color])
        check_answer(answer)
        state = api.get(game_id).body
        replayed = get_game("english").replay(state["moves"])
        assert replayed.fen() == state["fen"] and replayed.ply == state["ply"]

    request()
