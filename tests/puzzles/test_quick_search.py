"""The verifier's quick path (``puzzles.quick_search``) searches the same tree as the plain one: at every
solver step of a seeded sample of each set, every legal move gets the same score at every depth, with
the table kept across moves and depths as the verifier keeps it, and both spend the same nodes.

The sample here is small (depth 6); ``UBAO_DEEP_PUZZLES=1`` runs 15 a set to depth 8.
"""

from __future__ import annotations

import os
import random

import pytest

from puzzles import verify
from puzzles.judge import Judge
from puzzles.quick_search import QuickModel
from puzzles.settings import draughts_rules
from shared_rules.draughts.engine import State
from shared_rules.search.core import INFINITY

DEEP = bool(os.environ.get("UBAO_DEEP_PUZZLES"))
PER_SET, DEPTH = (15, 8) if DEEP else (4, 6)
SETS = {game: verify.read_jsonl(verify.HERE / f"{game}.jsonl") for game in verify.DRAUGHTS}


def sample(game: str) -> list[dict]:
    depth_judged = [puzzle for puzzle in SETS[game] if verify.kind_of(puzzle) != "countdown"]
    return random.Random(f"quick:{game}").sample(depth_judged, PER_SET)


def mask(squares: list[int]) -> int:
    return sum(1 << square for square in squares)


def scores_by_depth(judge: Judge, puzzle: dict) -> tuple[list[list[int]], int]:
    """Every solver step's every move, its score at depths 2 to ``DEPTH``; and the nodes it took."""
    searcher = judge.searcher
    searcher.clear()
    searcher.nodes = 0
    position = draughts_rules(judge.game).from_fen(puzzle["fen"])
    scores = []
    for index, text in enumerate(puzzle["solution"]):
        move = position.parse_move(text)
        if index % 2 == 0:
            for other in judge.model.moves(position.state):
                child = judge.engine.play(position.state, other)
                full = searcher.values_by_depth(child, DEPTH - 1, lambda _: (-INFINITY, INFINITY), node_limit=10**9)
                scores.append(full)
        position = position.play(move)
    return scores, searcher.nodes


@pytest.mark.parametrize("game", verify.DRAUGHTS)
def test_the_quick_path_searches_the_same_tree(game):
    plain = Judge(game, depth=DEPTH, node_limit=10**9)
    quick = Judge(game, depth=DEPTH, node_limit=10**9, quick=True)
    assert isinstance(quick.model, QuickModel) and not isinstance(plain.model, QuickModel)
    for puzzle in sample(game):
        assert scores_by_depth(quick, puzzle) == scores_by_depth(plain, puzzle), puzzle["id"]


@pytest.mark.parametrize("game", verify.DRAUGHTS)
def test_no_capture_is_said_only_where_the_engine_finds_none(game):
    """Random positions with men and kings of both sides, either to move: wherever the quick test
    says "no capture", the engine's own capture search agrees, and the moves are the engine's."""
    model = Judge(game, depth=1, node_limit=1, quick=True).model
    assert isinstance(model, QuickModel)
    engine = model.engine
    rng = random.Random(f"no-capture:{game}")
    squares = sorted(engine.coords)
    said_none = 0
    for _ in range(3_000):
        placed = rng.sample(squares, rng.randint(2, 12))
        white, black = placed[::2], placed[1::2]
        kings = [square for square in placed if rng.random() < 0.3]
        state = State(mask(white), mask(black), mask(kings), rng.randint(0, 1))
        if model.no_capture(state):
            said_none += 1
            assert engine.captures(state) == [], state
        assert model.moves(state) == engine.legal_moves(state), state
        assert model.quiescence_moves(state)[0] == engine.captures(state), state
    assert said_none > 300  # the quick answer is given often enough to matter
