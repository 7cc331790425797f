"""The player's time zone: kept with the progress, a change in effect from the player's next day, and
one streak day per day. The `tz` switch probe of the issue (3 streak days in 31 minutes by sending a zone with a
midnight just passed with each attempt) earns nothing now."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

from hypothesis import given, settings
from hypothesis import strategies as st
from puzzles_api.domain.daily import daily_puzzle
from puzzles_api.domain.progress import Progress, local_date

from tests.puzzles_api.test_progress_api import at

#: Every zone the probe may pick from (the issue's script picked any IANA zone whose midnight had just passed).
ZONES = sorted(zone for zone in available_timezones() if "/" in zone and not zone.startswith(("posix/", "right/")))
GAMES = ("chess", "english", "tanzanian")


def zone_with_midnight_between(earlier: float, later: float) -> str | None:
    """A zone whose local date changes between the two instants (what the attacker sends), if there is one."""
    for zone in ZONES:
        if local_date(later, zone) == local_date(earlier, zone) + timedelta(days=1):
            return zone
    return None


def solve(api, token: str, game: str, day: date, tz: str | None) -> dict:
    answers = api.solve(daily_puzzle(game, day), token, tz)
    return answers[-1].body


def test_the_tz_switch_probe_earns_no_extra_streak_day(api, clock):
    """The issue's script: 3 daily solves 15 minutes apart, each sent with a zone whose midnight fell since
    the last one (18:00, 18:15 and 18:30 UTC are midnight at UTC+6, +5:45 and +5:30). It earned a streak day
    per solve; now the player's own days count, and none ended in those 31 minutes."""
    token = api.new_player()
    at(clock, "2025-06-19 17:50", "UTC")
    assert solve(api, token, "chess", date(2025, 6, 19), "UTC")["rated"] is True
    at(clock, "2025-06-20 17:50", "UTC")
    solve(api, token, "chess", date(2025, 6, 20), None)
    assert api.progress(token)["streak"] == 2
    last = clock.now
    for minute, (game, day) in zip(
        ("18:05", "18:20", "18:35"),
        (("english", date(2025, 6, 20)), ("tanzanian", date(2025, 6, 20)), ("english", date(2025, 6, 19))),
        strict=True,
    ):
        at(clock, f"2025-06-20 {minute}", "UTC")
        zone = zone_with_midnight_between(last, clock.now)
        assert zone is not None  # the probe has a zone to send at every step, as in the issue
        assert solve(api, token, game, day, zone)["rated"] is True
        last = clock.now
    progress = api.progress(token)
    assert (progress["streak"], progress["best_streak"], progress["solved"]) == (2, 2, 5)
    assert progress["tz"] == "UTC" and progress["tz_next"] is not None  # asked for, from the next day on


def test_six_daily_solves_in_one_real_day_with_zone_switches_earn_one_day(api, clock):
    """Up to six daily puzzles can be solved in a UTC day (today's three and yesterday's three); switching zones
    between them earned up to six streak days. Over 24 hours from noon the player's day changes once."""
    token = api.new_player()
    at(clock, "2025-07-01 12:00", "UTC")
    solve(api, token, "chess", date(2025, 7, 1), "UTC")
    assert api.progress(token)["streak"] == 1
    last = clock.now
    plan = [(game, date(2025, 7, 1)) for game in ("english", "tanzanian")]
    plan += [(game, date(2025, 7, 2)) for game in GAMES]
    for game, day in plan:
        clock.now = max(clock.now + 3.5 * 3600, datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() + 60)
        # The pick: a zone with a midnight since the last solve. Dating each solve in the zone sent
        # with it (and the previous one in that zone too) made each of these six solves a new streak day.
        zone = zone_with_midnight_between(last, clock.now)
        assert zone is not None
        solve(api, token, game, day, zone)
        last = clock.now
    assert clock.now - datetime(2025, 7, 1, 12, tzinfo=UTC).timestamp() < 86_400
    progress = api.progress(token)
    assert progress["solved"] == 6 and progress["streak"] == 2  # the one midnight of the player's zone


