"""The games service on the in-memory repository: the fast tier (no AWS, no moto), the same protocol the
contract suite proves the DynamoDB repository keeps."""

from __future__ import annotations

import pytest
from common.players.service import hash_token
from games.domain import MAX_PLIES
from games.domain.errors import Conflict, Forbidden, IllegalMove
from games.repository import in_memory_games
from games.repository.codec import head_from
from games.service import GamesService

from tests.clocks import ManualClock
from tests.games.long_game import SHUFFLE, write_long_game
from tests.unit.seats import TOKENS, started


def test_a_game_is_played_and_the_log_folds_to_the_stored_head(service, store):
    game_id = started(service)
    for ply, move in enumerate(["e4", "e5", "Nf3"]):
        color = "white" if ply % 2 == 0 else "black"
        head = service.move(hash_token(TOKENS[color]), game_id, move, ply).head
    assert head.ply == 3 and head.turn == "black" and head.last_moves[-1].move == "Nf3"
    assert head_from(store.get_head(game_id)) == head
    assert [event["kind"] for event in store.events_after(game_id, 0)] == ["create", "join", "move", "move", "move"]


def test_refusals_write_nothing(service, store):
    game_id = started(service)
    before = (dict(store.heads), {key: dict(value) for key, value in store.events.items()})
    with pytest.raises(Forbidden):
        service.move(hash_token(TOKENS["black"]), game_id, "e5", 0)  # not black's turn
    with pytest.raises(IllegalMove) as refused:
        service.move(hash_token(TOKENS["white"]), game_id, "e5", 0)
    assert "e4" in refused.value.legal_moves
    with pytest.raises(Conflict):
        service.move(hash_token(TOKENS["white"]), game_id, "e4", 3)  # a ply the game has not reached
    assert (dict(store.heads), {key: dict(value) for key, value in store.events.items()}) == before


def test_a_retried_move_is_recognised_in_any_spelling(service):
    game_id = started(service)
    white = hash_token(TOKENS["white"])
    first = service.move(white, game_id, "e4", 0).head
    assert service.move(white, game_id, "e2e4", 0).head == first
    assert service.move(white, game_id, "e4", 0).head.seq == first.seq


def test_a_move_costs_the_same_store_calls_at_ply_10_and_3000(store, service):
    calls = {}
    for plies in (10, 3_000):
        game_id = f"long{plies:08d}"
        write_long_game(store, game_id, TOKENS, plies)
        turn = "white" if plies % 2 == 0 else "black"
        store.calls = 0
        head = service.move(hash_token(TOKENS[turn]), game_id, SHUFFLE[plies % 4], plies).head
        calls[plies] = store.calls
        assert head.ply == plies + 1
    assert calls[10] == calls[3_000] == 3  # read the head, append the event, store the head


def test_new_games_end_at_the_maximum_length(store):
    service = GamesService(in_memory_games(store), clock=ManualClock(), max_plies=4)
    game_id = started(service, "tanzanian")
    head = service.move(hash_token(TOKENS["white"]), game_id, "c3-d4", 0).head
    assert head.max_plies == 4 and MAX_PLIES == 1_000
    moves = ["f6-e5", "d4xf6", "g7xe5"]
    for ply, move in enumerate(moves, start=1):
        color = "white" if ply % 2 == 0 else "black"
        head = service.move(hash_token(TOKENS[color]), game_id, move, ply).head
    assert head.state == "finished" and (head.result, head.reason) == ("draw", "move_limit")
