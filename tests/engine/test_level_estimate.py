"""Reading a player's level from their moves (what ``cpu-takeover`` plays at): the loss of a move against a
short search, and the level whose moves lose about as much."""

from __future__ import annotations

from functools import lru_cache

import pytest

from shared_rules import get_game
from shared_rules.search.core import NodeLimitReached, Searcher
from shared_rules.search.ladder import openings
from shared_rules.search.levels import choose_move, estimate_level, model_of, move_loss, search_state


def worst_move(position):
    """The move that a capture-by-capture look scores lowest: a player who gives material away."""
    model = model_of(position.game)
    state = search_state(position)
    searcher = Searcher(model, table_limit=0)

    def opponents_gain(move) -> int:
        child = model.play(state, move)
        try:
            return searcher.value(child, 0, node_limit=300)
        except NodeLimitReached:
            return model.evaluate(child)

    return max(position.legal_moves(), key=opponents_gain)


@lru_cache(maxsize=8)
def middlegames(game_name: str, count: int) -> tuple:
    """``count`` positions 8 or more plies in: balanced openings played on by level 2 (seeded)."""
    game = get_game(game_name)
    positions = []
    for index, position in enumerate(openings(game, count, seed=11)):
        for ply in range(4 + index):
            if position.status().is_over:
                break
            position = position.play(choose_move(game, position, 2, seed=ply).move)
        if not position.status().is_over:
            positions.append(position)
    return tuple(positions)


def moves_of(game, player, count: int) -> list[tuple]:
    """(position, move) pairs of ``player`` in the middlegames."""
    return [(position, player(position, index)) for index, position in enumerate(middlegames(game.name, count))]


def test_the_best_move_loses_nothing_and_a_hung_queen_loses_the_most():
    game = get_game("chess")
    position = game.from_fen("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1")  # the queen is attacked by the pawn
    assert move_loss(game, position, position.parse_move("Qxe5+")) == 0
    assert move_loss(game, position, position.parse_move("Kf1")) == 300  # capped: a blunder is a blunder


@pytest.mark.parametrize("game_name", ["chess", "english", "tanzanian"])
def test_strong_moves_read_high_and_giving_material_away_reads_level_one(game_name):
    game = get_game(game_name)
    count = 10 if game_name == "chess" else 16  # the moves the estimate scores
    strong = moves_of(game, lambda position, seed: choose_move(game, position, 5, seed=seed).move, count)
    assert estimate_level(game, strong) >= 4
    weak = moves_of(game, lambda position, seed: worst_move(position), count)
    assert estimate_level(game, weak) == 1


def test_no_choice_made_reads_as_the_middle_level():
    game = get_game("english")
    assert estimate_level(game, []) == 3
    capture = game.from_fen("W:W18:B14,1")  # White's only move is the capture 18x9
    assert len(capture.legal_moves()) == 1
    assert estimate_level(game, [(capture, capture.legal_moves()[0])] * 20) == 3
