"""Glicko-2, as Mark Glickman's paper "Example of the Glicko-2 system" (2012) describes it. Pure.

A rating is a value (``Rating``); ``update`` returns the player's rating after one rating period, given
the opponents' ratings and the scores (1 win, 0.5 draw, 0 loss). Two users share it:

* puzzles (``puzzles_api``): every first attempt is a rating period of its own with one game, the puzzle
  being the opponent (a solve is a win); puzzles are rated too, with longer periods whose games are summed
  as they come (``result_terms``, ``update_from_terms``; ``puzzles_api.domain.puzzle_rating``);
* games (``games.ratings``): every rated game is a rating period of one game for each player, against the
  opponent's rating before the game.

    >>> player = Rating(1500, 200, 0.06)
    >>> after = update(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    >>> round(after.rating, 2), round(after.rd, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)

(The paper rounds its intermediate numbers and prints 1464.06 and 0.05999; exact arithmetic gives
1464.0507 and 0.0599960.)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass

#: The factor between the Glicko scale (ratings like 1500) and the Glicko-2 scale (step 2 of the paper).
SCALE = 173.7178
CENTER = 1500.0
#: The system constant: how much the volatility may change. The paper suggests 0.3 to 1.2; its example uses 0.5.
TAU = 0.5
#: The convergence tolerance of the volatility iteration (step 5 of the paper).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0  # rating deviation: how uncertain the rating is
    volatility: float = 0.06  # how erratic the player's results are


def update(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with these (opponent, score) results."""
    terms = [result_terms(player, opponent, score) for opponent, score in results]
    return update_from_terms(player, sum(t[0] for t in terms), sum(t[1] for t in terms), len(terms), tau)


def result_terms(player: Rating, opponent: Rating, score: float) -> tuple[float, float]:
    """One game's share of steps 3 and 4, against ratings as they were when the period began:
    (g(φj)² E (1 − E), g(φj) (s − E)). Their sums over a period are all ``update_from_terms`` needs, so a
    period's games can be added up as they come (puzzle ratings: docs/puzzles.md) and folded later."""
    mu, _, _ = _to_glicko2(player)
    mu_j, phi_j, _ = _to_glicko2(opponent)
    g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
    return g**2 * e * (1 - e), g * (float(score) - e)


def update_from_terms(player: Rating, information: float, gain: float, games: int, tau: float = TAU) -> Rating:
    """Steps 3 to 8 from the sums of ``result_terms`` over a period of ``games`` games."""
    mu, phi, sigma = _to_glicko2(player)
    if games == 0 or information <= 0:  # step 6 alone: a period without games only widens the deviation
        return Rating(player.rating, math.sqrt(phi**2 + sigma**2) * SCALE, sigma)
    # Steps 3 and 4: the estimated variance v of the rating from the games, and the improvement delta.
    v = 1.0 / information
    delta = v * gain
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 to 8: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * gain
    return Rating(new_mu * SCALE + CENTER, new_phi * SCALE, new_sigma)


def idle(player: Rating, periods: int, ceiling: float = 350.0) -> Rating:
    """The player's rating after ``periods`` rating periods without games: step 6 alone each time,
    φ* = √(φ² + σ²), which over n periods is √(φ² + nσ²) (σ does not change without games); the deviation
    never grows past ``ceiling`` (a new player's), and never shrinks."""
    if periods <= 0:
        return player
    _, phi, sigma = _to_glicko2(player)
    grown = math.sqrt(phi**2 + periods * sigma**2) * SCALE
    return Rating(player.rating, max(player.rd, min(ceiling, grown)), player.volatility)


def periods_below(player: Rating, rd: float) -> int:
    """How many idle periods the player's deviation stays below ``rd`` for: the first n with
    √(φ² + nσ²) ≥ rd (on the Glicko-2 scale); 0 when it is not below ``rd`` now."""
    _, phi, sigma = _to_glicko2(player)
    bound = rd / SCALE
    if phi >= bound:
        return 0
    if sigma <= 0:
        return sys.maxsize
    return max(1, math.ceil((bound**2 - phi**2) / sigma**2))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (E in the paper), between 0 and 1."""
    mu, _, _ = _to_glicko2(player)
    mu_j, phi_j, _ = _to_glicko2(opponent)
    return _expected(mu, mu_j, phi_j)


def _to_glicko2(rating: Rating) -> tuple[float, float, float]:
    return (rating.rating - CENTER) / SCALE, rating.rd / SCALE, rating.volatility


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (regula falsi) on the paper's f(x)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    lower = a
    if delta**2 > phi**2 + v:
        upper = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        upper = a - k * tau
    f_lower, f_upper = f(lower), f(upper)
    while abs(upper - lower) > EPSILON:
        middle = lower + (lower - upper) * f_lower / (f_upper - f_lower)
        f_middle = f(middle)
        if f_middle * f_upper <= 0:
            lower, f_lower = upper, f_upper
        else:
            f_lower /= 2.0
        upper, f_upper = middle, f_middle
    return math.exp(lower / 2.0)
