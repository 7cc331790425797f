"""Generate the draughts puzzle sets: positions where exactly one move wins, by a clear margin, found by search.

    python -m puzzles.generate                       # both variants, 1,500 each, the committed settings
    python -m puzzles.generate --games english --count 20 --out /tmp/p
    python -m puzzles.generate --fit-ratings         # print RATING_KNOTS for the committed files
    python -m puzzles.generate --rerate              # rewrite their ratings with RATING_KNOTS

Where the positions come from (``SOURCES``, in turn):

* self-play: game ``i`` gets its own seeded random generator and is played by two shallow searchers
  that now and then play a random move (people miss things too). Whenever the side to move sees a
  gain in its own search, the position goes to the deeper ``Judge``;
* random endings (``puzzles.studies``): a few pieces; for Tanzanian also a flying king that must
  choose where to stop (landing), and three kings against a lone king (countdown).

The judge asks for the solver's moves to be, each, the only winning move (every other move at least
0.6 of a man worse, and again two plies deeper), except that at the last step other moves that
finish the puzzle as well are recorded as alternatives; the opponent answers with the defence its
search prefers, until the gain is on the board or the game is won. No first position has fewer than
three legal moves. Puzzles are rated from how hard the first move is to find, tagged with themes,
and a set is kept spread over its motifs (``Spread``).

The output depends only on the settings and the seed, not on ``--jobs``: sources are examined in
order and the first puzzles found are kept, so a smaller ``--count`` gives a prefix of a larger one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from shared_rules import get_game
from shared_rules.draughts.engine import RawMove, State
from shared_rules.draughts.notation import write_fen
from shared_rules.search import Searcher

from . import studies
from .judge import Judge, Undecided

HERE = Path(__file__).resolve().parent
DRAUGHTS = ("english", "tanzanian")
LICENCE = "GPL-3.0-or-later"
WORST_START = 100  # the solver starts level or at most a man down, never already ahead


@dataclass(frozen=True)
class Settings:
    seed: int = 2024
    depth: int = 4  # plies the judge searches for every answer (captures and lone replies are free)
    confirm_depth: int = 6  # every solver step must also hold this deep
    node_limit: int = 40_000  # per question; a question that needs more is left undecided
    play_depth: int = 2  # the self-play searchers search 1 to this many plies
    play_nodes: int = 400
    blunder_rate: float = 0.15  # chance of a random move instead of the searcher's
    max_plies: int = 160
    max_solver_moves: int = 5
    per_game: int = 3  # at most this many puzzles from one game
    min_legal_moves: int = 3  # two moves or fewer is a coin toss, not a puzzle
    one_move_share: float = 0.2  # at most this share of one-move puzzles (mostly choosing a capture)
    motif_share: float = 0.38  # at most this share of the set on one motif theme (MOTIFS)
    share_slack: int = 2  # ... plus this many, so that the first puzzles are not refused
    study_screen_nodes: int = 3_000
    landing_tries: int = 15  # placements a landing study tries before giving up
    ending_tries: int = 20  # ... and an ending (most random endings hold no win at all)
    countdown_tries: int = 3  # ... and a countdown study (the issue asks for 100 of them)


COMMITTED = Settings()


# ----------------------------------------------------------------- the line of a puzzle


@dataclass(frozen=True)
class Line:
    moves: list[RawMove]  # the solver's and the opponent's moves alternating, the solver's first and last
    end: str  # "game": the opponent cannot move; "material": the gain is on the board, nothing to capture
    alternatives: list[RawMove]  # other moves that win as well at the last step (each ends the line too)


def line_end(judge: Judge, state: State, solver: int, target: int) -> str | None:
    """How the line ends after the solver's move that led to ``state``, or None if it goes on."""
    replies = judge.model.moves(state)
    if not replies:
        return "game"
    if not replies[0].captured and judge.balance(state, solver) >= target:
        return "material"
    return None


