"""GET /v1/players/me/puzzles: counts, rating and recent attempts, and the streak of days with a daily puzzle
solved, counted in the player's time zone (an injected clock walks across midnights and missed days)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from puzzles_api.domain.daily import daily_puzzle
from puzzles_api.domain.progress import RECENT_MAX

from puzzles.catalog import load
from tests.puzzles_api.client import snapshot
from tests.puzzles_api.sets import find


def at(clock, text: str, zone: str) -> None:
    """Set the clock to a local time, such as ``2025-06-20 23:50`` in ``Asia/Manila``."""
    clock.now = datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def solve_daily(api, token: str, game: str = "chess", tz: str | None = None) -> dict:
    puzzle = find(api.daily(game).body["id"])
    return api.solve(puzzle, token, tz)[-1].body


def test_a_new_player_starts_at_1500_350_006(api):
    token = api.new_player()
    assert api.progress(token) == {
        "rating": 1500.0, "rating_deviation": 350.0, "volatility": 0.06, "solved": 0, "failed": 0,
        "streak": 0, "best_streak": 0, "tz": "UTC", "tz_next": None, "tz_from": None, "recent": [], "history": [],
    }  # fmt: skip


ZONES = [
    "Africa/Dar_es_Salaam",
    "Asia/Manila",
    "America/Los_Angeles",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Asia/Kathmandu",
]


@pytest.mark.parametrize("zone", ZONES)
def test_ten_minutes_either_side_of_local_midnight_are_two_days(api, clock, zone):
    player, same_instants_in_another_zone = api.new_player(), api.new_player()
    at(clock, "2025-06-20 23:55", zone)
    for token, tz in ((player, zone), (same_instants_in_another_zone, _zone_with_no_midnight_between(clock.now))):
        assert solve_daily(api, token, "chess", tz)["rated"] is True
    clock.advance(seconds=600)  # 00:05 the next day, in the player's zone
    for token, tz in ((player, zone), (same_instants_in_another_zone, _zone_with_no_midnight_between(clock.now - 600))):
        assert solve_daily(api, token, "english", tz)["rated"] is True
    mine = api.progress(player, zone)
    assert (mine["streak"], mine["best_streak"], mine["solved"]) == (2, 2, 2)
    # The same two instants fall on one date in a zone whose midnight is elsewhere: one day, not two.
    other = api.progress(same_instants_in_another_zone)
    assert (other["streak"], other["best_streak"], other["solved"]) == (1, 1, 2)


def _zone_with_no_midnight_between(first: float) -> str:
    """A zone in which ``first`` and ten minutes later are on the same date (one of UTC, UTC+12, UTC-12)."""
    for zone in ("UTC", "Etc/GMT-12", "Etc/GMT+12"):
        local = datetime.fromtimestamp(first, ZoneInfo(zone))
        if (local + timedelta(minutes=10)).date() == local.date():
            return zone
    raise AssertionError("unreachable: three zones twelve hours apart cannot all have midnight in ten minutes")


def test_a_missed_day_ends_the_streak_and_best_streak_remembers(api, clock):
    zone = "Africa/Nairobi"
    token = api.new_player()
    for day in range(1, 6):  # five days in a row, each at a different hour
        at(clock, f"2025-07-0{day} {6 + 3 * day:02d}:15", zone)
        solve_daily(api, token, "chess", zone)
        assert api.progress(token, zone)["streak"] == day
    at(clock, "2025-07-06 23:59", zone)  # nothing solved today yet: yesterday still holds the streak
    assert api.progress(token, zone)["streak"] == 5
    at(clock, "2025-07-07 00:00", zone)  # the 6th went by without a solve
    progress = api.progress(token, zone)
    assert (progress["streak"], progress["best_streak"]) == (0, 5)
    at(clock, "2025-07-07 08:00", zone)
    solve_daily(api, token, "tanzanian", zone)
    at(clock, "2025-07-08 20:00", zone)
    solve_daily(api, token, "english", zone)
    progress = api.progress(token, zone)
    assert (progress["streak"], progress["best_streak"], progress["solved"]) == (2, 5, 7)


def test_two_daily_solves_on_one_date_count_once(api, clock):
    token = api.new_player()
    at(clock, "2025-08-01 09:00", "UTC")
    for game in ("chess", "english", "tanzanian"):
        solve_daily(api, token, game)
    assert api.progress(token)["streak"] == 1 and api.progress(token)["solved"] == 3


def test_only_a_first_attempt_solve_of_a_current_daily_puzzle_counts(api, clock):
    token = api.new_player()
    at(clock, "2025-09-10 12:00", "UTC")
    today = date(2025, 9, 10)
    # Not a daily puzzle: counts for the rating, not for the streak.
    ordinary = next(
        p
        for p in load("english")
        if all(p.id != daily_puzzle("english", today - timedelta(days=d)).id for d in range(3))
    )
    assert api.solve(ordinary, token)[-1].body["rated"] is True
    assert api.progress(token)["streak"] == 0
    # Today's chess puzzle failed first, then solved: it was not solved at the first attempt.
    chess_today = daily_puzzle("chess", today)
    api.fail(chess_today, token)
    api.solve(chess_today, token)
    assert api.progress(token)["streak"] == 0
    # The day before yesterday's puzzle is too old; yesterday's still counts (opened before midnight UTC).
    api.solve(daily_puzzle("english", today - timedelta(days=2)), token)
    assert api.progress(token)["streak"] == 0
    api.solve(daily_puzzle("tanzanian", today - timedelta(days=1)), token)
    assert api.progress(token)["streak"] == 1


def test_the_time_zone_sent_to_progress_dates_later_attempts(api, clock):
    token = api.new_player()
    assert api.progress(token, "Asia/Manila")["tz"] == "Asia/Manila"
    at(clock, "2025-06-20 23:50", "Asia/Manila")
    solve_daily(api, token, "chess")  # no tz with the attempts: the stored one
    clock.advance(seconds=1200)
    solve_daily(api, token, "english")
    progress = api.progress(token)
    assert (progress["tz"], progress["streak"]) == ("Asia/Manila", 2)
    # Another zone asked for after a streak day: the count stands, the new zone waits for the next day.
    moving = api.progress(token, "America/New_York")
    assert (moving["tz"], moving["tz_next"], moving["streak"]) == ("Asia/Manila", "America/New_York", 2)
    clock.advance(days=2)  # Manila's 23rd, New York's 22nd: the player's day is New York's now
    assert api.progress(token)["tz"] == "America/New_York"
    assert api.progress(token)["streak"] == 2
    clock.advance(days=1)
    assert api.progress(token)["streak"] == 0


def test_recent_keeps_the_ten_latest_first_attempts(api, clock):
    token = api.new_player()
    puzzles = load("tanzanian")[:12]
    for index, puzzle in enumerate(puzzles):
        clock.advance(seconds=60)
        (api.solve if index % 2 else api.fail)(puzzle, token)
    recent = api.progress(token)["recent"]
    assert [item["id"] for item in recent] == [puzzle.id for puzzle in reversed(puzzles)][:RECENT_MAX]
    assert [item["result"] for item in recent[:2]] == ["solved", "failed"]
    assert recent[0]["at"] > recent[1]["at"]


@pytest.mark.parametrize(
    "tz",
    [
        "Mars/Olympus_Mons",
        "../etc/passwd",
        "/etc/localtime",
        "America",
        "UTC+3",
        "",
        "Europe/London\n",
        "a" * 65,
        "Asia//Manila",
        "zone.tab",
    ],
)
def test_a_bad_time_zone_is_422_and_changes_nothing(api, tz):
    token = api.new_player()
    before = snapshot()
    for call in (
        lambda: api.call("GET", "/v1/players/me/puzzles", token=token, query={"tz": tz}),
        lambda: api.call(
            "POST", "/v1/puzzles/chess-000Zo/attempt", {"moves": ["Re1+", "Rf1#"]}, token=token, query={"tz": tz}
        ),
    ):
        answer = call()
        assert answer.status == 422 and answer.code in ("invalid_tz", "invalid_request"), answer.body
    assert snapshot() == before


def test_a_time_zone_is_stored_only_when_it_changes(api):
    token = api.new_player()
    api.progress(token, "Asia/Manila")
    before = snapshot()
    api.progress(token, "Asia/Manila")
    api.progress(token)
    assert snapshot() == before
