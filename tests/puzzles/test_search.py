"""The searcher (shared_rules.search): finds forced wins, never plays an illegal move, prunes without
changing the answer, and does exactly the same work for the same node budget."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.draughts.engine import State
from shared_rules.search import WIN_SCORE, NodeLimitReached, Searcher, model_for
from shared_rules.search.core import INFINITY
from tests.checks import draughts_game, draughts_model, known


def forced_win_within(position, plies: int) -> bool:
    """Oracle on the public rules API: the side to move can force a won game within ``plies`` plies."""
    me = position.turn
    for move in position.legal_moves():
        after = position.play(move)
        status = after.status()
        if status.is_over:
            if status.result == me:
                return True
            continue
        if plies >= 3 and all(
            (reply_after := after.play(reply)).status().result == me
            or (not reply_after.status().is_over and forced_win_within(reply_after, plies - 2))
            for reply in after.legal_moves()
        ):
            return True
    return False


def quickest_win(position, limit: int) -> int | None:
    for plies in range(1, limit + 1, 2):
        if forced_win_within(position, plies):
            return plies
    return None


# Hand-made positions, each with the one move that wins fastest and why.
FORCED_WINS = [
    # Black's last man on 20 can only go to 24 or jump to 27; both are shut while White keeps 24 and
    # 27, so the spare tempo 29-25 leaves Black without a move. 27-23 or 24-19 would free it.
    ("english", "W:W24,27,29:B20", "29-25", 1),
    # The two-for-one: 18-15 forces 11x18, and 23x14x5 takes both black men.
    ("english", "W:W18,23,27:B9,11", "18-15", 3),
    # Three kings against one (the Tanzanian count): e5-d6 makes White's king take d6 and c3 and land
    # on a1, f6-h8 then shuts it in on the long diagonal, and whatever it does, h8 takes it.
    ("tanzanian", "B:WKb8:BKc3,Ke5,Kf6", "e5-d6", 5),
]


@pytest.mark.parametrize(("game", "fen", "best", "plies"), FORCED_WINS)
def test_finds_the_quickest_forced_win(game, fen, best, plies):
    position = draughts_game(game).from_fen(fen)
    assert quickest_win(position, plies) == plies  # the oracle agrees the position is as described
    result = Searcher(model_for(game)).search(position.state, node_limit=200_000)
    assert position.notation(known(result.move)) == best
    assert result.is_win and result.score == WIN_SCORE - plies
    # The expected line ends the game with the solver's win.
    for move in result.pv:
        position = position.play(move)
    assert position.status().result == ("white" if fen.startswith("W") else "black")


def test_the_loser_sees_the_loss_and_still_moves():
    position = draughts_game("english").from_fen("B:W24,27,25:B20")  # after 29-25: Black cannot move at all
    assert position.status().reason == "no_moves"
    result = Searcher(model_for("english")).search(position.state, node_limit=100)
    assert result.move is None and result.is_loss
    position = draughts_game("english").from_fen("B:W18,23,27:B9,11")  # Black to move here is not lost yet
    result = Searcher(model_for("english")).search(position.state, node_limit=5_000)
    assert result.move in position.legal_moves()


def test_a_lone_king_against_three_is_level_unless_caught():
    model = draughts_model("tanzanian")
    far = draughts_game("tanzanian").from_fen("W:WKa1:BKc7,Kf8,Kh6").state  # White holds the long diagonal
    assert model.evaluate(far) == 0 and model.drawn_ending(far)
    result = Searcher(model).search(far, max_depth=4, node_limit=20_000)
    assert not result.is_win and not result.is_loss


# ----------------------------------------------------------------- random positions


def random_state(game: str, seed: int, plies: int | None = None) -> State:
    """A position reached by random legal moves from the start (never a finished game)."""
    rng = random.Random(seed)
    model = draughts_model(game)
    state = model.engine.start_state()
    for _ in range(rng.randint(0, 60) if plies is None else plies):
        moves = model.moves(state)
        after = model.play(state, rng.choice(moves))
        if not model.moves(after):
            break
        state = after
    return state


def plain_value(model, state, depth, ply=0):
    """Minimax without pruning or table, with the searcher's rules for extensions and quiescence."""
    if depth <= 0:
        return plain_quiescence(model, state, ply)
    moves = model.moves(state)
    if not moves:
        return -WIN_SCORE + ply
    child_depth = depth if model.forced(state, moves) or len(moves) == 1 else depth - 1
    return max(-plain_value(model, model.play(state, move), child_depth, ply + 1) for move in moves)


