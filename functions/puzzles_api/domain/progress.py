"""A player's puzzle progress: rating, counts, streak and recent attempts. A value; pure.

It is kept in the player's item (attribute ``puzzles``; its codec is ``puzzles_api.repository``) as a small map, so
the read that checks the player's token also brings the progress. ``v`` is its version: every change writes
version v + 1 on the condition that the stored one is still v (optimistic concurrency).

**Ratings.** Glicko-2 (``glicko2``), starting at 1500, deviation 350, volatility 0.06. Each *first*
finished attempt at a puzzle is one rating period with one game against the puzzle, whose rating is
fixed and whose deviation is ``PUZZLE_RD``: a solve is a win, a failure a loss. Later attempts change
nothing.

**Streak.** A *daily solve* is a first attempt that solved the puzzle while it was the daily puzzle of its
game: on the UTC date of the daily puzzle or the next UTC day (so a puzzle opened just before midnight UTC
still counts). Each daily solve falls on one of the player's *days*. ``streak`` is the number of days in a
row, ending with the day of the latest daily solve, that each have a daily solve: a daily solve on the same
day as the previous one leaves it as it is, one on the next day adds one, a later one starts again at 1.
The streak shown is 0 once a whole day has passed without a daily solve. ``best_streak`` is the longest.

**Days and the time zone.** The player's days are the local dates of the player's time zone (``tz``, kept
in this map; UTC until one is set). A new zone takes effect from the player's next day, never during one,
so changing it cannot make a day shorter (an attack showed it: switching ``tz`` between attempts earned 3 streak days
in 31 minutes). Precisely: a change asked at instant t waits for the end of the current day (the next
midnight M of the old zone), then for the first midnight T of the new zone at or after M; until T the old
zone's dates count, and the new zone's days are numbered on from there (``shift`` is added to its dates),
so the day that was running at M lasts until the new zone's next midnight after T: longer than 24 hours,
never shorter. Every day lasts a whole local day (23 to 25 hours across a daylight-saving change) or more,
and a day earns one streak day at most. The first zone a player sets, before any streak day, takes effect
at once: there is nothing to inflate yet.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from common.ratings import glicko2

#: The rating deviation every puzzle is taken to have. Puzzle ratings are fixed (Lichess's, or the
#: generator's estimate), so this says how far off they may be; it weighs a result less than a result
#: against an exactly known opponent would (Glicko's g factor is 0.98 here).
PUZZLE_RD = 60.0
#: How many attempts ``recent`` keeps (newest first), with their time and rating change.
RECENT_MAX = 10
#: How many attempts the history shows: ``recent`` and, before them, ``older`` (puzzle and outcome only,
#: stored as one string so twenty attempts keep the player's item under 1 KB).
HISTORY_MAX = 20
START = glicko2.Rating(1500.0, 350.0, 0.06)
UTC_NAME = "UTC"


@dataclass(frozen=True)
class Attempt:
    """A first finished attempt, as the progress table stores it."""

    puzzle: str
    solved: bool
    at: int  # seconds since the epoch, UTC
    daily: bool  # a daily solve (see the module docstring)


@dataclass(frozen=True)
class Recent:
    puzzle: str
    solved: bool
    at: int
    rating_change: float


@dataclass(frozen=True)
class Progress:
    version: int = 0
    rating: glicko2.Rating = START
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0
    daily_at: int | None = None  # when the latest daily solve was, seconds since the epoch
    daily_day: int | None = None  # the player's day of the latest daily solve (see ``day``)
    tz: str | None = None  # the player's time zone in effect (None: UTC, never set)
    shift: int = 0  # added to ``tz``'s date ordinals to number the player's days on across zone changes
    tz_next: str | None = None  # a zone asked for, in effect from ``tz_from`` on
    tz_from: int | None = None  # a midnight of ``tz_next``, seconds since the epoch
    recent: tuple[Recent, ...] = ()
    older: tuple[tuple[str, bool], ...] = ()  # (puzzle, solved) of the attempts before ``recent``, newest first

    def history(self) -> list[tuple[str, bool]]:
        """(puzzle, solved) of the latest ``HISTORY_MAX`` counted attempts, newest first."""
        return [(item.puzzle, item.solved) for item in self.recent] + list(self.older)

    # -- questions ----------------------------------------------------------------------------------------
    def has_recent(self, puzzle_id: str) -> bool:
        return self.recent_attempt(puzzle_id) is not None

    def recent_attempt(self, puzzle_id: str) -> Attempt | None:
        """The counted first attempt at ``puzzle_id`` when it is among the recent ones (``daily`` not kept)."""
        for item in self.recent:
            if item.puzzle == puzzle_id:
                return Attempt(item.puzzle, item.solved, item.at, False)
        return None

    def is_pending(self, attempt: Attempt) -> bool:
        """Whether a stored first attempt was never applied here (its request stopped between its two writes).

        ``recent`` holds the newest applied attempts, newest first: an attempt missing from it that is newer
        than its oldest entry (or any attempt, while it is not full) was not applied.
        """
        if self.has_recent(attempt.puzzle):
            return False
        return len(self.recent) < RECENT_MAX or attempt.at > self.recent[-1].at

    @property
    def zone(self) -> str:
        """The time zone in effect (before any pending change)."""
        return self.tz or UTC_NAME

    def settled(self, now: float) -> Progress:
        """This progress with a pending zone change applied once its time has come (nothing else changes)."""
        if self.tz_next is None or self.tz_from is None or now < self.tz_from:
            return self
        running_day = local_date(self.tz_from - 1, self.zone).toordinal() + self.shift
        shift = running_day - local_date(self.tz_from, self.tz_next).toordinal()
        return replace(self, tz=self.tz_next, shift=shift, tz_next=None, tz_from=None)

    def day(self, now: float) -> int:
        """The player's day at ``now``: a date ordinal in the zone then in effect, plus ``shift``."""
        settled = self.settled(now)
        return local_date(now, settled.zone).toordinal() + settled.shift

    def current_streak(self, now: float) -> int:
        """The streak as of ``now``: 0 once a whole day of the player's has passed without a daily solve."""
        if self.daily_day is None:
            return 0
        return self.streak if self.day(now) <= self.daily_day + 1 else 0

    def asking_zone(self, zone: str | None, now: float) -> Progress:
        """This progress with ``zone`` asked for at ``now``: in effect at once before the first streak day,
        else from the player's next day (module docstring); ``self`` itself when nothing changes."""
        if zone is None:
            return self
        current = self.settled(now)
        if self.daily_day is None:
            if zone == self.tz and self.tz_next is None:
                return self
            return replace(self, version=self.version + 1, tz=zone, shift=0, tz_next=None, tz_from=None)
        if zone == current.zone:
            if current.tz_next is None:
                return self
            return replace(current, version=self.version + 1, tz_next=None, tz_from=None)  # a change called off
        if zone == current.tz_next:
            return self
        end_of_day = next_midnight(now, current.zone)
        starts = first_midnight(end_of_day, zone)
        return replace(current, version=self.version + 1, tz_next=zone, tz_from=starts)

    # -- changes ------------------------------------------------------------------------------------------
    def after(self, attempt: Attempt, puzzle_rating: float | glicko2.Rating, zone: str | None = None) -> Progress:
        """The progress once ``attempt`` (a first attempt at a puzzle rated ``puzzle_rating``: its current
        rating, or a number taken with ``PUZZLE_RD``) is applied, with ``zone`` asked for at the attempt's time
        (``asking_zone``)."""
        base = self.asking_zone(zone, attempt.at).settled(attempt.at)
        opponent = (
            puzzle_rating
            if isinstance(puzzle_rating, glicko2.Rating)
            else glicko2.Rating(float(puzzle_rating), PUZZLE_RD)
        )
        rating = glicko2.update(base.rating, [(opponent, 1.0 if attempt.solved else 0.0)])
        recent: tuple[Recent, ...] = (
            Recent(attempt.puzzle, attempt.solved, attempt.at, rating.rating - base.rating.rating),
        )
        ordered = sorted(recent + base.recent, key=lambda item: item.at, reverse=True)
        recent, dropped = tuple(ordered[:RECENT_MAX]), [(item.puzzle, item.solved) for item in ordered[RECENT_MAX:]]
        older = tuple(dropped + list(base.older))[: HISTORY_MAX - RECENT_MAX]
        progress = replace(
            base,
            version=self.version + 1,
            rating=rating,
            solved=base.solved + attempt.solved,
            failed=base.failed + (not attempt.solved),
            recent=recent,
            older=older,
        )
        if attempt.solved and attempt.daily:
            progress = progress._with_daily_solve(attempt.at)
        return progress

    def _with_daily_solve(self, at: int) -> Progress:
        if self.daily_at is not None and at <= self.daily_at:
            return self  # an older attempt applied late (after a crash): the streak has moved past it
        day = self.day(at)
        previous = self.daily_day
        if previous is not None and day <= previous:
            streak = max(self.streak, 1)  # the same day: one streak day per day
        elif previous == day - 1:
            streak = self.streak + 1
        else:
            streak = 1
        return replace(self, streak=streak, best_streak=max(self.best_streak, streak), daily_at=at, daily_day=day)


def next_midnight(now: float, zone: str) -> int:
    """The first local midnight of ``zone`` after ``now`` (the start of the next local date)."""
    place = ZoneInfo(zone)
    tomorrow = datetime.fromtimestamp(now, tz=place).date() + timedelta(days=1)
    # Where a daylight-saving change skips midnight, this is the first instant of that date.
    return int(datetime.combine(tomorrow, time(), tzinfo=place).timestamp())


def first_midnight(at: int, zone: str) -> int:
    """The first local midnight of ``zone`` at or after ``at``."""
    if local_date(at, zone) != local_date(at - 1, zone):
        return at
    return next_midnight(at, zone)


def local_date(seconds: float, zone: str) -> date:
    return datetime.fromtimestamp(seconds, tz=ZoneInfo(zone)).date()


def utc_date(seconds: float) -> date:
    return datetime.fromtimestamp(seconds, tz=UTC).date()
