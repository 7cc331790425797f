"""Random requests to the lobby's routes: never a 5xx, every refusal the JSON error shape."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzzing import drawn_requests, no_request_gets_a_5xx
from tests.games.test_fuzz import bodies, id_texts

ROUTES = [
    ("POST", "/v1/seeks"),
    ("GET", "/v1/seeks"),
    ("GET", "/v1/seeks/{id}"),
    ("POST", "/v1/seeks/{id}/accept"),
    ("DELETE", "/v1/seeks/{id}"),
]
queries = st.dictionaries(
    st.sampled_from(["game", "cursor", "x"]), st.text(max_size=40) | st.sampled_from(["chess", "tanzanian"]), max_size=3
)


def test_no_lobby_request_gets_a_5xx(api, clock):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    made = api.call(
        "POST", "/v1/seeks", {"game": "english", "rated": False, "rating_range": [1400, 1600]}, token=asha["token"]
    )
    seek_id = made.body["seek"]["id"]
    tokens = st.sampled_from([None, asha["token"], baraka["token"], "ubao_" + "Z" * 43]) | st.text(max_size=50)
    ids = st.just(seek_id) | id_texts
    etags = st.none() | st.text(max_size=20) | st.just("*")
    no_request_gets_a_5xx(api, clock, 120, drawn_requests(ROUTES, ids, tokens, etags, queries, bodies), days=3)
