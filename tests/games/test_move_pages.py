"""The move list in pages, so a request costs the same at any length: a game view carries the latest moves,
a poller asks for the moves after its ply, and older moves come a page at a time; every page is one bounded
Query, whatever the game's length."""

from __future__ import annotations

from dataclasses import replace

import pytest
from games.repository import GameStore
from games.views.pages import MOVES_PAGE

from tests.checks import known
from tests.games.long_game import LONG_CHESS, SHUFFLE, long_game, write_long_game, write_records


def _long_moves(plies: int) -> list[str]:
    return [SHUFFLE[ply % 4] for ply in range(plies)]


def _whole_list(api, game_id: str) -> list[str]:
    """The whole move list as a client rebuilds it: the view, then older pages until ``earlier`` is null."""
    view = api.get(game_id).body
    moves, earlier = list(view["moves"]), view["earlier"]
    assert len(view["moves"]) <= MOVES_PAGE and view["moves_from"] + len(view["moves"]) == view["ply"]
    while earlier is not None:
        page = api.call("GET", f"/v1/games/{game_id}/moves", query={"before": earlier, "limit": 37}).body
        assert len(page["moves"]) <= 37
        assert page["moves_from"] + len(page["moves"]) + len(moves) == view["ply"]  # no gap, no overlap
        moves, earlier = page["moves"] + moves, page["earlier"]
    return moves


def test_a_short_game_lists_every_move_at_once(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["e4", "e5", "Nf3"])
    view = api.get(game_id).body
    assert view["moves"] == ["e4", "e5", "Nf3"] and view["moves_from"] == 0 and view["earlier"] is None


def test_a_long_game_shows_its_latest_moves_and_pages_back_to_the_first(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    write_long_game(GameStore(), "pages0000130", seats, 130)
    answer = api.get("pages0000130")
    assert answer.status == 200, answer.body
    view = answer.body
    assert view["moves"] == _long_moves(130)[-MOVES_PAGE:] and view["moves_from"] == 130 - MOVES_PAGE
    assert view["earlier"] is not None and view["start_fen"] == "W:WKc1,Ke1:BKb8,Kd8"
    assert _whole_list(api, "pages0000130") == _long_moves(130)


def test_a_head_stored_before_it_carried_the_start_reads_it_from_the_first_event(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    head, records = long_game("x", seats, 12)
    write_records(GameStore(), "oldstart0001", replace(head, start_known=False), records)
    assert "start" not in known(GameStore().get_head("oldstart0001"))
    assert api.get("oldstart0001").body["start_fen"] == "W:WKc1,Ke1:BKb8,Kd8"


def test_a_long_chess_game_pages_back_to_the_first_move_across_other_events(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    head, records = long_game("x", seats, 130, game="chess")
    write_records(GameStore(), "chesspages01", head, records)
    offer = api.call("POST", "/v1/games/chesspages01/draw", {"action": "offer"}, token=seats["white"])
    assert offer.status == 200  # an event that is not a move, among the latest
    assert _whole_list(api, "chesspages01") == LONG_CHESS.read_text().split()[:130]


def test_a_poller_gets_only_the_moves_after_its_ply(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["e4", "e5", "Nf3", "Nc6"])
    after = api.get(game_id, query={"moves_after": 2}).body
    assert after["moves"] == ["Nf3", "Nc6"] and after["moves_from"] == 2 and after["earlier"] is None
    current = api.get(game_id, query={"moves_after": 4}).body
    assert current["moves"] == [] and current["moves_from"] == 4 and current["ply"] == 4


def test_a_poller_far_behind_gets_the_latest_page_and_where_the_gap_starts(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    write_long_game(GameStore(), "poller000160", seats, 160)
    near = api.get("poller000160", query={"moves_after": 150}).body
    assert near["moves"] == _long_moves(160)[150:] and near["moves_from"] == 150 and near["earlier"] is None
    far = api.get("poller000160", query={"moves_after": 20}).body
    assert far["moves"] == _long_moves(160)[-MOVES_PAGE:] and far["moves_from"] == 160 - MOVES_PAGE
    older = api.call("GET", "/v1/games/poller000160/moves", query={"before": far["earlier"], "limit": 200}).body
    assert older["moves"] == _long_moves(160)[: 160 - MOVES_PAGE] and older["moves_from"] == 0
    assert older["earlier"] is None


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/v1/games/{id}", {"moves_after": "-1"}),
        ("/v1/games/{id}", {"moves_after": "1.5"}),
        ("/v1/games/{id}", {"moves_after": "abc"}),
        ("/v1/games/{id}", {"moves_after": "100001"}),
        ("/v1/games/{id}/moves", {"positions": "maybe"}),
        ("/v1/games/{id}/moves", {"before": "1"}),
        ("/v1/games/{id}/moves", {"before": "1000000"}),
        ("/v1/games/{id}/moves", {"before": "5", "limit": "0"}),
        ("/v1/games/{id}/moves", {"before": "5", "limit": "201"}),
        ("/v1/games/{id}/moves", {"before": "true"}),
    ],
)
def test_bad_paging_parameters_are_a_422_and_change_nothing(api, path, query):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["e4"])
    before = GameStore().load(game_id)
    answer = api.call("GET", path.format(id=game_id), query=query)
    assert answer.status == 422 and answer.code == "invalid_request", answer.body
    assert set(answer.body["error"]) >= {"code", "message"}
    assert GameStore().load(game_id) == before


def test_pages_of_a_game_that_does_not_exist_are_a_404(api):
    answer = api.call("GET", "/v1/games/nosuchgame00/moves", query={"before": "5"})
    assert answer.status == 404 and answer.code == "game_not_found"
