"""A rating's deviation grows while its player is away (Glicko-2's step 6 once per idle rating period), on every
read and before the next rated game's update, up to a new player's; an idle player leaves the leaderboard."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from common.ratings import glicko2
from games.domain import DAY_MS, Created, GameHead, Seat, apply, new_game_options
from games.domain.rating_change import RatingChange, SideChange
from games.lobby.domain import Rating
from games.lobby.seated import StoredRatings
from games.ratings.domain import BOARD_GAMES, MAX_RD, RATING_PERIOD_MS, GameRating, rating_change
from games.ratings.repository import InMemoryRatings, rating_from, rating_record
from games.ratings.service import GameRatings, rating_view
from hypothesis import given
from hypothesis import strategies as st

WEEK = RATING_PERIOD_MS
STEADY = glicko2.Rating(1620.0, 60.0, 0.06)


def step_six(rating: glicko2.Rating) -> glicko2.Rating:
    """One period without games, straight from the paper: φ* = √(φ² + σ²) on the Glicko-2 scale."""
    phi = rating.rd / glicko2.SCALE
    return glicko2.Rating(rating.rating, math.sqrt(phi**2 + rating.volatility**2) * glicko2.SCALE, rating.volatility)


@given(
    st.floats(min_value=45.0, max_value=350.0),
    st.floats(min_value=0.03, max_value=0.12),
    st.integers(min_value=0, max_value=200),
)
def test_growth_over_n_idle_periods_is_step_six_n_times(rd, volatility, periods):
    player = glicko2.Rating(1700.0, rd, volatility)
    expected = player
    for _ in range(periods):
        expected = step_six(expected)
    grown = glicko2.idle(player, periods)
    assert grown.rd == pytest.approx(min(MAX_RD, max(rd, expected.rd)), rel=1e-9)
    assert (grown.rating, grown.volatility) == (player.rating, player.volatility)
    # The same as a rating period without games in ``update`` (the path the puzzles' ratings take).
    if periods == 1 and expected.rd <= MAX_RD:
        assert grown.rd == pytest.approx(glicko2.update(player, []).rd, rel=1e-12)


def test_the_deviation_grows_once_per_whole_week_and_stops_at_the_start():
    rating = GameRating("p1", "chess", rating=STEADY, games=30, last_at=0, version=30)
    assert rating.at(WEEK - 1) == rating  # less than a period: nothing grows
    phi, sigma = STEADY.rd / glicko2.SCALE, STEADY.volatility
    for weeks in (1, 2, 10, 52):
        grown = rating.at(weeks * WEEK + DAY_MS).rating
        assert grown.rd == pytest.approx(math.sqrt(phi**2 + weeks * sigma**2) * glicko2.SCALE)
        assert grown.rating == STEADY.rating and grown.volatility == STEADY.volatility
    assert rating.at(10_000 * WEEK).rating.rd == MAX_RD  # capped at a new player's deviation
    assert rating_view(rating.at(0))["provisional"] is False
    away = next(weeks for weeks in range(1, 500) if rating.at(weeks * WEEK).rating.rd > 110)
    view = rating_view(rating.at(away * WEEK))
    assert view == {"rating": 1620, "rd": view["rd"], "provisional": True, "games": 30} and view["rd"] in (110, 111)
    assert rating_view(rating.at((away - 1) * WEEK))["provisional"] is False


def test_the_next_games_update_starts_from_the_grown_deviation():
    store = InMemoryRatings()
    clock_ms = [0]
    ratings = GameRatings(store, lambda: clock_ms[0] / 1000)
    white = GameRating("w", "chess", "Asha", STEADY, 30, last_at=0, version=0).after(
        "g0", SideChange(0, 0, 0.06), 0, None
    )
    black = GameRating("b", "chess", "Baraka", glicko2.Rating(1550.0, 70.0, 0.06), 20, last_at=0, version=0).after(
        "g1", SideChange(0, 0, 0.06), 0, None
    )
    assert store.save(white, 0) and store.save(black, 0)
    ended_at = 26 * WEEK + 3 * DAY_MS  # half a year away
    grown_white, grown_black = white.at(ended_at).rating, black.at(ended_at).rating
    assert grown_white.rd > white.rating.rd + 15 and grown_black.rd > black.rating.rd + 15

    head = _ended_head("g2", ended_at)
    change = ratings.change_for(head)
    assert change == rating_change(grown_white, grown_black, "white")
    ratings.settle(_with_change(head, change))
    after_white = store.get("w", "chess")
    assert after_white is not None and after_white.last_at == ended_at
    expected = glicko2.update(grown_white, [(grown_black, 1.0)])
    assert after_white.rating.rating == pytest.approx(expected.rating)
    assert after_white.rating.rd == pytest.approx(expected.rd)
    assert after_white.at(ended_at + WEEK - 1) == after_white  # the game starts a new period


def test_a_player_away_long_enough_leaves_the_leaderboard():
    store = InMemoryRatings()
    near = glicko2.Rating(1800.0, 98.0, 0.06)  # under 100, but not for long away
    rating = GameRating("p1", "chess", "Asha", near, 0)
    for day in range(BOARD_GAMES + 2):
        rating = rating.after(f"g{day}", SideChange(0, 0, 0.06, earned=True), day * DAY_MS, None, f"o{day}")
    last = rating.last_game_at
    assert last is not None and rating.rating.rd < 100
    weeks = glicko2.periods_below(rating.rating, 100.0)
    assert rating.at(last + (weeks - 1) * WEEK).rating.rd < 100 <= rating.at(last + weeks * WEEK).rating.rd
    assert last + weeks * WEEK < rating.history[-BOARD_GAMES][0] + 90 * DAY_MS  # the deviation lapses first
    assert rating.board_until() == last + weeks * WEEK
    assert store.save(replace(rating, version=1), last)
    board = GameRatings(store, lambda: (last + weeks * WEEK - 1) / 1000).board("chess")
    assert board == [{"id": "p1", "name": "Asha", "rating": 1800, "games": BOARD_GAMES + 2, "lookalike": None}]
    assert GameRatings(store, lambda: (last + weeks * WEEK) / 1000).board("chess") == []


def _ended_head(game_id: str, ended_at: int) -> GameHead:
    """A rated chess game between w (White) and b, just won by White at ``ended_at``."""
    seats: dict[str, Any] = {color: Seat(p, bytes(32), None) for color, p in (("white", "w"), ("black", "b"))}
    created = Created(
        at=0, seq=1, game_id=game_id, game="chess", options=new_game_options("chess", {}, rated=True), **seats
    )
    return replace(apply(None, created), state="finished", result="white", reason="resignation", updated=ended_at)


def _with_change(head: GameHead, change: RatingChange | None) -> GameHead:
    return replace(head, rating_change=change)


def test_the_lobby_shows_the_seekers_rating_as_of_now():
    store = InMemoryRatings()
    steady = GameRating("p1", "tanzanian", "Asha", glicko2.Rating(1640.4, 80.0, 0.06), 20, last_at=0, version=1)
    assert store.save(steady, 0)
    assert StoredRatings(store, lambda: 0.0).rating("p1", "tanzanian") == Rating(1640, False)
    long_away = 200 * WEEK / 1000
    assert StoredRatings(store, lambda: long_away).rating("p1", "tanzanian") == Rating(1640, True)


def test_a_rating_stored_before_last_at_grows_from_its_history():
    played = GameRating("p1", "chess", rating=STEADY, games=1, history=((3 * WEEK, 1620),), version=1)
    record = rating_record(played, 3 * WEEK)
    layout_one = {key: value for key, value in record.items() if key != "last_at"} | {"schema_version": 1}
    read = rating_from(layout_one)
    assert read.last_at is None and read.last_game_at == 3 * WEEK
    assert read.at(5 * WEEK).rating == glicko2.idle(STEADY, 2)
