"""Positions a page at a time, for a board that steps through a game: ``GET /v1/games/{id}/moves`` with
``positions`` gives the position after each move of the page (and, once the page reaches the start, the one
before the first move), checked against python-chess replaying the same moves; and a declined draw offer stays
known to the offerer until they move or offer again."""

from __future__ import annotations

import chess
from games.repository import GameStore

from tests.games.long_game import KINGS_FEN, LONG_CHESS, long_game, write_long_game, write_records

OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]


def _pages(api, game_id: str, limit: int) -> list[dict]:
    """Every page with positions, newest first: the latest, then ``earlier`` until it is null."""
    path = f"/v1/games/{game_id}/moves"
    pages = [api.call("GET", path, query={"positions": "true", "limit": limit}).body]
    while pages[-1]["earlier"] is not None:
        query = {"positions": "true", "limit": limit, "before": pages[-1]["earlier"]}
        pages.append(api.call("GET", path, query=query).body)
    return pages


def test_each_page_carries_the_position_after_each_of_its_moves(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, OPENING)
    pages = _pages(api, game_id, limit=4)
    assert len(pages) > 2  # the positions came a page at a time
    board, expected = chess.Board(), []
    for san in OPENING:
        board.push_san(san)
        expected.append(board.fen())
    moves: list[str] = []
    fens: list[str] = []
    for page in reversed(pages):
        assert page["moves_from"] == len(moves) and len(page["fens"]) == len(page["moves"])
        moves += page["moves"]
        fens += page["fens"]
    assert moves == OPENING and fens == expected
    assert pages[-1]["start_fen"] == chess.STARTING_FEN
    assert all(page["start_fen"] is None for page in pages[:-1])  # only the page that reaches the start


def test_without_positions_a_page_is_as_before(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, OPENING[:3])
    page = api.call("GET", f"/v1/games/{game_id}/moves", query={"limit": 10}).body
    assert page["moves"] == OPENING[:3] and page["fens"] is None and page["start_fen"] is None


def test_a_set_up_start_is_the_position_before_the_first_move(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    write_long_game(GameStore(), "setupstart01", seats, 6)
    page = api.call("GET", "/v1/games/setupstart01/moves", query={"positions": "true"}).body
    assert page["start_fen"] == KINGS_FEN and page["moves_from"] == 0 and len(page["fens"]) == 6


def test_a_late_page_of_a_long_game_costs_what_an_early_one_does(api):
    seats = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
    head, records = long_game("x", seats, 3_000, game="chess")
    write_records(GameStore(), "positions300", head, records)
    page = api.call("GET", "/v1/games/positions300/moves", query={"positions": "true", "limit": 60}).body
    board = chess.Board()
    sans = LONG_CHESS.read_text().split()[:3_000]
    for san in sans[:-1]:
        board.push_san(san)
    assert len(page["moves"]) <= 60 and page["moves"][-1] == sans[-1] and page["earlier"] is not None
    board.push_san(sans[-1])
    assert page["fens"][-1] == board.fen()


def test_a_declined_offer_is_known_to_the_offerer_until_they_move_or_offer_again(api):
    game_id, seats = api.start_game("chess")
    draw = f"/v1/games/{game_id}/draw"
    api.call("POST", draw, {"action": "offer"}, token=seats["white"])
    assert api.get(game_id).body["draw_declined"] is None  # it stands
    api.call("POST", draw, {"action": "decline"}, token=seats["black"])
    assert api.get(game_id).body["draw_declined"] == "white"
    assert api.move(seats["white"], game_id, "e4", 0).body["draw_declined"] is None  # she moved on
    # Declined by a move: Black offers, White answers with a move instead.
    api.call("POST", draw, {"action": "offer"}, token=seats["black"])
    api.move(seats["black"], game_id, "e5", 1)
    state = api.move(seats["white"], game_id, "Nf3", 2).body
    assert state["draw_offer"] is None and state["draw_declined"] == "black"
    api.call("POST", draw, {"action": "offer"}, token=seats["black"])  # a new offer: the old refusal goes
    assert api.get(game_id).body["draw_declined"] is None
