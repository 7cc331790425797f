"""A player's puzzle progress: rating, counts, streak and recent attempts. A value; pure.

It is kept in the player's item (attribute ``puzzles``, see ``common.store``) as a small map, so the read
that checks the player's token also brings the progress. ``v`` is its version: every change writes
version v + 1 on the condition that the stored one is still v (optimistic concurrency).

**Ratings.** Glicko-2 (``glicko2``), starting at 1500, deviation 350, volatility 0.06. Each *first*
finished attempt at a puzzle is one rating period with one game against the puzzle, whose rating is
fixed and whose deviation is ``PUZZLE_RD``: a solve is a win, a failure a loss. Later attempts change
nothing.

**Streak.** A *daily solve* is a first attempt that solved the puzzle while it was the daily puzzle of its
game: on the UTC date of the daily puzzle or the next UTC day (so a puzzle opened just before midnight UTC
still counts). Each daily solve falls on a date in the player's time zone: the one sent with the attempt,
else the last one the player sent to a puzzles route, else UTC. ``streak`` is the number of dates in a row,
ending with the date of the latest daily solve, that each have a daily solve: a daily solve on the same
date as the previous one leaves it as it is, one on the next date adds one, a later one starts again at 1.
(The previous solve's date is taken in the time zone of the new one, so moving to another zone moves that
date, never the count.) The streak shown is 0 once a whole date has passed without a daily solve: when the
latest daily solve is neither today nor yesterday in the time zone of the request. ``best_streak`` is the
longest streak ever.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from puzzles_api import glicko2

#: The rating deviation every puzzle is taken to have. Puzzle ratings are fixed (Lichess's, or the
#: generator's estimate), so this says how far off they may be; it weighs a result less than a result
#: against an exactly known opponent would (Glicko's g factor is 0.98 here).
PUZZLE_RD = 60.0
#: How many attempts ``recent`` keeps (newest first).
RECENT_MAX = 10
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
    tz: str | None = None  # the player's time zone, as last sent
    recent: tuple[Recent, ...] = ()

    # -- storage ------------------------------------------------------------------------------------------
    @classmethod
    def from_record(cls, record: dict | None) -> Progress:
        if not record:
            return cls()
        return cls(
            version=int(record["v"]),
            rating=glicko2.Rating(float(record["rating"]), float(record["rd"]), float(record["vol"])),
            solved=int(record.get("solved", 0)),
            failed=int(record.get("failed", 0)),
            streak=int(record.get("streak", 0)),
            best_streak=int(record.get("best", 0)),
            daily_at=record.get("daily_at"),
            tz=record.get("tz"),
            recent=tuple(
                Recent(puzzle, bool(solved), int(at), float(change)) for puzzle, solved, at, change in record["recent"]
            ),
        )

    def to_record(self) -> dict:
        """The stored map (short names and lists keep it small: well under 1 KB with ten recent attempts)."""
        return {
            "v": self.version,
            "rating": self.rating.rating,
            "rd": self.rating.rd,
            "vol": self.rating.volatility,
            "solved": self.solved,
            "failed": self.failed,
            "streak": self.streak,
            "best": self.best_streak,
            "daily_at": self.daily_at,
            "tz": self.tz,
            "recent": [[item.puzzle, int(item.solved), item.at, round(item.rating_change, 2)] for item in self.recent],
        }

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

    def current_streak(self, now: float, zone: str) -> int:
        """The streak as of ``now`` in ``zone``: 0 once a whole date has passed without a daily solve."""
        if self.daily_at is None:
            return 0
        today = local_date(now, zone)
        return self.streak if local_date(self.daily_at, zone) >= today - timedelta(days=1) else 0

    # -- changes ------------------------------------------------------------------------------------------
    def after(self, attempt: Attempt, puzzle_rating: int, zone: str | None = None) -> Progress:
        """The progress once ``attempt`` (a first attempt at a puzzle rated ``puzzle_rating``) is applied."""
        zone = zone or self.tz or UTC_NAME
        opponent = glicko2.Rating(float(puzzle_rating), PUZZLE_RD)
        rating = glicko2.update(self.rating, [(opponent, 1.0 if attempt.solved else 0.0)])
        recent = (Recent(attempt.puzzle, attempt.solved, attempt.at, rating.rating - self.rating.rating),)
        recent = tuple(sorted(recent + self.recent, key=lambda item: item.at, reverse=True))[:RECENT_MAX]
        progress = replace(
            self,
            version=self.version + 1,
            rating=rating,
            solved=self.solved + attempt.solved,
            failed=self.failed + (not attempt.solved),
            tz=zone,
            recent=recent,
        )
        if attempt.solved and attempt.daily:
            progress = progress._with_daily_solve(attempt.at, zone)
        return progress

    def with_tz(self, zone: str) -> Progress:
        return replace(self, version=self.version + 1, tz=zone)

    def _with_daily_solve(self, at: int, zone: str) -> Progress:
        if self.daily_at is not None and at <= self.daily_at:
            return self  # an older attempt applied late (after a crash): the streak has moved past it
        day = local_date(at, zone)
        previous = local_date(self.daily_at, zone) if self.daily_at is not None else None
        if previous == day:
            streak = max(self.streak, 1)
        elif previous == day - timedelta(days=1):
            streak = self.streak + 1
        else:
            streak = 1
        return replace(self, streak=streak, best_streak=max(self.best_streak, streak), daily_at=at)


def local_date(seconds: float, zone: str) -> date:
    return datetime.fromtimestamp(seconds, tz=ZoneInfo(zone)).date()


def utc_date(seconds: float) -> date:
    return datetime.fromtimestamp(seconds, tz=UTC).date()