def solve(judge: Judge, state: State, settings: Settings) -> Line | None:
    """The puzzle's line from ``state``: the solver's only winning moves and the best defences.

    Where more than one move wins and each of them ends the line at once (the game won, or the gain on
    the board), the best-scoring one is the solution and the others are recorded as alternatives.
    None when some step has no clear winner, or two winners that lead on differently.
    """
    engine = judge.engine
    solver = state.turn
    base = judge.base(state)
    target = judge.threshold(base)
    line: list[RawMove] = []
    for _ in range(settings.max_solver_moves):
        winners = judge.winners(state, base)
        if not winners:
            return None
        ends = [line_end(judge, engine.play(state, move), solver, target) for move in winners]
        if len(winners) > 1:
            if None in ends or 2 * len(winners) > len(judge.model.moves(state)) - 2:
                return None  # winners leading on differently, or a position where most moves win
            ranked = sorted(winners, key=lambda move: -judge.score(state, move, settings.depth))
            return Line([*line, ranked[0]], ends[winners.index(ranked[0])], ranked[1:])
        line.append(winners[0])
        state = engine.play(state, winners[0])
        if ends[0] is not None:
            return Line(line, ends[0], [])
        reply = judge.best_reply(state)
        line.append(reply)
        state = engine.play(state, reply)
    return None


def confirmed(judge: Judge, state: State, line: Line, settings: Settings) -> bool:
    """Each of the solver's steps has the same winners when every answer is searched deeper."""
    base = judge.base(state)
    last = len(line.moves) - 1
    for index, move in enumerate(line.moves):
        if index % 2 == 0:
            wanted = {move, *line.alternatives} if index == last else {move}
            found = judge.winners(state, base, depth=settings.confirm_depth)
            if found is None or set(found) != wanted:
                return False
        state = judge.engine.play(state, move)
    return True


# ----------------------------------------------------------------- rating and themes


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
# on the first 300 English and 100 Tanzanian puzzles of a run; fit them again on the full sets.
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
        (610, 800),
        (859, 1000),
        (1108, 1200),
        (1195, 1400),
        (1319, 1600),
        (1801, 1800),
        (2231, 2000),
        (2906, 2200),
        (3564, 2400),
    ),
}


def fit_knots(difficulties: list[int]) -> tuple[tuple[int, int], ...]:
    """Knots that spread these difficulties evenly over 600-2400: the tenths of their distribution."""
    ordered = sorted(difficulties)
    last = len(ordered) - 1
    return tuple((ordered[round(last * tenth / 9)], 600 + 200 * tenth) for tenth in range(10))


def rating_of(game: str, value: float, knots: tuple[tuple[int, int], ...] | None = None) -> int:
    """A Lichess-like starting rating, 600 to 2400, from the ``difficulty`` (players' results then move it)."""
    knots = knots or RATING_KNOTS[game]
    if value <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
        if value <= x1:
            return round(y0 + (y1 - y0) * (value - x0) / (x1 - x0))
    return knots[-1][1]


def themes_of(judge: Judge, state: State, line: Line, facts: Facts) -> list[str]:
    """Theme tags, in the spirit of Lichess's, for draughts. One of ``game_win``, ``promotion`` and
    ``material`` (and ``countdown``) says what the puzzle asks for: its goal."""
    moves = line.moves
    themes = set()
    if line.end == "game":
        themes.add("game_win")
    elif moves[-1].crowned:
        themes.add("promotion")  # the last move crowns: the gain is (or comes with) the new king
    else:
        themes.add("material")
    pieces = state.white | state.black
    if (pieces & ~state.kings).bit_count() <= 2 and state.kings:
        themes.add("king_endgame")
    elif pieces.bit_count() <= 8:
        themes.add("endgame")
    if facts.sacrifice:
        themes.add("sacrifice")
    if moves[0].captured:
        themes.add("capture_choice")
    elif facts.quiet_start:
        themes.add("quiet_move")
    position = state
    for index, move in enumerate(moves):
        if index % 2 == 0:
            if move.crowned:
                themes.add("breakthrough")
            if move.captured.bit_count() >= 2 and index > 0 and moves[index - 1].captured:
                themes.add("shot")  # the opponent took, and the solver takes two or more back
            if move.captured.bit_count() >= 3:
                themes.add("multi_capture")
            alternatives = line.alternatives if index == len(moves) - 1 else []
            if judge.engine.flying and stops_matter(judge, position, move, alternatives):
                themes.add("landing")
        if judge.model.lone_king_draws and _three_kings_against_one(position):
            themes.add("countdown")
        position = judge.engine.play(position, move)
    length = facts.solver_moves
    themes.add("one_move" if length == 1 else "short" if length == 2 else "long" if length == 3 else "very_long")
    return sorted(themes)


