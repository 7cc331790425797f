"""Whole games through the API, to each way a game can end. Every move is a separate request, so the head
rebuilds the position from its anchor each time, as it does on Lambda."""

from __future__ import annotations

import pytest


def finish(api, game_id, seats, state, result, reason, export_result):
    assert state["status"] == {"result": result, "reason": reason}, state
    assert state["state"] == "finished" and state["legal_moves"] == [] and state["deadline"] is None
    detail = api.get(game_id).body
    assert {
        key: value for key, value in detail.items() if key not in ("moves", "moves_from", "earlier", "start_fen")
    } == state
    export = api.call("GET", f"/v1/games/{game_id}/export").text
    assert f'[Result "{export_result}"]' in export and export.rstrip().endswith(export_result)
    after = api.move(
        seats[state["turn"]], game_id, detail["legal_moves"][0] if detail["legal_moves"] else "a3", state["ply"]
    )
    assert after.status == 409 and after.code == "game_over"
    return detail


def test_checkmate(api):
    game_id, seats = api.start_game("chess")
    state = api.play(game_id, seats, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"])
    detail = finish(api, game_id, seats, state, "white", "checkmate", "1-0")
    assert detail["moves"][-1] == "Qxf7#" and detail["last_move"] == "Qxf7#"


@pytest.mark.parametrize(
    ("game", "start", "moves", "result", "reason", "export_result"),
    [
        ("chess", {}, ["Nf3", "Nf6", "Ng1", "Ng8"] * 2, "draw", "threefold_repetition", "1/2-1/2"),
        ("chess", {"fen": "k7/8/1Q6/8/8/8/8/7K w - - 0 1"}, ["Kg2"], "draw", "stalemate", "1/2-1/2"),
        ("english", {"fen": "B:W6,13:B2"}, ["2x9", "13x6"], "white", "no_pieces", "2-0"),
        ("english", {"fen": "W:W8,15:B4"}, ["15-11"], "white", "no_moves", "2-0"),
        (
            "english",
            {"options": {"move_limit": 6}},
            ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"],
            "draw",
            "move_limit",
            "1-1",
        ),
    ],
    ids=["threefold_repetition", "stalemate", "english_all_captured", "english_no_move_left", "english_move_limit"],
)
def test_a_game_played_across_requests_to_its_end(api, game, start, moves, result, reason, export_result):
    game_id, seats = api.start_game(game, **start)
    state = api.play(game_id, seats, moves)
    finish(api, game_id, seats, state, result, reason, export_result)


def test_tanzanian_countdown_draw(api):
    # Three kings against one: the three-king side has twelve moves to take the lone king, and does not.
    game_id, seats = api.start_game("tanzanian", fen="W:WKa1,Kc1,Ke1:BKd8")
    line = [
        "c1-e3",
        "d8-e7",
        "a1-e5",
        "e7-a3",
        "e3-g1",
        "a3-f8",
        "g1-e3",
        "f8-e7",
        "e1-h4",
        "e7-d8",
        "e3-g5",
        "d8-a5",
        "h4-g3",
        "a5-b4",
        "g3-e1",
        "b4-f8",
        "e5-d4",
        "f8-a3",
        "g5-f4",
        "a3-f8",
        "d4-a7",
        "f8-h6",
    ]
    state = api.play(game_id, seats, line)
    assert state["state"] == "active"  # eleven moves of the three kings: not yet
    state = api.play(game_id, seats, ["a7-d4"])
    finish(api, game_id, seats, state, "draw", "three_kings_countdown", "1-1")


def test_tanzanian_from_the_start_to_a_capture(api):
    game_id, seats = api.start_game("tanzanian")
    state = api.play(game_id, seats, ["c3-d4", "f6-e5", "d4xf6", "g7xe5"])
    assert state["ply"] == 4 and state["turn"] == "white" and state["state"] == "active"


def test_resignation(api):
    game_id, seats = api.start_game("tanzanian")
    api.play(game_id, seats, ["c3-d4"])
    state = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"]).body
    finish(api, game_id, seats, state, "black", "resignation", "0-2")


def test_agreed_draw(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["d4", "d5"])
    api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["black"])
    state = api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=seats["white"]).body
    finish(api, game_id, seats, state, "draw", "agreement", "1/2-1/2")


@pytest.mark.parametrize(
    ("game", "opening", "result", "pgn"),
    [
        ("chess", ["e4"], "white", "1-0"),
        ("english", ["11-15"], "black", "0-2"),
    ],
)
def test_timeout_claim(api, clock, game, opening, result, pgn):
    game_id, seats = api.start_game(game)
    state = api.play(game_id, seats, opening)
    mover = state["turn"]
    claimant = "white" if mover == "black" else "black"
    clock.advance(days=3, seconds=1)
    state = api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats[claimant]).body
    assert result == claimant
    finish(api, game_id, seats, state, claimant, "timeout", pgn)
