"""The daily puzzle: deterministic from the date, never repeated within 366 days, inside its rating band; and
the route: no solution, cacheable until the UTC day ends, an ETag, clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date, timedelta

import pytest
from puzzles_api.domain import daily
from puzzles_api.domain.daily import DAILY_BANDS, EPOCH, MIN_GAP_DAYS, daily_puzzle, min_gap, pool

from local.template import ROOT
from puzzles.catalog import GAMES, load
from tests.clocks import START
from tests.puzzles_api.sets import find


@pytest.mark.parametrize("game", GAMES)
def test_each_pool_is_the_band_and_big_enough(game):
    low, high = DAILY_BANDS[game]
    chosen = pool(game)
    assert len(chosen) >= MIN_GAP_DAYS
    assert {puzzle.id for puzzle in chosen} == {puzzle.id for puzzle in load(game) if low <= puzzle.rating <= high}


@pytest.mark.parametrize("game", GAMES)
def test_no_puzzle_comes_back_within_366_days_over_several_cycles(game):
    size = len(pool(game))
    days = 3 * size + 10  # three seams between cycles
    last_seen: dict[str, int] = {}
    shortest = None
    for number in range(days):
        puzzle = daily_puzzle(game, EPOCH + timedelta(days=number))
        if puzzle.id in last_seen:
            gap = number - last_seen[puzzle.id]
            shortest = gap if shortest is None else min(shortest, gap)
        last_seen[puzzle.id] = number
    assert shortest is not None and shortest >= min_gap(game) >= MIN_GAP_DAYS
    # Within each cycle every puzzle of the pool is shown exactly once.
    for cycle in range(3):
        shown = [daily_puzzle(game, EPOCH + timedelta(days=cycle * size + day)).id for day in range(size)]
        assert sorted(shown) == sorted(puzzle.id for puzzle in pool(game))


def test_cycles_differ_so_the_order_is_not_predictable_from_the_last_one():
    size = len(pool("english"))
    first = [daily_puzzle("english", EPOCH + timedelta(days=day)).id for day in range(size)]
    second = [daily_puzzle("english", EPOCH + timedelta(days=size + day)).id for day in range(size)]
    assert first != second


def test_the_choice_is_the_same_in_a_fresh_process_with_another_hash_seed():
    days = [EPOCH, date(2025, 6, 15), date(2026, 2, 28), date(2027, 3, 1), date(2031, 12, 31)]
    here = [daily_puzzle(game, day).id for game in GAMES for day in days]
    daily._cycle_order.cache_clear()
    assert [daily_puzzle(game, day).id for game in GAMES for day in days] == here
    code = (
        "import sys; sys.path[:0] = ['functions', '.']\n"
        "from datetime import date\nfrom puzzles_api.domain.daily import daily_puzzle\n"
        f"days = [date.fromisoformat(text) for text in {[day.isoformat() for day in days]!r}]\n"
        "print(' '.join(daily_puzzle(game, day).id for game in ('chess', 'english', 'tanzanian') for day in days))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    output = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert output.stdout.split() == here


def test_before_the_first_day_there_is_none():
    with pytest.raises(ValueError):
        daily_puzzle("chess", EPOCH - timedelta(days=1))


# ------------------------------------------------------------------------------------------- the route
TODAY = date(2025, 6, 15)  # the UTC date of the test clock's START (15:06:40)


@pytest.mark.parametrize("game", GAMES)
def test_todays_puzzle_has_no_solution_and_is_cached_until_midnight_utc(api, game):
    answer = api.daily(game)
    assert answer.status == 200, answer.body
    puzzle = daily_puzzle(game, TODAY)
    assert answer.body == {**puzzle.public(), "date": "2025-06-15"}
    assert set(answer.body) == {"id", "game", "fen", "turn", "rating", "themes", "date"}
    assert "solution" not in answer.text and puzzle.solution[0] not in answer.body["themes"]
    seconds_left = 86_400 - (int(START) % 86_400)
    assert answer.headers["cache-control"] == f"public, max-age={seconds_left}"
    assert answer.headers["etag"].startswith('"')


def test_the_etag_answers_304_until_the_day_changes(api, clock):
    first = api.daily("chess")
    etag = first.headers["etag"]
    again = api.daily("chess", headers={"if-none-match": etag})
    assert (again.status, again.text, again.headers["etag"]) == (304, "", etag)
    assert api.daily("chess", headers={"if-none-match": f'W/{etag}, "other"'}).status == 304
    clock.advance(seconds=86_400 - (int(START) % 86_400) - 1)  # the last second of the UTC day
    last = api.daily("chess", headers={"if-none-match": etag})
    assert last.status == 304 and last.headers["cache-control"] == "public, max-age=1"
    clock.advance(seconds=1)  # midnight UTC: a new puzzle
    tomorrow = api.daily("chess", headers={"if-none-match": etag})
    assert tomorrow.status == 200 and tomorrow.body["date"] == "2025-06-16"
    assert tomorrow.body["id"] == daily_puzzle("chess", TODAY + timedelta(days=1)).id != first.body["id"]


def test_a_past_date_gives_that_days_puzzle_cached_for_a_day(api):
    answer = api.daily("english", "2025-01-01")
    assert answer.status == 200 and answer.body["id"] == daily_puzzle("english", EPOCH).id
    assert answer.body["date"] == "2025-01-01" and answer.headers["cache-control"] == "public, max-age=86400"
    assert api.daily("english", TODAY.isoformat()).body == api.daily("english").body


@pytest.mark.parametrize(
    ("date_text", "code"),
    [
        ("2025-06-16", "invalid_date"),  # tomorrow is not out
        ("2024-12-31", "invalid_date"),  # before the first
        ("2025-02-30", "invalid_date"),
        ("20250615", "invalid_date"),
        ("15/06/2025", "invalid_date"),
        ("2025-6-15", "invalid_date"),
        ("yesterday", "invalid_date"),
        ("", "invalid_date"),
        ("2025-06-15" * 5, "invalid_request"),  # longer than any date
    ],
)
def test_bad_dates_are_422(api, date_text, code):
    answer = api.daily("chess", date_text)
    assert (answer.status, answer.code) == (422, code), answer.body
    assert answer.body["error"]["message"]


@pytest.mark.parametrize("query", [{}, {"game": "go"}, {"game": "Chess"}, {"game": ""}])
def test_a_missing_or_unknown_game_is_422(api, query):
    answer = api.call("GET", "/v1/puzzles/daily", query=query)
    assert (answer.status, answer.code) == (422, "invalid_request"), answer.body
    assert "game" in answer.body["error"]["message"]


def test_the_daily_puzzle_is_a_real_puzzle_of_the_band(api):
    for game in GAMES:
        body = api.daily(game).body
        puzzle = find(body["id"])
        low, high = DAILY_BANDS[game]
        assert puzzle is not None and low <= puzzle.rating <= high and puzzle.game == game