def plain_quiescence(model, state, ply):
    moves, forced = model.quiescence_moves(state)
    if forced and not moves:
        return -WIN_SCORE + ply
    best = -INFINITY if forced else model.evaluate(state, moves)
    for move in moves:
        best = max(best, -plain_quiescence(model, model.play(state, move), ply + 1))
    return best


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(["english", "tanzanian"]), depth=st.integers(1, 2))
def test_alpha_beta_gives_the_minimax_value(seed, game, depth):
    model = model_for(game)
    state = random_state(game, seed)
    searcher = Searcher(model, table_limit=0)
    assert searcher.value(state, depth, node_limit=10**7) == plain_value(model, state, depth)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(["english", "tanzanian"]), nodes=st.integers(1, 3_000))
def test_always_a_legal_move_whatever_the_budget(seed, game, nodes):
    state = random_state(game, seed)
    rules = draughts_game(game)
    from shared_rules.draughts.notation import write_fen

    position = rules.from_fen(write_fen(rules.squares, state))
    result = Searcher(model_for(game)).search(state, node_limit=nodes)
    assert result.move in position.legal_moves()
    assert result.nodes <= nodes


def test_the_node_limit_makes_results_reproducible():
    state = random_state("english", 7, plies=12)
    first = Searcher(model_for("english")).search(state, node_limit=2_000)
    second = Searcher(model_for("english")).search(state, node_limit=2_000)
    assert (first.move, first.score, first.depth, first.nodes, first.pv) == (
        second.move,
        second.score,
        second.depth,
        second.nodes,
        second.pv,
    )
    assert first.nodes == 2_000 and not first.complete  # the budget, not the clock, stopped it
    deeper = Searcher(model_for("english")).search(state, node_limit=20_000)
    assert deeper.depth > first.depth


def test_value_raises_when_the_budget_runs_out():
    state = random_state("tanzanian", 3, plies=10)
    with pytest.raises(NodeLimitReached):
        Searcher(model_for("tanzanian")).value(state, 8, node_limit=500)


def test_without_mandatory_capture_quiet_moves_stay_legal():
    rules = draughts_game("english", {"mandatory_capture": False})
    position = rules.from_fen("W:W18,23,27:B9,15")  # White may take 18x11 or play on
    model = model_for("english", mandatory_capture=False)
    moves = model.moves(position.state)
    assert set(moves) == set(position.legal_moves())
    assert any(move.captured for move in moves) and any(not move.captured for move in moves)
    result = Searcher(model).search(position.state, node_limit=3_000)
    assert result.move in moves


def _mirror(model, state: State) -> State:
    """The same position with the colours swapped and the board turned round."""
    engine = model.engine
    size = model.variant.size

    def turn_round(mask: int) -> int:
        out = 0
        for index, (row, file) in engine.coords.items():
            if mask >> index & 1:
                out |= 1 << engine.index_of[(size - 1 - row, size - 1 - file)]
        return out

    return State(turn_round(state.black), turn_round(state.white), turn_round(state.kings), 1 - state.turn)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(["english", "tanzanian"]))
def test_the_evaluation_does_not_care_which_colour_is_which(seed, game):
    model = model_for(game)
    state = random_state(game, seed)
    assert model.evaluate(state) == model.evaluate(_mirror(model, state))