def stops_matter(judge: Judge, state: State, move: RawMove, alternatives: Iterable[RawMove] = ()) -> bool:
    """A flying king's move that could have stopped elsewhere on the same way (the same pieces taken,
    or none, and the same squares passed), where stopping there is not among the ``alternatives``."""
    if not (state.kings >> move.origin) & 1:
        return False
    return any(
        other.origin == move.origin
        and other.captured == move.captured
        and other.destination != move.destination
        and other not in alternatives
        and other.path[:-1] == move.path[:-1]
        and (move.captured or _same_ray(judge, move.origin, move.destination, other.destination))
        for other in judge.model.moves(state)
    )


def _same_ray(judge: Judge, origin: int, one: int, two: int) -> bool:
    return any(one in ray and two in ray for ray in judge.engine.rays[origin])


def _three_kings_against_one(state: State) -> bool:
    white, black, kings, _ = state
    return sorted((white.bit_count(), black.bit_count())) == [1, 3] and not (white | black) & ~kings


# ----------------------------------------------------------------- a puzzle


def make_puzzle(judge: Judge, state: State, settings: Settings, source: str) -> dict | None:
    """The puzzle at ``state`` (the solver to move), or None if it is not one."""
    if len(judge.model.moves(state)) < settings.min_legal_moves:
        return None  # two moves or fewer: a coin toss, not a puzzle
    try:
        line = solve(judge, state, settings)
        if line is None or not confirmed(judge, state, line, settings):
            return None
        facts = facts_of(judge, state, line.moves, settings)
    except Undecided:
        return None
    rules = get_game(judge.game)
    fen = write_fen(rules.squares, state)
    position = rules.from_fen(fen)
    solution = []
    alternatives = []
    for index, move in enumerate(line.moves):
        if index == len(line.moves) - 1:
            alternatives = sorted(position.notation(other) for other in line.alternatives)
        solution.append(position.notation(move))
        position = position.play(move)
    digest = hashlib.sha1(f"{judge.game}|{fen}|{' '.join(solution)}".encode()).hexdigest()[:10]
    puzzle = {
        "id": f"{judge.game}-{digest}",
        "game": judge.game,
        "fen": fen,
        "solution": solution,
        "rating": rating_of(judge.game, round(difficulty(facts))),
        "themes": themes_of(judge, state, line, facts),
        "source": source,
        "licence": LICENCE,
    }
    if alternatives:
        # One list per solver move; only the last can have any (a move that also ends the puzzle won).
        puzzle["alternatives"] = [[] for _ in solution[::2]][:-1] + [alternatives]
    puzzle["difficulty"] = round(difficulty(facts))
    return puzzle


def _worth_judging(judge: Judge, state: State, moves: list[RawMove], seen_score: int) -> bool:
    """Cheap filters before the judge: a choice to make, a level start, and a gain in sight."""
    balance = judge.balance(state, state.turn)
    return (
        len(moves) >= COMMITTED.min_legal_moves
        and -WORST_START <= balance <= 0
        and seen_score >= judge.threshold(0) - 20
    )


# ----------------------------------------------------------------- self-play


def examine_game(game: str, index: int, settings: Settings) -> list[dict]:
    """Play self-play game ``index`` and return the puzzles found in it, in the order of its plies."""
    rng = random.Random(f"{settings.seed}:{game}:{index}")
    judge = Judge(game, depth=settings.depth, node_limit=settings.node_limit)
    model, engine = judge.model, judge.engine
    player = Searcher(model, table_limit=100_000)
    state = engine.start_state()
    opening = rng.randint(2, 8)
    decisive_lead = 3 * model.weights.man + model.weights.king - model.weights.man
    found: list[dict] = []
    last_ply = -10
    for ply in range(settings.max_plies):
        moves = model.moves(state)
        if not moves:
            break
        if ply < opening:
            move = rng.choice(moves)
        else:
            seen = player.search(state, max_depth=rng.randint(1, settings.play_depth), node_limit=settings.play_nodes)
            if (
                len(found) < settings.per_game
                and ply - last_ply > 2
                and _worth_judging(judge, state, moves, seen.score)
            ):
                source = f"ubao self-play (seed {settings.seed}, game {index}, ply {ply})"
                puzzle = make_puzzle(judge, state, settings, source)
                if puzzle is not None:
                    found.append(puzzle)
                    last_ply = ply
            move = rng.choice(moves) if rng.random() < settings.blunder_rate else seen.move
        state = engine.play(state, move)
        if abs(judge.balance(state, 0)) >= decisive_lead:
            break  # one side is far ahead: the rest of the game teaches little
    return found


