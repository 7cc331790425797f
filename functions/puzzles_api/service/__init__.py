"""Puzzles: the daily puzzle, puzzles by id, the next puzzle for a player, attempts and progress.

Puzzles come from the sets in ``puzzles/`` (read once per process); the answer to an attempt is checked
here on the server (``check``). With a token, the first finished attempt at a puzzle counts for the
player's rating, counts and streak (``progress``). What an attempt with a token costs (docs/puzzles.md):

1. one read: the player's item, which checks the token and holds the progress;
2. the first attempt: one conditional write of the attempt (``attribute_not_exists``: the lock that
   makes only the first attempt count, even when two arrive at once), then the new progress (a write
   conditional on its version: two attempts at different puzzles at once both count, one after the
   other), then one of the puzzle's sharded counters;
3. a later attempt at a puzzle among the player's ten most recent: nothing more; at an older one, the
   refused conditional write and one read to see whether that attempt was ever applied.

A crash between the attempt's write and the progress write leaves an attempt that counts but is not yet
in the progress; the client's retry (or any later attempt at the same puzzle) finds it and applies it.
Time is read from an injected clock.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta

from aws_lambda_powertools import Logger
from common.persistence.attributes import Record
from common.persistence.store import StoreUnavailable
from common.players.service import Player, Players
from common.ratings import glicko2
from common.web import metrics
from common.web.timezones import is_allowed_zone

from puzzles.catalog import Puzzle, find, load
from puzzles_api.domain import (
    Caller,
    Daily,
    InvalidDate,
    InvalidTheme,
    InvalidTimeZone,
    NoPuzzleLeft,
    PuzzleNotFound,
)
from puzzles_api.domain import daily as daily_choice
from puzzles_api.domain.check import Verdict, judge
from puzzles_api.domain.progress import HISTORY_MAX, Attempt, Progress, utc_date
from puzzles_api.domain.puzzle_rating import CACHE_SECONDS, PuzzleRating, game_terms
from puzzles_api.repository import (
    COUNTER_SHARDS,
    PuzzleProgressRepository,
    progress_of,
    read_progress,
    save_progress,
)
from shared_rules.names import GAME_NAMES

logger = Logger()

#: A puzzle id: the game, a dash, and the puzzle's own id (Lichess ids are case-sensitive).
PUZZLE_ID = re.compile(rf"({'|'.join(GAME_NAMES)})-[A-Za-z0-9_-]{{1,40}}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,3}")
TIME_ZONE_MAX_CHARS = 64
#: How far from the player's rating ``next`` looks, widening step by step until it finds an untried puzzle.
NEXT_WINDOWS = (100, 200, 400, 800)
#: How often a progress write may lose to another request of the same player before the answer is a 503
#: (the attempt is kept: the client's retry applies it). Each round one writer wins, so ten covers ten
#: requests of one player finishing at the same moment; a person does not get near that.
SAVE_TRIES = 10
#: A stored first attempt younger than this may still be on its way to the rating through its own request.
IN_FLIGHT_SECONDS = 60
DAY_SECONDS = 86_400
#: The most puzzles one ``pack`` request gives (the offline pack keeps 20 per game).
PACK_MAX = 20
#: Themes that say how long a puzzle is, not what it is about: not offered as a filter.
LENGTH_THEMES = frozenset({"short", "long", "veryLong", "very_long", "one_move", "oneMove"})
_THEME = re.compile(r"[A-Za-z_]{1,40}")


def time_zone(name: str | None) -> str | None:
    """The IANA time zone name, checked (``Africa/Dar_es_Salaam``, ``Asia/Manila``, ``UTC``); None stays None."""
    if name is None:
        return None
    if len(name) > TIME_ZONE_MAX_CHARS or not _TIME_ZONE.fullmatch(name):
        raise InvalidTimeZone(
            f"{name[:TIME_ZONE_MAX_CHARS]!r} is not a time zone; send an IANA name such as Asia/Manila"
        )
    if not is_allowed_zone(name):  # the IANA list, without posix/, right/, localtime, posixrules, Factory
        raise InvalidTimeZone(f"there is no time zone {name!r}; send an IANA name such as Africa/Nairobi")
    return name


def puzzle_view(puzzle: Puzzle, rating: glicko2.Rating | None = None) -> Record:
    """A puzzle as a player sees it before solving: never the solution. ``rating``: its current rating."""
    view = puzzle.public()
    if rating is not None:
        view["rating"] = round(rating.rating)
    return view


def game_themes(game: str) -> set[str]:
    """The themes a filter may ask for in ``game``: every theme of its set but the length tags."""
    return {theme for puzzle in load(game) for theme in puzzle.themes} - LENGTH_THEMES


def caller_of(player: Player) -> Caller:
    """The player and the progress on the item its token was checked against: no second read."""
    return player, progress_of(player)


#: The puzzles' ratings a process has read: puzzle id -> (the rating read, when).
RatingsSeen = dict[str, tuple[PuzzleRating, float]]


class PuzzleService:
    def __init__(
        self,
        players: Players,
        store: PuzzleProgressRepository,
        clock: Callable[[], float] = time.time,
        ratings_seen: RatingsSeen | None = None,
    ):
        self.players = players
        self.store = store
        self.clock = clock
        self._ratings: RatingsSeen = {} if ratings_seen is None else ratings_seen

    # -- reading puzzles ----------------------------------------------------------------------------------
    def daily(self, game: str, day_text: str | None) -> Daily:
        """The daily puzzle of ``game`` today (UTC) or on ``day_text`` (YYYY-MM-DD, from the first one to today)."""
        now = self.clock()
        today = utc_date(now)
        day = today if day_text is None else _parse_date(day_text)
        if day < daily_choice.EPOCH:
            raise InvalidDate(f"the first daily puzzle is the one of {daily_choice.EPOCH.isoformat()}")
        if day > today:
            raise InvalidDate(
                f"the daily puzzle of {day.isoformat()} is not out yet; today (UTC) is {today.isoformat()}"
            )
        if day == today:
            end_of_day = datetime.combine(today + timedelta(days=1), datetime.min.time(), tzinfo=UTC).timestamp()
            max_age = max(int(end_of_day - now), 1)
        else:
            max_age = DAY_SECONDS
        return Daily(daily_choice.daily_puzzle(game, day), day, max_age)

    def puzzle(self, puzzle_id: str) -> Puzzle:
        puzzle = find(puzzle_id) if PUZZLE_ID.fullmatch(puzzle_id or "") else None
        if puzzle is None:
            raise PuzzleNotFound(f"there is no puzzle {puzzle_id[:60]!r}")
        return puzzle

    def next_puzzle(self, caller: Caller, game: str, theme: str | None = None) -> Puzzle:
        """A puzzle of ``game`` (with ``theme``, if given) the player has never finished, as near the player's
        rating as there is (``next_puzzles``)."""
        return self.next_puzzles(caller, game, theme, 1)[0]

    def next_puzzles(self, caller: Caller, game: str, theme: str | None, count: int) -> list[Puzzle]:
        """``count`` puzzles of ``game`` the player has never finished, nearest the player's rating first.

        The puzzles within 100 points come first, then within 200, 400, 800, then any; inside each window
        the order is a hash of (player, puzzle), so players get different puzzles and each player the same
        ones until they are played. One Query lists the puzzles the player has tried in the game.
        ``theme`` keeps only the puzzles with that theme (a 422 for a theme the game has no puzzle of).
        """
        player, progress = caller
        if theme is not None and (not _THEME.fullmatch(theme) or theme not in game_themes(game)):
            raise InvalidTheme(f"no {game} puzzle has the theme {theme[:40]!r}")
        rating = progress.rating.rating
        tried = self.store.attempted(player.player_id, f"{game}-")
        pool = [puzzle for puzzle in load(game) if theme is None or theme in puzzle.themes]
        chosen: list[Puzzle] = []
        for window in _windows(pool, rating):
            untried = [puzzle for puzzle in window if puzzle.id not in tried]
            chosen += sorted(untried, key=lambda puzzle: _order(player.player_id, puzzle.id))[: count - len(chosen)]
            if len(chosen) == count:
                break
        if not chosen:
            kind = f"{game} puzzle with the theme {theme}" if theme else f"{game} puzzle"
            raise NoPuzzleLeft(f"you have played every {kind} there is; well done")
        return chosen

    # -- puzzle ratings -----------------------------------------------------------------------------------
    def rating_of(self, puzzle: Puzzle) -> glicko2.Rating:
        """The puzzle's rating as this process last read it (its set rating before): no read."""
        known = self._ratings.get(puzzle.id)
        return (known[0] if known else PuzzleRating.start(puzzle.rating)).rating

    def served_rating(self, puzzle: Puzzle) -> glicko2.Rating:
        """The puzzle's rating as it is served: read (and folded, when a period is over) at most once per
        ``CACHE_SECONDS`` per process; the last known one when the store does not answer."""
        now = self.clock()
        known = self._ratings.get(puzzle.id)
        if known and now - known[1] < CACHE_SECONDS:
            return known[0].rating
        try:
            current = self._fold(puzzle, int(now))
        except StoreUnavailable:
            logger.warning("a puzzle rating was not read", extra={"puzzle": puzzle.id})
            return self.rating_of(puzzle)
        self._ratings[puzzle.id] = (current, now)
        return current.rating

    def _fold(self, puzzle: Puzzle, now: int) -> PuzzleRating:
        found, totals = self.store.rating_state(puzzle.id)
        stored = found or PuzzleRating.start(puzzle.rating)
        folded = stored.folded_with(totals, now)
        if folded is None:
            return stored
        saved = self.store.save_rating(puzzle.id, folded, stored.folded.plays if found else None)
        return saved or stored  # None: another process folded the same games first; its rating is read next time

    def view(self, puzzle: Puzzle) -> Record:
        return puzzle_view(puzzle, self.served_rating(puzzle))

    # -- attempts -----------------------------------------------------------------------------------------
    def attempt(self, puzzle_id: str, moves: list[str], caller: Caller | None, zone: str | None) -> Record:
        """Check the solver's moves; with a caller, a finished first attempt counts for its progress.

        The solution comes only with a ``failed`` answer to a player whose first finished attempt at this
        puzzle, stored before this answer is built, was a failure (docs/puzzles.md, "Rating integrity").
        """
        puzzle = self.puzzle(puzzle_id)
        verdict = judge(puzzle, moves)
        if verdict.final:
            metrics.puzzle_attempt(verdict.result == "solved")
        answer = _answer(puzzle, verdict)
        if caller is None or not verdict.final:
            return answer
        player, progress = caller
        progress, first, change = self._record(player, progress, puzzle, verdict, zone)
        if verdict.result == "failed" and not first.solved:
            answer["solution"] = list(puzzle.solution)
        return {
            **answer,
            "rated": change is not None,
            "rating": round(progress.rating.rating, 2),
            "rating_change": round(change or 0.0, 2),
        }

    def _record(
        self, player: Player, progress: Progress, puzzle: Puzzle, verdict: Verdict, zone: str | None
    ) -> tuple[Progress, Attempt, float | None]:
        """Store a finished attempt if it is the player's first at the puzzle: (progress, the first attempt as
        stored, rating change), the change None when this attempt did not count. Of first attempts at once,
        the one stored counts. A request with another answer never applies it while its own request may still
        be running (``IN_FLIGHT_SECONDS``), nor says ``rated`` for it: each reply carries its own result."""
        counted = progress.recent_attempt(puzzle.id)
        if counted is not None:
            return progress, counted, None  # played before, and counted: the common replay costs no write
        now = int(self.clock())
        attempt = Attempt(puzzle.id, verdict.result == "solved", now, self._is_daily(puzzle, now))
        stored_here = self.store.record_first_attempt(player.player_id, attempt)
        if not stored_here:
            stored = self.store.get_attempt(player.player_id, puzzle.id)
            if stored is None:  # unreachable unless the item was deleted: show nothing, count nothing
                return progress, Attempt(puzzle.id, True, now, False), None
            attempt = stored
            if not progress.is_pending(attempt):
                return progress, attempt, None
            if attempt.solved != (verdict.result == "solved") and now - attempt.at < IN_FLIGHT_SECONDS:
                return progress, attempt, None  # another answer at once: its own request applies it
            logger.info("applying an attempt a stopped request left", extra={"puzzle": puzzle.id})
        opponent = self.rating_of(puzzle)
        before = progress.rating
        progress, change = self._apply(player, progress, attempt, opponent, zone)
        if change is not None:
            self._count(puzzle, attempt, opponent, before)
        mine = stored_here or attempt.solved == (verdict.result == "solved")  # else another answer's attempt
        return progress, attempt, change if mine else None

    def _count(self, puzzle: Puzzle, attempt: Attempt, opponent: glicko2.Rating, player: glicko2.Rating) -> None:
        """Add the attempt to one of the puzzle's counter shards, with its Glicko-2 terms for the puzzle's
        rating (``puzzle_rating``). A failure here does not fail the attempt: the puzzle's rating misses one
        game."""
        info, gain = game_terms(opponent, player, attempt.solved)
        try:
            self.store.count_play(puzzle.id, attempt.solved, secrets.randbelow(COUNTER_SHARDS), info, gain)
        except StoreUnavailable:
            logger.warning("a puzzle counter was not updated", extra={"puzzle": puzzle.id})

    def _apply(
        self, player: Player, progress: Progress, attempt: Attempt, opponent: glicko2.Rating, zone: str | None
    ) -> tuple[Progress, float | None]:
        """Write the progress with the attempt in it, reading again when another request wrote first."""
        for _ in range(SAVE_TRIES):
            updated = progress.after(attempt, opponent, zone)
            if save_progress(self.players.store, player.token_hash, updated, progress.version):
                return updated, updated.rating.rating - progress.rating.rating
            found = read_progress(self.players.store, player.token_hash)
            if found is None:  # the player is gone; nothing to apply to
                return progress, None
            progress = found
            if progress.has_recent(attempt.puzzle):
                return progress, None  # a concurrent retry of this very attempt applied it
        raise StoreUnavailable("many requests changed your progress at once; send the attempt again")

    def _is_daily(self, puzzle: Puzzle, now: float) -> bool:
        """Whether ``puzzle`` is the daily puzzle of its game today (UTC) or was yesterday."""
        today = utc_date(now)
        for day in (today, today - timedelta(days=1)):
            if day >= daily_choice.EPOCH and daily_choice.daily_puzzle(puzzle.game, day).id == puzzle.id:
                return True
        return False

    # -- progress -----------------------------------------------------------------------------------------
    def progress(self, caller: Caller, zone: str | None) -> Record:
        """The player's rating, counts, streak and recent attempts.

        ``zone``, when it differs from the player's, is asked for (one conditional write): in effect at once
        before the first streak day, else from the player's next day (``Progress.asking_zone``).
        """
        player, progress = caller
        now = self.clock()
        updated = progress.asking_zone(zone, now)
        saved = updated is not progress and save_progress(
            self.players.store, player.token_hash, updated, progress.version
        )
        if saved:
            progress = updated
        current = progress.settled(now)
        return {
            "rating": round(progress.rating.rating, 2),
            "rating_deviation": round(progress.rating.rd, 2),
            "volatility": round(progress.rating.volatility, 6),
            "solved": progress.solved,
            "failed": progress.failed,
            "streak": progress.current_streak(now),
            "best_streak": progress.best_streak,
            "tz": current.zone,
            "tz_next": current.tz_next,
            "tz_from": _iso(current.tz_from) if current.tz_from is not None else None,
            "recent": [
                {
                    "id": item.puzzle,
                    "game": item.puzzle.split("-", 1)[0],
                    "result": "solved" if item.solved else "failed",
                    "at": _iso(item.at),
                    "rating_change": round(item.rating_change, 2),
                }
                for item in progress.recent
            ],
            "history": [
                {"id": puzzle, "game": puzzle.split("-", 1)[0], "result": "solved" if solved else "failed"}
                for puzzle, solved in progress.history()[:HISTORY_MAX]
            ],
        }