def test_a_change_takes_effect_from_the_next_day_and_numbers_days_on(api, clock):
    token = api.new_player()
    at(clock, "2025-06-10 10:00", "Africa/Dar_es_Salaam")
    solve(api, token, "chess", date(2025, 6, 10), "Africa/Dar_es_Salaam")  # the first zone: at once
    assert api.progress(token)["tz"] == "Africa/Dar_es_Salaam"
    asked = api.progress(token, "Asia/Manila")
    # Dar's day ends at 21:00 UTC (05:00 in Manila); Manila's next midnight after that is 16:00 UTC on the 11th.
    assert (asked["tz"], asked["tz_next"], asked["tz_from"]) == (
        "Africa/Dar_es_Salaam", "Asia/Manila", "2025-06-11T16:00:00Z",
    )  # fmt: skip
    at(clock, "2025-06-11 09:00", "Africa/Dar_es_Salaam")  # the next day in Dar: still Dar's dates
    solve(api, token, "english", date(2025, 6, 11), None)
    assert api.progress(token)["streak"] == 2
    at(clock, "2025-06-12 09:00", "Asia/Manila")  # Manila now; that day continues the one running at 16:00 UTC
    solve(api, token, "tanzanian", date(2025, 6, 12), None)
    progress = api.progress(token)
    assert (progress["tz"], progress["tz_next"], progress["streak"]) == ("Asia/Manila", None, 2)
    at(clock, "2025-06-13 09:00", "Asia/Manila")
    solve(api, token, "chess", date(2025, 6, 13), None)
    assert api.progress(token)["streak"] == 3


def test_asking_for_the_zone_in_effect_calls_a_change_off(api, clock):
    token = api.new_player()
    at(clock, "2025-06-10 10:00", "UTC")
    solve(api, token, "chess", date(2025, 6, 10), "UTC")
    assert api.progress(token, "Asia/Manila")["tz_next"] == "Asia/Manila"
    called_off = api.progress(token, "UTC")
    assert (called_off["tz"], called_off["tz_next"], called_off["tz_from"]) == ("UTC", None, None)


# ------------------------------------------------------------------------------------------ the model
DAY = 86_400
SHORTEST_CIVIL_DAY = 22 * 3600  # Antarctica/Troll moves its clocks by two hours (UTC+0 to UTC+2)
START = datetime(2025, 3, 1, tzinfo=UTC).timestamp()  # a month that crosses daylight-saving changes


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40 * DAY), st.sampled_from(ZONES)),
        min_size=1,
        max_size=12,
    )
)
def test_a_day_never_lasts_less_than_a_local_day_whatever_zones_are_asked_for(requests):
    """Zone changes asked at any instants: the player's days, sampled every 15 minutes, each last as long as
    the shortest civil day or more, and follow each other without a gap, so no day earns two streak days and
    no real day holds more of them than a day without changes would."""
    progress = Progress(daily_day=1, tz="UTC")  # past the first streak day: changes wait for the next day
    requests = sorted(requests)
    spans: dict[int, list[float]] = {}
    step = 15 * 60
    moment, index = START, 0
    while moment < START + 42 * DAY:
        while index < len(requests) and START + requests[index][0] <= moment:
            progress = progress.asking_zone(requests[index][1], START + requests[index][0])
            index += 1
        progress = progress.settled(moment)
        day = progress.day(moment)
        spans.setdefault(day, [moment, moment])[1] = moment
        moment += step
    days = sorted(spans)
    assert days == list(range(days[0], days[-1] + 1))
    for day in days[1:-1]:
        first, last = spans[day]
        assert last + step - first >= SHORTEST_CIVIL_DAY, (day, (last + step - first) / 3600)


def test_a_legacy_map_without_days_reads_its_day_from_the_stored_zone():
    at_manila_night = datetime(2025, 6, 20, 23, 50, tzinfo=ZoneInfo("Asia/Manila")).timestamp()
    from puzzles_api.repository import progress_from_record, progress_record

    record = progress_record(Progress(tz="Asia/Manila", daily_at=int(at_manila_night), streak=3))
    del record["day"]
    assert progress_from_record(record).daily_day == date(2025, 6, 20).toordinal()
