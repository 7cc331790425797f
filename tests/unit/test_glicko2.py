"""Glicko-2 against the worked example of Glickman's paper, and the properties any rating update must have."""

from __future__ import annotations

import math

import pytest
from common.ratings import glicko2
from common.ratings.glicko2 import Rating, expected_score, update
from hypothesis import given, settings
from hypothesis import strategies as st

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_worked_example_of_the_paper():
    after = update(PLAYER, OPPONENTS, tau=0.5)
    # The paper prints 1464.06, 151.52 and 0.05999 (it rounds its intermediate values to four places).
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_intermediate_values_of_the_paper():
    mu, phi = (PLAYER.rating - 1500) / glicko2.SCALE, PLAYER.rd / glicko2.SCALE
    assert (mu, round(phi, 4)) == (0, 1.1513)
    games = [((o.rating - 1500) / glicko2.SCALE, o.rd / glicko2.SCALE, s) for o, s in OPPONENTS]
    g = [glicko2._g(phi_j) for _, phi_j, _ in games]
    e = [glicko2._expected(mu, mu_j, phi_j) for mu_j, phi_j, _ in games]
    assert [round(x, 4) for x in g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in e] == [0.639, 0.432, 0.303]
    v = 1 / sum(gj**2 * ej * (1 - ej) for gj, ej in zip(g, e))
    delta = v * sum(gj * (s - ej) for gj, ej, (_, _, s) in zip(g, e, games))
    # The paper's v and delta come from its rounded g and E; exact arithmetic differs in the fourth place.
    assert v == pytest.approx(1.7785, abs=0.001) and delta == pytest.approx(-0.4834, abs=0.001)
    after = update(PLAYER, OPPONENTS, tau=0.5)
    assert round((after.rating - 1500) / glicko2.SCALE, 4) == -0.2069
    assert round(after.rd / glicko2.SCALE, 4) == 0.8722


def test_a_period_without_games_only_widens_the_deviation():
    after = update(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.rd == pytest.approx(math.hypot(200 / glicko2.SCALE, 0.06) * glicko2.SCALE)


ratings = st.builds(
    Rating,
    st.floats(600, 2800),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@settings(max_examples=200, deadline=None)
@given(player=ratings, puzzle=ratings)
def test_a_win_never_lowers_and_a_loss_never_raises_the_rating(player, puzzle):
    won, lost = update(player, [(puzzle, 1.0)]), update(player, [(puzzle, 0.0)])
    assert lost.rating < player.rating < won.rating
    # The surprise decides the size: a win counts more the less it was expected.
    expected = expected_score(player, puzzle)
    assert (won.rating - player.rating > player.rating - lost.rating) == (expected < 0.5) or abs(expected - 0.5) < 1e-3
    for after in (won, lost):
        # A game informs: the deviation ends below the pre-period one (step 6 of the paper).
        assert after.rd < math.hypot(player.rd, after.volatility * glicko2.SCALE)
        assert 0 < after.volatility < 1


@settings(max_examples=200, deadline=None)
@given(first=ratings, second=ratings)
def test_a_draw_moves_two_unequal_ratings_toward_each_other(first, second):
    if abs(first.rating - second.rating) < 1:
        return
    higher, lower = (first, second) if first.rating > second.rating else (second, first)
    high_after, low_after = update(higher, [(lower, 0.5)]), update(lower, [(higher, 0.5)])
    assert high_after.rating < higher.rating and low_after.rating > lower.rating


def test_a_draw_between_equal_ratings_changes_neither_rating():
    player = Rating(1500, 350, 0.06)
    after = update(player, [(player, 0.5)])
    assert after.rating == pytest.approx(1500) and after.rd < 350
