"""The computer's search stops on a time budget as well as a node budget: no level takes more than
twice its time budget in any position. No timed test: the clock is a fake one that moves as the search reads it
(the searcher reads it every ``CLOCK_EVERY`` nodes, so it advances with the nodes searched)."""

from __future__ import annotations

import pytest

from shared_rules import get_game
from shared_rules.search import Searcher, TimeLimitReached, model_for
from shared_rules.search.core import CLOCK_EVERY
from shared_rules.search.draughts import DraughtsModel
from shared_rules.search.levels import LEVELS, choose_move, level_settings
from tests.checks import draughts_game
from tests.engine.worst_positions import FLYING_KINGS, WORST_POSITIONS

#: What the fake clock adds per reading: CLOCK_EVERY nodes at 100 microseconds each, slower than any node here.
TICK = CLOCK_EVERY * 100e-6


class NodeClock:
    """A clock that moves ``tick`` seconds each time it is read, and counts the readings."""

    def __init__(self, tick: float = TICK):
        self.now = 1_000.0
        self.tick = tick
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.tick
        return self.now


class FrozenClock(NodeClock):
    def __init__(self):
        super().__init__(tick=0.0)


def test_level_3_in_the_flying_kings_position_stops_on_its_time_budget():
    game = get_game("tanzanian")
    position = game.from_fen(FLYING_KINGS)
    budget = level_settings("tanzanian", 3).seconds
    unbounded = choose_move(game, position, 3, seed=1, clock=FrozenClock())
    clock = NodeClock()
    start = clock.now
    bounded = choose_move(game, position, 3, seed=1, clock=clock)
    assert unbounded.nodes >= 30_000  # what made it take a second: 22 moves x 1,500 nodes
    assert bounded.move in position.legal_moves()
    assert clock.now - start <= budget + 2 * TICK  # the reading that set the deadline, the first one past it
    # The nodes that fit the budget at the fake clock's pace, with one reading per root move besides.
    assert bounded.nodes <= (budget / TICK + 1) * CLOCK_EVERY
    assert bounded.nodes < unbounded.nodes / 4


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "fen"), [(name, fen) for name, fens in WORST_POSITIONS.items() for fen in fens])
def test_every_level_stays_within_twice_its_budget_on_the_worst_positions(name, fen, level):
    game = get_game(name)
    position = game.from_fen(fen)
    clock = NodeClock()
    start = clock.now
    choice = choose_move(game, position, level, seed=3, clock=clock)
    budget = level_settings(name, level).seconds
    assert choice.move in position.legal_moves()
    assert clock.now - start <= 2 * budget
    assert choice.nodes * TICK / CLOCK_EVERY <= 2 * budget  # the nodes searched, at 100 microseconds each


def test_in_ordinary_positions_the_node_budget_decides_and_the_move_is_the_same():
    """The deadline is a safety net: where the nodes fit the budget, the move, score and nodes do not depend on
    the clock (a retried request computes the same reply)."""
    for name in ("chess", "english", "tanzanian"):
        game = get_game(name)
        position = game.start()
        for level in LEVELS:
            frozen = choose_move(game, position, level, seed=5, clock=FrozenClock())
            # A clock at a realistic pace: 64 nodes in 2 ms, far inside every level's time budget.
            paced = choose_move(game, position, level, seed=5, clock=NodeClock(tick=0.002 * CLOCK_EVERY / 64))
            assert (paced.notation, paced.score, paced.nodes) == (frozen.notation, frozen.score, frozen.nodes)


def test_the_searcher_raises_time_limit_reached_past_its_deadline_and_reads_the_clock_sparingly():
    model = model_for("tanzanian")
    state = draughts_game("tanzanian").from_fen(FLYING_KINGS).state
    clock = NodeClock()
    searcher = Searcher(model, clock=clock)
    with pytest.raises(TimeLimitReached):
        searcher.value(state, 6, node_limit=10_000_000, deadline=clock.now + 10 * TICK)
    assert clock.readings <= 12 and searcher.nodes <= 11 * CLOCK_EVERY
    # The full search returns its last complete iteration instead.
    clock = NodeClock()
    result = Searcher(model, clock=clock).search(state, node_limit=10_000_000, deadline=clock.now + 40 * TICK)
    assert result.move is not None and not result.complete


def test_a_deadline_without_a_clock_is_a_mistake():
    model = model_for("english")
    assert isinstance(model, DraughtsModel)
    with pytest.raises(ValueError):
        Searcher(model).search(model.engine.start_state(), deadline=1.0)
