"""Verify the draughts puzzles far deeper than they were made: every claimed win still wins, and no
other move wins unnoticed.

    python -m puzzles.verify                     # both sets: verify, drop what fails, write, report
    python -m puzzles.verify --check             # verify, report, write nothing
    python -m puzzles.verify --report            # where the sets stand: verified, not yet, dropped
    python -m puzzles.verify --games tanzanian --ids tanzanian-2d28ab7ba9

At every solver step of a puzzle, every legal move is searched at **every** depth from the
generator's (``COMMITTED.depth``) to ``VERIFY_DEPTH`` (twice that, and never under 12 plies), by
iterative deepening with the transposition table kept between the depths and one node budget per
move. A step holds at a depth when

* the solution's move still wins (at least ``CHECK_GAIN`` over the start, as the tests count it);
* every other move either does not win or scores a man or more below the solution's move, unless the
  set records it as an alternative (those must win too).

A puzzle is kept only if every step holds at every depth; a search that runs out of nodes leaves it
undecided, and an undecided puzzle is dropped as well. Countdown studies (three kings against a lone
king) are solved exactly instead, count and all (``puzzles.countdown``), and kept only where the
solution is proven the only move that wins within the count.

What a puzzle was verified by is recorded in it, for the maintainers only (the catalog does not read
it): ``verified: {"proven": true}`` or ``{"depth": n}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from shared_rules import get_game
from shared_rules.draughts.engine import RawMove, State
from shared_rules.draughts.game import DraughtsPosition
from shared_rules.search import NodeLimitReached
from shared_rules.search.core import INFINITY

from . import countdown
from .judge import CHECK_GAIN, WIN_GAIN, Judge
from .settings import COMMITTED

HERE = Path(__file__).resolve().parent
DRAUGHTS = ("english", "tanzanian")
GENERATOR_DEPTH = COMMITTED.depth  # the depth the generator judges at
VERIFY_DEPTH = max(2 * GENERATOR_DEPTH, 12)
NODE_LIMIT = 400_000  # per move and step, for all the depths together
TABLE_LIMIT = 1_000_000  # one table for all the questions about a puzzle (cleared between puzzles)
CLEARLY_WORSE = WIN_GAIN  # another winning move a man or more below the solution's is no rival


@dataclass(frozen=True)
class Outcome:
    id: str
    kind: str  # where the puzzle comes from: self-play, ending, landing, countdown
    reason: str | None  # None: kept; else why it is dropped
    detail: str
    verified: dict
    cpu: float


def kind_of(puzzle: dict) -> str:
    source = puzzle["source"]
    return "self-play" if "self-play" in source else source.split()[1]


@cache
def judge_for(game: str) -> Judge:
    judge = Judge(game, depth=VERIFY_DEPTH, node_limit=NODE_LIMIT)
    judge.searcher.table_limit = TABLE_LIMIT
    return judge


def move_scores(judge: Judge, state: State, move: RawMove, thresholds: list[int] | None) -> list[int]:
    """The solver's score of ``move`` at each depth from 2 to ``VERIFY_DEPTH`` (index 0 is depth 2).

    With ``thresholds`` (one per depth, the same indexing) each is a bound that tells only whether the
    move reaches the threshold; without, the exact scores (a full window)."""
    child = judge.engine.play(state, move)
    searcher = judge.searcher

    def window(iteration: int) -> tuple[int, int]:
        if thresholds is None:
            return -INFINITY, INFINITY
        threshold = thresholds[iteration - 1]  # iteration i of the child is depth i + 1 of the move
        return -threshold, -threshold + 1

    values = searcher.values_by_depth(child, VERIFY_DEPTH - 1, window, node_limit=NODE_LIMIT)
    return [-value for value in values]


def check_step(
    judge: Judge, position: DraughtsPosition, move: RawMove, accepted: set[RawMove], base: int
) -> tuple[str, str] | None:
    """Why this solver step fails at some depth (reason, detail), or None if it holds at every depth.

    Bounds first (cheap): the solution's move reaches the winning score, other moves do not. Only
    where another move reaches it too are exact scores searched, to see whether it is a man worse."""
    state = position.state
    first = GENERATOR_DEPTH - 2  # index of the generator's depth in the per-depth lists
    wins = base + CHECK_GAIN
    bars = [wins] * (VERIFY_DEPTH - 1)
    reached = move_scores(judge, state, move, bars)
    for index in range(first, len(reached)):
        if reached[index] < wins:
            return "no_longer_wins", f"{position.notation(move)} fails at depth {index + 2}"
    exact: list[int] = []
    for other in judge.model.moves(state):
        if other == move:
            continue
        scores = move_scores(judge, state, other, bars)
        if other in accepted:
            if any(score < wins for score in scores[first:]):
                return "alternative_fails", f"{position.notation(other)} no longer wins"
            continue
        if all(score < wins for score in scores[first:]):
            continue
        # It wins too: no rival only if it is a man or more below the solution's move at every depth.
        exact = exact or move_scores(judge, state, move, None)
        rival_bars = [max(wins, score - CLEARLY_WORSE + 1) for score in exact]
        scores = move_scores(judge, state, other, rival_bars)
        for index in range(first, len(scores)):
            if scores[index] >= rival_bars[index]:
                return "second_winner", f"{position.notation(other)} wins too at depth {index + 2}"
    return None


def verify(game: str, puzzle: dict) -> Outcome:
    """Verify one puzzle: every solver step at every depth, and countdown studies exactly."""
    started = time.process_time()
    judge = judge_for(game)
    position = get_game(game).from_fen(puzzle["fen"])
    start = position.state
    base = judge.base(start)
    steps = puzzle.get("alternatives") or [[] for _ in puzzle["solution"][::2]]
    judge.searcher.clear()
    reason: tuple[str, str] | None = None
    verified: dict = {"depth": VERIFY_DEPTH}
    if countdown.applies(game, start):
        # Exact: a search cannot see past the count, and three flying kings are its costliest positions.
        # A proof implies every depth's verdict: short of a catch the search scores these endings 0.
        proof = countdown.prove(puzzle)
        name, detail = (None, "") if proof is None else ("not_proven", proof)
        verified = {"proven": True} if proof is None else verified
        return Outcome(puzzle["id"], kind_of(puzzle), name, detail, verified, time.process_time() - started)
    try:
        for index, text in enumerate(puzzle["solution"]):
            move = position.parse_move(text)
            if index % 2 == 0:
                accepted = {position.parse_move(other) for other in steps[index // 2]}
                reason = check_step(judge, position, move, accepted, base)
                if reason is not None:
                    break
            position = position.play(move)
    except NodeLimitReached:
        reason = ("undecided", f"over {NODE_LIMIT:,} nodes for one move")
    cpu = time.process_time() - started
    name, detail = reason if reason is not None else (None, "")
    return Outcome(puzzle["id"], kind_of(puzzle), name, detail, verified, cpu)


def _verify_task(task: tuple[str, dict]) -> Outcome:
    return verify(*task)


# ----------------------------------------------------------------- the sets

# The order puzzles are verified in, by kind: the likeliest to fail first (random endings, where the
# generator's shallow search was most often wrong) and the costliest last (a countdown proof explores
# much of the three-against-one ending), so that a run stopped early (the results are written as it
# goes) has done the most useful part.
KIND_ORDER = ("ending", "landing", "self-play", "countdown")
WRITE_EVERY = 10  # puzzles between two writes of a set being verified


def done(puzzle: dict) -> bool:
    """Already verified as deep as this verifier goes (or proven)."""
    verified = puzzle.get("verified") or {}
    return verified.get("proven") is True or verified.get("depth", 0) >= VERIFY_DEPTH


def pending(puzzles: list[dict]) -> list[dict]:
    todo = [puzzle for puzzle in puzzles if not done(puzzle)]
    return sorted(todo, key=lambda puzzle: KIND_ORDER.index(kind_of(puzzle)))


def apply(puzzles: list[dict], outcomes: list[Outcome]) -> list[dict]:
    """The set with the failed puzzles left out and the kept ones marked as verified, in file order."""
    by_id = {outcome.id: outcome for outcome in outcomes}
    kept = []
    for puzzle in puzzles:
        outcome = by_id.get(puzzle["id"])
        if outcome is None:
            kept.append(puzzle)
        elif outcome.reason is None:
            kept.append({**puzzle, "verified": outcome.verified})
    return kept


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def write_jsonl(path: Path, records: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def verify_set(game: str, directory: Path, jobs: int, ids: set[str] | None = None, write: bool = True) -> list[Outcome]:
    """Verify the puzzles of ``directory/<game>.jsonl`` not yet verified, writing as it goes: the set
    without the failures, and each failure appended to ``dropped/<game>.jsonl`` with its reason (a
    folder of its own: every ``*.jsonl`` beside the sets is packaged as a set)."""
    path = directory / f"{game}.jsonl"
    puzzles = read_jsonl(path)
    todo = [p for p in puzzles if p["id"] in ids] if ids else pending(puzzles)
    print(f"{game}: {len(puzzles)} puzzles, {len(todo)} to verify (depth {VERIFY_DEPTH})", flush=True)
    outcomes: list[Outcome] = []

    def save() -> None:
        nonlocal puzzles
        fresh = [o for o in outcomes if o.id not in saved]
        if not write or not fresh:
            return
        dropped = {p["id"]: p for p in puzzles}
        log_path = directory / "dropped" / f"{game}.jsonl"
        log = read_jsonl(log_path)
        log += [
            {
                "id": o.id,
                "kind": o.kind,
                "reason": o.reason,
                "detail": o.detail,
                "fen": dropped[o.id]["fen"],
                "solution": dropped[o.id]["solution"],
            }
            for o in fresh
            if o.reason
        ]
        log_path.parent.mkdir(exist_ok=True)
        write_jsonl(log_path, log)
        puzzles = apply(puzzles, fresh)
        write_jsonl(path, puzzles)
        saved.update(o.id for o in fresh)

    saved: set[str] = set()
    for outcome in _outcomes(game, todo, jobs):
        outcomes.append(outcome)
        if outcome.reason:
            print(f"  dropped {outcome.id} ({outcome.kind}): {outcome.reason}: {outcome.detail}", flush=True)
        if len(outcomes) % WRITE_EVERY == 0:
            save()
            cpu = sum(o.cpu for o in outcomes)
            print(f"{game}: {len(outcomes)}/{len(todo)} verified, {cpu:.0f} CPU-s", flush=True)
    save()
    return outcomes


def _outcomes(game: str, puzzles: list[dict], jobs: int):
    tasks = [(game, puzzle) for puzzle in puzzles]
    if jobs <= 1:
        yield from map(_verify_task, tasks)
        return
    with get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_verify_task, tasks, chunksize=1)


def summary(game: str, outcomes: list[Outcome]) -> str:
    dropped: dict[tuple[str, str], int] = {}
    for outcome in outcomes:
        if outcome.reason:
            dropped[(outcome.kind, outcome.reason)] = dropped.get((outcome.kind, outcome.reason), 0) + 1
    proven = sum(1 for o in outcomes if not o.reason and o.verified.get("proven"))
    kept = sum(1 for o in outcomes if not o.reason)
    lines = [
        f"{game}: verified {len(outcomes)}: kept {kept} ({proven} proven, {kept - proven} by depth {VERIFY_DEPTH}), "
        f"dropped {len(outcomes) - kept}; {sum(o.cpu for o in outcomes):.0f} CPU-seconds"
    ]
    lines += [f"  dropped {count} {kind} ({reason})" for (kind, reason), count in sorted(dropped.items())]
    return "\n".join(lines)


def standing(game: str, directory: Path) -> str:
    """Where a set stands: its puzzles verified (proven, by depth) and not yet, by kind; what was dropped."""
    puzzles = read_jsonl(directory / f"{game}.jsonl")
    dropped = read_jsonl(directory / "dropped" / f"{game}.jsonl")
    proven = sum(1 for p in puzzles if (p.get("verified") or {}).get("proven"))
    by_depth = sum(1 for p in puzzles if "depth" in (p.get("verified") or {}))
    waiting: dict[str, int] = {}
    for puzzle in puzzles:
        if not done(puzzle):
            waiting[kind_of(puzzle)] = waiting.get(kind_of(puzzle), 0) + 1
    reasons: dict[tuple[str, str], int] = {}
    for entry in dropped:
        reasons[(entry["kind"], entry["reason"])] = reasons.get((entry["kind"], entry["reason"]), 0) + 1
    lines = [
        f"{game}: {len(puzzles)} puzzles: {proven} proven, {by_depth} verified to depth {VERIFY_DEPTH}, "
        f"{len(puzzles) - proven - by_depth} not yet ({', '.join(f'{n} {k}' for k, n in sorted(waiting.items()))})",
        f"{game}: {len(dropped)} dropped: "
        + ", ".join(f"{n} {kind} ({reason})" for (kind, reason), n in sorted(reasons.items())),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.verify", description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(DRAUGHTS))
    parser.add_argument("--dir", type=Path, default=HERE, help="where <game>.jsonl is (default: puzzles/)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ids", default="", help="comma-separated ids: verify only these")
    parser.add_argument("--check", action="store_true", help="verify and report; write nothing")
    parser.add_argument("--report", action="store_true", help="only say where the sets stand")
    args = parser.parse_args(argv)
    ids = set(filter(None, args.ids.split(","))) or None
    for game in args.games.split(","):
        if not args.report:
            outcomes = verify_set(game, args.dir, args.jobs, ids, write=not args.check)
            print(summary(game, outcomes), flush=True)
        print(standing(game, args.dir), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
