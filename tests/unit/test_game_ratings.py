"""Game ratings, pure and on the in-memory store: the change a rated game makes, applied exactly once."""

from __future__ import annotations

import threading

import pytest
from common.ratings import glicko2
from games.domain import DAY_MS
from games.domain.rating_change import RatingChange, SideChange
from games.ratings.domain import BOARD_GAMES, BOARD_OPPONENTS, START, GameRating, rating_change
from games.ratings.repository import InMemoryRatings, rating_from, rating_record

DAY = DAY_MS


def test_a_win_is_the_mirror_of_a_loss_between_new_players():
    change = rating_change(START, START, "white")
    assert change.white.rating > 0 and change.black.rating == pytest.approx(-change.white.rating)
    assert change.shown() == {"white": round(change.white.rating), "black": -round(change.white.rating)}
    expected = glicko2.update(START, [(START, 1.0)])
    # Two newcomers: each change is Glicko-2's, damped by the opponent's weight, (110 / 350)² (fair play).
    damped = (expected.rating - 1500) * (110 / 350) ** 2
    assert change.white.rating == pytest.approx(damped) and change.white.rd < 0


def test_gains_from_provisional_opponents_are_damped_and_established_ones_count_whole():
    player = glicko2.Rating(1500, 80, 0.06)
    for opponent_rd, weight in ((350, (110 / 350) ** 2), (200, (110 / 200) ** 2), (110, 1.0), (60, 1.0)):
        opponent = glicko2.Rating(1500, opponent_rd, 0.06)
        whole = glicko2.update(player, [(opponent, 1.0)]).rating - 1500
        assert rating_change(player, opponent, "white").white.rating == pytest.approx(whole * weight)


def test_a_side_the_computer_stood_in_for_gains_nothing_but_loses():
    change = rating_change(START, START, "white", stood_in=frozenset({"white"}))
    assert (change.white.rating, change.white.rd, change.white.volatility) == (0.0, 0.0, START.volatility)
    lost = rating_change(START, START, "black", stood_in=frozenset({"white"}))
    assert lost.white.rating < 0


def test_a_draw_counts_half_a_win():
    strong, weak = glicko2.Rating(1800, 80, 0.06), glicko2.Rating(1400, 80, 0.06)
    change = rating_change(strong, weak, "draw")
    assert change.white.rating < 0 < change.black.rating
    assert change.white.rating == pytest.approx(glicko2.update(strong, [(weak, 0.5)]).rating - 1800)


def test_a_rating_counts_a_game_once_and_keeps_a_history():
    side = SideChange(10.0, -20.0, 0.059)
    rating = GameRating("p1", "chess").after("g1", side, 1000, "Asha")
    assert rating.has_applied("g1") and not rating.has_applied("g2")
    assert (rating.rating.rating, rating.rating.rd, rating.games, rating.version) == (1510.0, 330.0, 1, 1)
    assert rating.history == ((1000, 1510),) and rating.name == "Asha" and rating.provisional
    assert rating_from(rating_record(rating, now=0)) == rating


def test_the_leaderboard_needs_ten_recent_games_and_a_low_deviation():
    rating = GameRating("p1", "chess", rating=glicko2.Rating(1600, 90, 0.06))
    earned = SideChange(0, 0, 0.06, earned=True)
    for number in range(BOARD_GAMES - 1):
        rating = rating.after(f"g{number}", earned, number * DAY, None, f"o{number % BOARD_OPPONENTS}")
    assert rating.board_until() is None
    rating = rating.after("last", earned, 20 * DAY, None, "o0")
    assert rating.board_until() == 90 * DAY  # while the tenth latest game (at day 0) is under 90 days old
    assert rating_record(rating, now=89 * DAY)["board"] == "chess"
    assert "board" not in rating_record(rating, now=90 * DAY)
    wide = GameRating("p2", "chess", rating=glicko2.Rating(1600, 120, 0.06), history=rating.history)
    assert wide.board_until() is None


def test_the_rating_list_needs_five_established_opponents_met_in_the_window():
    rating = GameRating("p1", "chess", rating=glicko2.Rating(1600, 50, 0.06))
    # Ten games: four against four established opponents, then six against a provisional one (not counted).
    for number in range(BOARD_GAMES):
        opponent = f"o{min(number, 4)}"
        change = SideChange(0, 0, 0.06, earned=opponent != "o4")
        rating = rating.after(f"g{number}", change, number * DAY, None, opponent)
    assert len(rating.opponents_met()) == BOARD_OPPONENTS - 1 and rating.board_until() is None
    # A fifth established opponent at day 30: listed until the fifth latest opponent's last game (o0 at day 0)
    # leaves the window, a day before the tenth latest game (day 1) would.
    rating = rating.after("fifth", SideChange(0, 0, 0.06, earned=True), 30 * DAY, None, "o5")
    assert rating.board_until() == 90 * DAY
    assert rating_from(rating_record(rating, now=0)) == rating
    # A change recorded before ``earned`` was kept reads False: that game never counted.
    assert SideChange.from_record({"rating": 1, "rd": 0, "vol": 0.06}).earned is False


def test_only_an_established_opponent_who_played_earns_a_place():
    established, newcomer = glicko2.Rating(1500, 80, 0.06), START
    change = rating_change(established, newcomer, "white")
    assert change.white.earned is False and change.black.earned is True
    taken_over = rating_change(established, established, "white", stood_in=frozenset({"black"}))
    assert taken_over.white.earned is False and taken_over.black.earned is False


def test_a_change_round_trips_through_its_record():
    change = rating_change(START, glicko2.Rating(1700, 60, 0.06), "black")
    assert RatingChange.from_record(change.record()) == change and RatingChange.from_record(None) is None


def test_racing_saves_of_one_version_let_exactly_one_in():
    store = InMemoryRatings()
    base = GameRating("p1", "english")
    results: list[bool] = []
    threads = [
        threading.Thread(
            target=lambda n=n: results.append(store.save(base.after(f"g{n}", SideChange(1, 0, 0.06), n, None), 0))
        )
        for n in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 7 + [True]
    stored = store.get("p1", "english")
    assert stored is not None and stored.games == 1 and stored.version == 1