# ----------------------------------------------------------------- random endings


@cache
def judge_for(game: str, settings: Settings) -> Judge:
    """One judge per process (every question it answers starts from a cleared table)."""
    return Judge(game, depth=settings.depth, node_limit=settings.node_limit)


def examine_study(kind: str, game: str, index: int, settings: Settings) -> list[dict]:
    """Random ending ``index`` of ``kind`` (``puzzles.studies``): a puzzle if the judge finds one win.

    An ending or a countdown study tries up to ``ending_tries`` (``countdown_tries``) placements and
    keeps the first puzzle; a landing study ``landing_tries``, and keeps the first puzzle whose win
    depends on where the king stops.
    """
    judge = judge_for(game, settings)
    tries = {
        "landing": settings.landing_tries,
        "ending": settings.ending_tries,
        "countdown": settings.countdown_tries,
    }[kind]
    for attempt in range(tries):
        rng = random.Random(f"{settings.seed}:{game}:{kind}:{index}" + (f":{attempt}" if attempt else ""))
        puzzle = _study(judge, kind, studies.RECIPES[kind](rng, judge.engine), settings, index)
        if puzzle is not None and (kind != "landing" or "landing" in puzzle["themes"]):
            return [puzzle]
    return []


def _study(judge: Judge, kind: str, state: State, settings: Settings, index: int) -> dict | None:
    moves = judge.model.moves(state)
    if len(moves) < settings.min_legal_moves or not -WORST_START <= judge.balance(state, state.turn) <= 0:
        return None
    if kind != "countdown" and judge.model.drawn_ending(state):
        return None
    screen = Searcher(judge.model).search(state, max_depth=settings.depth, node_limit=settings.study_screen_nodes)
    if screen.score < judge.threshold(judge.base(state)) - 20:
        return None  # no gain in sight
    return make_puzzle(judge, state, settings, f"ubao {kind} study (seed {settings.seed}, study {index})")


# ----------------------------------------------------------------- the driver

# Where the puzzles come from, in turn: the kinds of a game in this order, again and again, each
# kind numbered on its own (self-play game 0, landing study 0, ..., self-play game 1, ...).
SOURCES = {
    "english": ("game", "ending"),
    "tanzanian": ("game", "landing", "ending", "countdown"),
}
# The themes that name a motif: none may be on more than 40% of a set (Settings.motif_share).
MOTIFS = ("shot", "sacrifice", "multi_capture", "breakthrough", "capture_choice", "quiet_move", "landing", "countdown")


def _examine(task: tuple[str, str, int, Settings]) -> list[dict]:
    kind, game, index, settings = task
    if kind == "game":
        return examine_game(game, index, settings)
    return examine_study(kind, game, index, settings)


def _collect(game: str, settings: Settings, jobs: int, accept: Callable[[dict], bool]) -> None:
    """Examine the sources in turn, offering their puzzles to ``accept`` until it has enough."""
    kinds = SOURCES[game]

    def tasks() -> Iterator[tuple]:
        numbers = dict.fromkeys(kinds, 0)  # each source numbered on its own: game 0, 1, 2 ...
        while True:
            for kind in kinds:
                yield kind, game, numbers[kind], settings
                numbers[kind] += 1

    def offer(puzzles: list[dict]) -> bool:
        return any(accept(puzzle) for puzzle in puzzles)

    if jobs <= 1:
        for task in tasks():
            if offer(_examine(task)):
                return
        return
    with get_context("spawn").Pool(jobs) as pool:
        for puzzles in pool.imap(_examine, tasks(), chunksize=1):
            if offer(puzzles):
                pool.terminate()
                return


def band_of(rating: int) -> int:
    """The 200-point band of a rating: 600-799 is 600, ..., 2200-2400 is 2200."""
    return min(rating, 2399) // 200 * 200


