"""The daily puzzle of each game: the same for everyone on a UTC date, never repeated within 366 days. Pure.

Each game has a **pool**: its puzzles rated inside the daily band (``DAILY_BANDS``), easy enough for most
players and still a puzzle, sorted by id. The days from ``EPOCH`` are cut into **cycles** of as many days
as the pool has puzzles; every cycle shows each puzzle of the pool once, in an order drawn from a hash of
(game, cycle, day), so the order is the same on every machine and every Python version.

Across the seam between two cycles, a puzzle shown late in one cycle must not come back early in the
next. Cycle k+1 is drawn from cycle k: on its day j it picks among the puzzles not yet shown in the cycle
whose day in cycle k was at most j + slack (slack = pool size - gap, the gap being 366 days or half the
pool, whichever is more). A puzzle shown on day i of cycle k thus comes back no earlier than day
i - slack of cycle k+1, that is at least pool - slack = gap days later;
the choice is never empty (on day j the puzzles of days 0..j+slack of cycle k are eligible, and only j of
them are used). The pools hold 366 puzzles or more (tests/puzzles_api/test_daily.py checks it).

A change to the puzzle sets reshuffles the days, past ones included; the puzzle ids stay valid.
"""

from __future__ import annotations

import hashlib
from datetime import date
from functools import lru_cache

from puzzles.catalog import Puzzle, load

#: The first day with a daily puzzle.
EPOCH = date(2025, 1, 1)
#: A puzzle comes back after this many days at the earliest (366: never twice in a calendar year), and
#: after half a cycle at the earliest when the pool is larger (chess: about three years).
MIN_GAP_DAYS = 366
#: The ratings of the puzzles a day may show, per game (inclusive). Chess: Lichess's players rate these
#: as tactics most club players solve in a minute or two. Draughts: the generated sets cluster lower
#: (a one-move shot is 700, a two-move combination about 1200), and the band must hold at least 366.
DAILY_BANDS: dict[str, tuple[int, int]] = {
    "chess": (1000, 1700),
    "english": (700, 1900),
    "tanzanian": (700, 1900),
}


def pool(game: str) -> tuple[Puzzle, ...]:
    """The puzzles a day of ``game`` may show, by id."""
    return _pool(game)


@lru_cache(maxsize=8)
def _pool(game: str) -> tuple[Puzzle, ...]:
    low, high = DAILY_BANDS[game]
    chosen = tuple(sorted((puzzle for puzzle in load(game) if low <= puzzle.rating <= high), key=lambda p: p.id))
    if len(chosen) < MIN_GAP_DAYS:
        raise ValueError(f"the daily band of {game} holds {len(chosen)} puzzles; it needs {MIN_GAP_DAYS} or more")
    return chosen


def daily_puzzle(game: str, day: date) -> Puzzle:
    """The daily puzzle of ``game`` on the UTC date ``day`` (``EPOCH`` or later)."""
    number = (day - EPOCH).days
    if number < 0:
        raise ValueError(f"there are daily puzzles from {EPOCH.isoformat()} on")
    puzzles = _pool(game)
    cycle, index = divmod(number, len(puzzles))
    return puzzles[_cycle_order(game, cycle)[index]]


def min_gap(game: str) -> int:
    """The fewest days between two showings of the same puzzle of ``game``."""
    return max(MIN_GAP_DAYS, len(_pool(game)) // 2)


@lru_cache(maxsize=64)
def _cycle_order(game: str, cycle: int) -> tuple[int, ...]:
    """The pool indexes in the order cycle ``cycle`` shows them."""
    size = len(_pool(game))
    if cycle == 0:
        return _draw(game, 0, tuple(range(size)), slack=size - 1)  # nothing before it: any order
    return _draw(game, cycle, _cycle_order(game, cycle - 1), slack=size - min_gap(game))


def _draw(game: str, cycle: int, previous: tuple[int, ...], slack: int) -> tuple[int, ...]:
    """A new order of ``previous`` in which no element moves more than ``slack`` places earlier."""
    size = len(previous)
    eligible = list(previous[: slack + 1])
    order = []
    for day in range(size):
        pick = _hash(f"{game}:{cycle}:{day}") % len(eligible)
        eligible[pick], eligible[-1] = eligible[-1], eligible[pick]
        order.append(eligible.pop())
        if day + slack + 1 < size:
            eligible.append(previous[day + slack + 1])
    return tuple(order)


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")
