"""The computer playing on for an absent player (cpu-takeover) and the player taking the seat back (resume),
through the API on moto; and the chess squares (UCI) in the game state."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from shared_rules import get_game
from tests.checks import known
from tests.games.client import snapshot


def post(api, game_id: str, action: str, token: str):
    return api.call("POST", f"/v1/games/{game_id}/{action}", token=token)


def assert_refused(answer, status: int, code: str) -> None:
    assert answer.status == status, (answer.status, answer.body)
    assert answer.body["error"]["code"] == code, answer.body


@pytest.fixture
def abandoned(api, clock):
    """A chess game after 1. e4 in which Black (Baraka) has not moved for three days and a second."""
    game_id, seats = api.start_game("chess", options={"days_per_move": 3})
    api.play(game_id, seats, ["e4"])
    clock.advance(days=3, seconds=1)
    return game_id, seats


def test_takeover_is_refused_before_the_deadline_by_the_side_to_move_and_by_a_stranger(api, clock):
    game_id, seats = api.start_game("chess", options={"days_per_move": 3})
    api.play(game_id, seats, ["e4"])
    stranger = api.new_player("Juma")["token"]
    before = snapshot()
    clock.advance(days=3)  # exactly at the deadline: Black is still in time
    assert_refused(post(api, game_id, "cpu-takeover", seats["white"]), 409, "deadline_not_passed")
    clock.advance(seconds=1)
    assert_refused(post(api, game_id, "cpu-takeover", seats["black"]), 409, "your_move")
    assert_refused(post(api, game_id, "cpu-takeover", stranger), 403, "not_a_player")
    assert post(api, game_id, "cpu-takeover", "not a token").status == 401
    assert post(api, game_id, "resume", seats["black"]).status == 200  # the seat is his already: nothing to do
    assert snapshot() == before  # nothing written by any refusal
    assert api.get(game_id).body["cpu_takeover"] is None


def test_takeover_plays_at_once_and_answers_the_present_players_moves(api, abandoned):
    game_id, seats = abandoned
    state = post(api, game_id, "cpu-takeover", seats["white"]).body
    assert state["cpu_takeover"] == {"seat": "black", "level": 3}
    assert state["ply"] == 2 and state["turn"] == "white"  # the computer has already answered 1. e4
    assert state["players"]["black"]["name"] == "Baraka"  # the seat is still Baraka's
    assert state["deadline"] == "2025-06-21T15:06:41Z"  # White's new deadline, from the computer's move
    # A retried takeover changes nothing.
    assert post(api, game_id, "cpu-takeover", seats["white"]).body == state
    answer = api.move(seats["white"], game_id, state["legal_moves"][0], state["ply"])
    assert answer.status == 200 and answer.body["ply"] == 4 and answer.body["turn"] == "white"
    moves = api.get(game_id).body["moves"]
    assert len(moves) == 4 and get_game("chess").replay(moves).fen() == answer.body["fen"]
    # Baraka cannot move while the computer plays his seat; he must resume first.
    assert_refused(api.move(seats["black"], game_id, "a6", 4), 409, "computer_plays_your_seat")
    # And Baraka cannot set the computer on White in turn: the computer never plays itself.
    assert_refused(post(api, game_id, "cpu-takeover", seats["black"]), 409, "computer_plays_your_seat")


def test_resume_gives_the_seat_back_and_the_computer_stops(api, abandoned, clock):
    game_id, seats = abandoned
    state = post(api, game_id, "cpu-takeover", seats["white"]).body
    state = api.move(seats["white"], game_id, state["legal_moves"][0], state["ply"]).body
    stranger = api.new_player("Juma")["token"]
    before = snapshot()
    assert_refused(post(api, game_id, "resume", stranger), 403, "not_a_player")
    assert snapshot() == before
    resumed = post(api, game_id, "resume", seats["black"])
    assert resumed.status == 200 and resumed.body["cpu_takeover"] is None
    assert resumed.body["ply"] == state["ply"] == 4
    assert post(api, game_id, "resume", seats["black"]).body == resumed.body  # a retry writes nothing
    state = api.move(seats["white"], game_id, resumed.body["legal_moves"][0], 4).body
    assert state["ply"] == 5 and state["turn"] == "black"  # the computer no longer answers
    assert api.get(game_id).body["ply"] == 5
    reply = api.move(seats["black"], game_id, state["legal_moves"][0], 5)
    assert reply.status == 200 and reply.body["ply"] == 6


def test_export_tells_the_takeover_and_the_resume(api, abandoned):
    game_id, seats = abandoned
    state = post(api, game_id, "cpu-takeover", seats["white"]).body
    state = api.move(seats["white"], game_id, state["legal_moves"][0], state["ply"]).body
    post(api, game_id, "resume", seats["black"])
    moves = api.get(game_id).body["moves"]
    text = api.call("GET", f"/v1/games/{game_id}/export").text
    taken = "{Black (Baraka) ran out of time; the computer (level 3) plays on for black.}"
    back = "{Black (Baraka) is back and plays on.}"
    movetext = " ".join(text.split("\n\n", 1)[1].split())
    assert movetext == f"1. e4 {taken} 1... {moves[1]} 2. {moves[2]} {moves[3]} {back} *"
    # A PGN reader takes the comments and still gets every move.
    game = known(chess.pgn.read_game(io.StringIO(text)))
    assert [node.san() for node in game.mainline()] == moves


def test_a_rematch_does_not_keep_the_takeover(api, abandoned):
    game_id, seats = abandoned
    post(api, game_id, "cpu-takeover", seats["white"])
    post(api, game_id, "resign", seats["white"])
    post(api, game_id, "rematch", seats["white"])  # an offer; Black's own offer accepts it
    rematch = post(api, game_id, "rematch", seats["black"]).body["game"]
    assert rematch["cpu_takeover"] is None
    assert {seat["name"] for seat in rematch["players"].values()} == {"Asha", "Baraka"}
    assert all("cpu_level" not in seat for seat in rematch["players"].values())


def test_draughts_takeover_moves_for_the_side_to_move(api, clock):
    game_id, seats = api.start_game("english", options={"days_per_move": 1}, creator_color="white")
    clock.advance(days=1, seconds=1)  # Black starts English draughts and has not moved
    state = post(api, game_id, "cpu-takeover", seats["white"]).body
    assert state["cpu_takeover"] == {"seat": "black", "level": 3} and state["ply"] == 1
    assert state["legal_moves_uci"] is None and state["last_move_uci"] is None
    text = " ".join(api.call("GET", f"/v1/games/{game_id}/export").text.split())
    assert "{Black (Baraka) ran out of time; the computer (level 3) plays on for black.} 1. " in text


def test_chess_state_names_the_squares_in_uci(api):
    game_id, seats = api.start_game("chess")
    state = api.get(game_id).body
    assert state["last_move_uci"] is None
    assert sorted(state["legal_moves_uci"]) == sorted(move.uci() for move in chess.Board().legal_moves)
    state = api.play(game_id, seats, ["e4", "e5", "Nf3"])
    board = chess.Board()
    for san in ["e4", "e5", "Nf3"]:
        board.push_san(san)
    assert state["last_move_uci"] == "g1f3"
    # The same moves in the same order as legal_moves, in the other notation.
    assert [board.san(chess.Move.from_uci(uci)) for uci in state["legal_moves_uci"]] == state["legal_moves"]
    # After a capture (the anchor moves) and a promotion, read back from the store.
    game_id, seats = api.start_game("chess", fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    state = api.play(game_id, seats, ["b8=Q+"])
    assert api.get(game_id).body["last_move_uci"] == state["last_move_uci"] == "b7b8q"
    finished = api.play(game_id, seats, ["Kd7", "Qb7+", "Kd6", "Qb6+"])
    assert finished["last_move_uci"] == "b7b6"


def test_the_computer_stands_in_at_about_the_absent_players_level(api, clock):
    """Black gives material away move after move, then leaves: the computer plays on for him at level 1."""
    from tests.engine.test_level_estimate import worst_move

    game_id, seats = api.start_game("chess", options={"days_per_move": 2})
    game = get_game("chess")
    position = game.start()
    for ply in range(16):
        move = worst_move(position) if position.turn == "black" else position.legal_moves()[ply % 3]
        if position.play(move).status().is_over:
            break
        api.play(game_id, seats, [position.notation(move)])
        position = position.play(move)
    if position.turn == "white":  # Black is to move when he leaves
        api.play(game_id, seats, [position.notation(position.legal_moves()[0])])
    clock.advance(days=2, seconds=1)
    answer = post(api, game_id, "cpu-takeover", seats["white"])
    assert answer.status == 200, answer.body
    assert answer.body["cpu_takeover"] == {"seat": "black", "level": 1}
    text = " ".join(api.call("GET", f"/v1/games/{game_id}/export").text.split())
    assert "the computer (level 1) plays on for black." in text