def _parse_date(text: str) -> date:
    if not _DATE.fullmatch(text):
        raise InvalidDate(f"{text[:20]!r} is not a date; write it as YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidDate(f"there is no day {text!r}") from None


def _answer(puzzle: Puzzle, verdict: Verdict) -> Record:
    """The verdict as answered to anyone: never the solution (``attempt`` adds it for a player who earned it)."""
    answer: Record = {"result": verdict.result, "reply": verdict.reply, "solution": None, "source": None}
    if verdict.final:
        answer["source"] = puzzle.source
    return answer


def _windows(puzzles: Iterable[Puzzle], rating: float) -> list[list[Puzzle]]:
    """The puzzles in rings around ``rating``: within 100 points, then 100 to 200 away, and so on."""
    rings: list[list[Puzzle]] = [[] for _ in range(len(NEXT_WINDOWS) + 1)]
    for puzzle in puzzles:
        distance = abs(puzzle.rating - rating)
        ring = next((index for index, width in enumerate(NEXT_WINDOWS) if distance <= width), len(NEXT_WINDOWS))
        rings[ring].append(puzzle)
    return rings


def _order(player_id: str, puzzle_id: str) -> bytes:
    return hashlib.sha256(f"{player_id}:{puzzle_id}".encode()).digest()


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
