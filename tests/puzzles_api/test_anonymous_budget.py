"""Anonymous attempts are no oracle: each address gets, per puzzle, one request for each of the solver's
moves and two wrong probes, then one every 10 minutes. A solver with a token is not held by it, so the loop
a visitor plays move by move (the site makes a player on the first move) keeps working."""

from __future__ import annotations

from puzzles_api.domain import ANONYMOUS_PROBES, ANONYMOUS_REFILL_SECONDS, anonymous_budget

from puzzles.catalog import load
from tests.games.client import snapshot

PUZZLE = "chess-000Zo"  # 4r3/1k6/... b: Re1+ Kf2 Rf1#: two solver moves
WRONG_FIRST_MOVES = ["Re2", "Re3", "Re4", "Re5", "Re6"]


def test_an_address_cannot_try_every_move_without_a_player(api, clock):
    budget = int(anonymous_budget(next(p for p in load("chess") if p.id == PUZZLE)).capacity)
    assert budget == 2 + ANONYMOUS_PROBES
    answers = [api.attempt(PUZZLE, [move]) for move in WRONG_FIRST_MOVES]
    assert [answer.status for answer in answers] == [200] * budget + [429] * (len(WRONG_FIRST_MOVES) - budget)
    assert all(answer.body["result"] == "failed" and answer.body.get("solution") is None for answer in answers[:budget])
    refused = answers[budget]
    assert refused.code == "rate_limited" and "reply" not in refused.body and int(refused.headers["retry-after"]) >= 1
    before = snapshot()
    assert api.attempt(PUZZLE, ["Re1+"]).status == 429  # the right move too: the answer would be the oracle
    assert snapshot() == before
    clock.advance(seconds=ANONYMOUS_REFILL_SECONDS)
    assert api.attempt(PUZZLE, ["Re1+"]).body["result"] == "continue"  # one more, ten minutes later


def test_a_visitor_solving_move_by_move_is_never_held_up(api):
    first = api.attempt(PUZZLE, ["Re1+"]).body
    assert (first["result"], first["reply"]) == ("continue", "Kf2")
    assert api.attempt(PUZZLE, ["Re1+", "Rf1#"]).body["result"] == "solved"
    token = api.new_player()
    for _ in range(10):  # a player's attempts are not counted per puzzle
        assert api.attempt(PUZZLE, ["Re2"], token).status == 200