class Spread:
    """Keeps a set spread out while it grows: a puzzle is refused when one of its motifs, or (one-move
    puzzles) its length, already holds its share of the puzzles so far. (Ratings are spread by
    ``RATING_KNOTS`` instead, which keeps every puzzle found.)

    Decided from the puzzles accepted so far only, so a smaller count gives a prefix of a larger one.
    """

    def __init__(self, settings: Settings):
        self.settings = settings
        self.counts: dict[str, int] = {}
        self.total = 0

    def _full(self, key: str, share: float) -> bool:
        return self.counts.get(key, 0) >= share * (self.total + 1) + self.settings.share_slack

    def admits(self, puzzle: dict) -> bool:
        settings = self.settings
        keys = self.keys(puzzle)
        return not any(
            self._full(key, settings.one_move_share if key == "one_move" else settings.motif_share) for key in keys
        )

    @staticmethod
    def keys(puzzle: dict) -> list[str]:
        themes = puzzle["themes"]
        keys = [theme for theme in themes if theme in MOTIFS]
        return keys + (["one_move"] if "one_move" in themes else [])

    def add(self, puzzle: dict) -> None:
        for key in self.keys(puzzle):
            self.counts[key] = self.counts.get(key, 0) + 1
        self.total += 1


def generate(
    game: str,
    count: int,
    settings: Settings = COMMITTED,
    jobs: int = 1,
    progress: Callable[[str, list[dict]], None] | None = None,
) -> list[dict]:
    """``count`` distinct puzzles of ``game``, from the sources in turn, kept spread out.

    ``progress`` is told how far it got, with the puzzles so far, every 25 puzzles."""
    puzzles: list[dict] = []
    fens: set[str] = set()
    spread = Spread(settings)
    started = time.monotonic()

    def accept(puzzle: dict) -> bool:
        if puzzle["fen"] in fens or not spread.admits(puzzle):
            return False
        fens.add(puzzle["fen"])
        spread.add(puzzle)
        puzzles.append(puzzle)
        if progress and (len(puzzles) % 25 == 0 or len(puzzles) == count):
            progress(f"{game}: {len(puzzles)}/{count} puzzles, {time.monotonic() - started:.0f}s", puzzles)
        return len(puzzles) >= count

    if count > 0:
        _collect(game, settings, jobs, accept)
    return puzzles


def write_jsonl(path: Path, puzzles: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle, ensure_ascii=False, separators=(",", ":")) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(DRAUGHTS), help="comma-separated: english,tanzanian")
    parser.add_argument("--count", type=int, default=1500, help="puzzles per game (default 1500)")
    parser.add_argument("--seed", type=int, default=COMMITTED.seed)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the output does not depend on it)")
    parser.add_argument("--out", type=Path, default=HERE, help="directory for <game>.jsonl (default: puzzles/)")
    parser.add_argument("--fit-ratings", action="store_true", help="print RATING_KNOTS for the files in --out")
    parser.add_argument("--rerate", action="store_true", help="rewrite the ratings in --out with RATING_KNOTS")
    args = parser.parse_args(argv)
    if args.fit_ratings or args.rerate:
        for game in args.games.split(","):
            path = args.out / f"{game}.jsonl"
            with path.open(encoding="utf-8") as lines:
                puzzles = [json.loads(line) for line in lines]
            if args.fit_ratings:
                print(f'    "{game}": {fit_knots([puzzle["difficulty"] for puzzle in puzzles])},')
            else:
                write_jsonl(path, [{**puzzle, "rating": rating_of(game, puzzle["difficulty"])} for puzzle in puzzles])
        return 0
    settings = replace(COMMITTED, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        if game not in DRAUGHTS:
            parser.error(f"unknown draughts game {game!r}; choose from {', '.join(DRAUGHTS)}")
        started = time.monotonic()
        partial = args.out / f"{game}.jsonl.partial"

        def report(text: str, so_far: list[dict], partial: Path = partial) -> None:
            print(text, flush=True)
            write_jsonl(partial, so_far)  # what a long run has found, should it be stopped

        puzzles = generate(game, args.count, settings, jobs=args.jobs, progress=report)
        partial.unlink(missing_ok=True)
        write_jsonl(args.out / f"{game}.jsonl", puzzles)
        print(
            f"{game}: wrote {len(puzzles)} puzzles to {args.out / (game + '.jsonl')} "
            f"in {time.monotonic() - started:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
