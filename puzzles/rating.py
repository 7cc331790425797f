"""How hard a puzzle is (``difficulty``), and the starting rating read from it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared_rules.draughts.engine import RawMove, State

from .judge import Judge
from .settings import Settings


@dataclass(frozen=True)
class Facts:
    seen_at: int  # the shallowest search depth at which the first move is seen to win
    effort: int  # nodes a fresh search spends before it settles on the first move for good
    tempting: int  # other moves that look at least as good to a one-ply look
    sacrifice: bool  # the solver gives material before winning more
    quiet_start: bool  # the first move neither captures nor gives anything: a threat to see
    solver_moves: int
    legal_moves: int


def facts_of(judge: Judge, state: State, line: list[RawMove], settings: Settings) -> Facts:
    target = judge.threshold(judge.base(state))
    first = line[0]
    seen_at = next((d for d in range(1, settings.depth) if judge.reaches(state, first, target, d)), settings.depth)
    moves = judge.model.moves(state)
    glance = {move: judge.score(state, move, 1) for move in moves}
    tempting = sum(1 for move in moves if move != first and glance[move] >= glance[first])
    sacrifice = False
    if len(line) >= 2:
        after = judge.engine.play(judge.engine.play(state, line[0]), line[1])
        gave = judge.model.material(after) - judge.model.material(state)
        sacrifice = (gave if state.turn == 0 else -gave) < 0
    return Facts(
        seen_at,
        search_effort(judge, state, first, settings),
        tempting,
        sacrifice,
        not first.captured and not sacrifice,
        (len(line) + 1) // 2,
        len(moves),
    )


def search_effort(judge: Judge, state: State, first: RawMove, settings: Settings) -> int:
    """Nodes spent by fresh searches 1, 2, ... plies deep until every deeper one (up to the
    judge's depth) prefers ``first``: a measure of how well the win is hidden."""
    spent = []
    chosen = []
    for depth in range(1, settings.depth + 1):
        judge.searcher.clear()
        result = judge.searcher.search(state, max_depth=depth, node_limit=settings.node_limit)
        spent.append(result.nodes)
        chosen.append(result.move == first)
    settled = len(chosen)
    while settled > 0 and chosen[settled - 1]:
        settled -= 1
    return max(1, sum(spent[: settled + 1]))


def difficulty(facts: Facts) -> float:
    """How hard the first move is to find, on an open scale: each thing that hides it adds."""
    return (
        250 * (facts.seen_at - 1)
        + 150 * (facts.solver_moves - 1)
        + 50 * min(facts.tempting, 5)
        + (300 if facts.sacrifice else 0)
        + (250 if facts.quiet_start else 0)
        + 10 * min(max(facts.legal_moves - 2, 0), 10)
        + 150 * math.log2(facts.effort)
    )


# Difficulty (left) to rating (right), piecewise linear: the knots are the tenths of the difficulty
# of a set (``--fit-ratings``), so a set spreads over 600-2400 while keeping the order of
# ``difficulty``. Fixed here, so that a puzzle's rating depends only on the puzzle. These were fitted
# on the first 300 English puzzles of a run, and (Tanzanian) on the 1,500 of 2026-12-02 by the tie-aware fit.
RATING_KNOTS = {
    "english": (
        (248, 600),
        (441, 800),
        (935, 1000),
        (1096, 1200),
        (1158, 1400),
        (1213, 1600),
        (1328, 1800),
        (1709, 2000),
        (1953, 2200),
        (3379, 2400),
    ),
    "tanzanian": (
        (248, 600),
        (581, 800),
        (748, 1000),
        (998, 1200),
        (1141, 1400),
        (1229, 1600),
        (1398, 1800),
        (2025, 2000),
        (2302, 2200),
        (3077, 2400),
    ),
}


def fit_knots(difficulties: list[int]) -> tuple[tuple[int, int], ...]:
    """Knots that spread these difficulties evenly over 600-2400, one 200-point band in each ninth of them.

    A knot's difficulty is rated exactly at its band's lower edge, so each inner knot is the first of a
    group of equal difficulties: a group is never split, it lands whole in one band. The eight inner knots
    are chosen (by dynamic programming over the groups) so that the fullest band holds as few puzzles as
    can be, each knot far enough from the difficulty below it that ``rating_of``'s rounding rates that one
    under the edge. The first knot is the easiest puzzle, the last the hardest."""
    ordered = sorted(difficulties)
    count = len(ordered)
    firsts: dict[int, int] = {}  # each difficulty and the index of its first puzzle
    for index, value in enumerate(ordered):
        firsts.setdefault(value, index)
    values = list(firsts)
    below = dict(zip(values[1:], values))  # each difficulty and the one before it
    inner = [value for value in values[1:] if value < ordered[-1]]
    # fullest[value]: the fullest band so far when the band being filled starts at ``value``; ``came`` the
    # knot before it. Each round of the loop adds one band's edge.
    fullest: dict[int, int] = {ordered[0]: 0}
    came: list[dict[int, int]] = []
    for _ in range(8):
        after: dict[int, int] = {}
        back: dict[int, int] = {}
        for value in inner:
            for start, worst in fullest.items():
                if start < value and 400 * (value - below[value]) >= value - start:
                    size = max(worst, firsts[value] - firsts[start])
                    if size < after.get(value, count + 1):
                        after[value], back[value] = size, start
        if not after:
            break  # too few distinct difficulties for nine bands: fewer knots
        fullest = after
        came.append(back)
    last = min(fullest, key=lambda start: (max(fullest[start], count - firsts[start]), start))
    chosen = [last]
    for back in reversed(came):
        chosen.append(back[chosen[-1]])
    edges = list(reversed(chosen))  # the first is the easiest puzzle
    return (*((value, 600 + 200 * band) for band, value in enumerate(edges)), (ordered[-1], 2400))


def rating_of(game: str, value: float, knots: tuple[tuple[int, int], ...] | None = None) -> int:
    """A Lichess-like starting rating, 600 to 2400, from the ``difficulty`` (players' results then move it)."""
    knots = knots or RATING_KNOTS[game]
    if value <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
        if value <= x1:
            return round(y0 + (y1 - y0) * (value - x0) / (x1 - x0))
    return knots[-1][1]


def band_of(rating: int) -> int:
    """The 200-point band of a rating: 600-799 is 600, ..., 2200-2400 is 2200."""
    return min(rating, 2399) // 200 * 200
