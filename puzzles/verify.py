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
king) are solved exactly instead, count and all (``puzzles.countdown``, one retrograde table for all
of them), and kept only where the solution is proven to win within the count.

Another move that wins as well (at every depth within a man of the solution's, or proven) is
recorded as an alternative at its step, and the corrected puzzle is verified again as recorded; a
step where the winners are more than ``MAX_WINNING_SHARE`` of the legal moves drops the puzzle.

What a puzzle was verified by is recorded in it, for the maintainers only (the catalog does not read
it): ``verified: {"proven": true}`` or ``{"depth": n}``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from shared_rules.draughts.engine import RawMove, State
from shared_rules.draughts.game import DraughtsPosition
from shared_rules.search import NodeLimitReached
from shared_rules.search.core import INFINITY

from . import countdown
from .judge import CHECK_GAIN, WIN_GAIN, Judge, Undecided
from .line import line_end
from .outcomes import (
    Outcome,
    add_cpu,
    done,
    kind_of,
    log_entry,
    read_jsonl,
    spread,
    standing,
    summary,
    write_jsonl,
)
from .settings import COMMITTED, GENERATOR_DEPTH, VERIFY_DEPTH, Record, draughts_rules

HERE = Path(__file__).resolve().parent
DRAUGHTS = ("english", "tanzanian")
NODE_LIMIT = 4_000_000  # per move and step, for all the depths together (400,000 left 30% of self-play undecided)
# For all of one puzzle's searches together: at about 75,000 nodes a second (compiled, loaded) a ten-piece
# ending with flying kings could take half an hour at 4,000,000 a move; this bounds it near two minutes.
# The puzzles verified before it (a few self-play ones needed over a million nodes for one move) were kept.
PUZZLE_NODE_LIMIT = 8_000_000
TABLE_LIMIT = 1_000_000  # one table for all the questions about a puzzle (cleared between puzzles)
CLEARLY_WORSE = WIN_GAIN  # another winning move a man or more below the solution's is no rival
# Other moves that win as well (at every depth, or proven) are recorded as alternatives, unless the
# winners are more than this share of a step's legal moves (two always allowed): then it is no puzzle.
MAX_WINNING_SHARE = 0.2
FRESH_DEPTHS = (COMMITTED.depth, COMMITTED.confirm_depth)  # what the tests ask an alternative at
QUICK_PATH = True  # search on ``puzzles.quick_search``'s path (same nodes, same scores); False: the plain one


def crowded(winners: int, legal: int) -> bool:
    """Too many winning moves at one step for a puzzle (``MAX_WINNING_SHARE``)."""
    return winners > max(2, int(MAX_WINNING_SHARE * legal))


@cache
def judge_for(game: str, quick: bool = True) -> Judge:
    """The verifier's judge: on the quick path (``puzzles.quick_search``, the same search faster)
    unless ``quick`` is False (the plain path it is measured against, ``make bench verify``)."""
    judge = Judge(game, depth=VERIFY_DEPTH, node_limit=NODE_LIMIT, quick=quick)
    judge.searcher.table_limit = TABLE_LIMIT
    return judge


def move_scores(judge: Judge, state: State, move: RawMove, thresholds: list[int] | None, stop: int) -> list[int]:
    """The solver's score of ``move`` at each depth from 2 to ``VERIFY_DEPTH`` (index 0 is depth 2).

    With ``thresholds`` (one per depth, the same indexing) each is a bound that tells only whether the
    move reaches the threshold; without, the exact scores (a full window). ``stop``: the searcher's node
    count where the puzzle's budget ends (``PUZZLE_NODE_LIMIT``); ``NodeLimitReached`` past either budget."""
    child = judge.engine.play(state, move)
    searcher = judge.searcher
    limit = min(NODE_LIMIT, stop - searcher.nodes)
    if limit <= 0:
        raise NodeLimitReached

    def window(iteration: int) -> tuple[int, int]:
        if thresholds is None:
            return -INFINITY, INFINITY
        threshold = thresholds[iteration - 1]  # iteration i of the child is depth i + 1 of the move
        return -threshold, -threshold + 1

    values = searcher.values_by_depth(child, VERIFY_DEPTH - 1, window, node_limit=limit)
    return [-value for value in values]


def check_step(
    judge: Judge,
    position: DraughtsPosition,
    move: RawMove,
    accepted: set[RawMove],
    base: int,
    found: list[RawMove],
    stop: int,
    last: bool = False,
) -> tuple[str, str] | None:
    """Why this solver step fails at some depth (reason, detail), or None if it holds at every depth.

    Bounds first (cheap): the solution's move reaches the winning score, other moves do not. Only
    where another move reaches it too are exact scores searched, to see whether it is a man worse.
    Another move that wins at every depth, within a man of the solution's, goes to ``found`` (to be
    recorded as an alternative) while the step's winners stay few (``MAX_WINNING_SHARE``), if fresh
    searches agree (``fresh_win``); ``last``: this is the puzzle's last step; ``stop``: as in ``move_scores``."""
    state = position.state
    first = GENERATOR_DEPTH - 2  # index of the generator's depth in the per-depth lists
    wins = base + CHECK_GAIN
    bars = [wins] * (VERIFY_DEPTH - 1)
    reached = move_scores(judge, state, move, bars, stop)
    for index in range(first, len(reached)):
        if reached[index] < wins:
            return "no_longer_wins", f"{position.notation(move)} fails at depth {index + 2}"
    exact: list[int] = []
    legal = judge.model.moves(state)
    for other in legal:
        if other == move:
            continue
        scores = move_scores(judge, state, other, bars, stop)
        if other in accepted:
            if any(score < wins for score in scores[first:]):
                return "alternative_fails", f"{position.notation(other)} no longer wins"
            continue
        if all(score < wins for score in scores[first:]):
            continue
        # It wins too: no rival only if it is a man or more below the solution's move at every depth.
        exact = exact or move_scores(judge, state, move, None, stop)
        rival_bars = [max(wins, score - CLEARLY_WORSE + 1) for score in exact]
        rival = move_scores(judge, state, other, rival_bars, stop)
        for index in range(first, len(rival)):
            if rival[index] >= rival_bars[index]:
                if all(score >= wins for score in scores[first:]) and fresh_win(
                    judge.game, position, other, base, last
                ):
                    found.append(other)  # wins at every depth: an alternative
                    break
                return "second_winner", f"{position.notation(other)} wins too at depth {index + 2}"
    if crowded(1 + len(accepted) + len(found), len(legal)):
        return "too_many_winners", f"{1 + len(accepted) + len(found)} of {len(legal)} moves win"
    return None


@cache
def fresh_judges(game: str) -> tuple[Judge, ...]:
    """Judges at the depths the tests ask every puzzle about (the generator's and the confirming one),
    each with a table of its own, so that asking them leaves the verifier's table as it was."""
    return tuple(Judge(game, depth=depth, node_limit=NODE_LIMIT, quick=True) for depth in FRESH_DEPTHS)


def fresh_win(game: str, position: DraughtsPosition, other: RawMove, base: int, last: bool) -> bool:
    """Does a move the verifier found winning win as well in fresh searches (a cleared table) at the
    generator's and the confirming depth, and, at the last step, finish the puzzle (the game won, or the
    gain on the board with nothing to capture)? That is what the tests and the server ask of an
    alternative. The verifier's own searches share one table through a puzzle, and a deeper answer kept
    there can show a win a fresh search at a shallow depth does not see; such a move is a second winner."""
    state = position.state
    if not all(judge.reaches(state, other, base + CHECK_GAIN) for judge in fresh_judges(game)):
        return False
    if not last:
        return True
    judge = fresh_judges(game)[0]
    return line_end(judge, judge.engine.play(state, other), state.turn, judge.threshold(base)) is not None


def verify(game: str, puzzle: Record) -> Outcome:
    """Verify one puzzle: every solver step at every depth, and countdown studies exactly. Other moves
    found to win as well are recorded as alternatives (``Outcome.alternatives``) where they are few."""
    started = time.process_time()
    if countdown.applies(game, draughts_rules(game).from_fen(puzzle["fen"]).state):
        # Exact: a search cannot see past the count, and three flying kings are its costliest positions.
        # A proof implies every depth's verdict: short of a catch the search scores these endings 0.
        reason, detail, alternatives = proven_alternatives(puzzle)
        verified: Record = {"proven": True}
    else:
        reason, detail, alternatives = judged_alternatives(game, puzzle)
        if reason is None and alternatives is not None:
            # The corrected puzzle must verify as it will be recorded (its alternatives now accepted).
            again = judged_alternatives(game, {**puzzle, "alternatives": alternatives})
            reason, detail = again[:2] if again[0] or again[2] is None else ("unstable", "new winners when re-verified")
        verified = {"depth": VERIFY_DEPTH}
    cpu = time.process_time() - started
    return Outcome(puzzle["id"], kind_of(puzzle), reason, detail, verified, cpu, alternatives)


def proven_alternatives(puzzle: Record) -> tuple[str | None, str, list[list[str]] | None]:
    """A countdown study's verdict: (drop reason or None, detail, corrected alternatives or None)."""
    found = countdown.winners_by_step(puzzle)
    if isinstance(found, str):
        return "not_proven", found, None
    for step, (others, legal) in enumerate(found):
        if crowded(1 + len(others), legal):
            return "too_many_winners", f"step {step + 1}: {1 + len(others)} of {legal} moves win", None
    alternatives = [others for others, _ in found]
    return None, "", corrected(puzzle, alternatives)


def judged_alternatives(
    game: str, puzzle: Record, budget: int = PUZZLE_NODE_LIMIT
) -> tuple[str | None, str, list[list[str]] | None]:
    """A puzzle's verdict by depth: (drop reason or None, detail, corrected alternatives or None);
    undecided past ``NODE_LIMIT`` nodes for one move or ``budget`` for all of them."""
    judge = judge_for(game, QUICK_PATH)
    position = draughts_rules(game).from_fen(puzzle["fen"])
    base = judge.base(position.state)
    steps = puzzle.get("alternatives") or [[] for _ in puzzle["solution"][::2]]
    judge.searcher.clear()
    stop = judge.searcher.nodes + budget
    alternatives: list[list[str]] = []
    try:
        for index, text in enumerate(puzzle["solution"]):
            move = position.parse_move(text)
            if index % 2 == 0:
                accepted = {position.parse_move(other) for other in steps[index // 2]}
                found: list[RawMove] = []
                last = index == len(puzzle["solution"]) - 1
                reason = check_step(judge, position, move, accepted, base, found, stop, last)
                if reason is not None:
                    return reason[0], reason[1], None
                alternatives.append(sorted({*steps[index // 2], *(position.notation(m) for m in found)}))
            position = position.play(move)
    except (NodeLimitReached, Undecided):
        if judge.searcher.nodes >= stop:
            return "undecided", f"over {budget:,} nodes for the puzzle", None
        return "undecided", f"over {NODE_LIMIT:,} nodes for one move", None
    return None, "", corrected(puzzle, alternatives)


def corrected(puzzle: Record, alternatives: list[list[str]]) -> list[list[str]] | None:
    """``alternatives`` if they differ from what the puzzle records, else None (nothing to correct)."""
    recorded = puzzle.get("alternatives") or [[] for _ in alternatives]
    same = [sorted(step) for step in recorded] == alternatives
    return None if same else alternatives


def _verify_task(task: tuple[str, Record]) -> Outcome:
    return verify(*task)


# ----------------------------------------------------------------- the sets

# The order puzzles are verified in, by kind: countdown studies first (one retrograde table proves them
# all within a minute), then the likeliest to fail (random endings, where the generator's shallow
# search was most often wrong), so that a run stopped early (the results are written as it goes) has
# done the most useful part; within a kind the cheapest first (``weight``).
KIND_ORDER = ("countdown", "ending", "landing", "self-play")
WRITE_EVERY = 10  # puzzles between two writes of a set being verified


def pending(puzzles: list[Record], kinds: tuple[str, ...] = KIND_ORDER) -> list[Record]:
    """The puzzles not yet verified, by kind (``KIND_ORDER``), and within a kind the smallest first."""
    todo = [puzzle for puzzle in puzzles if not done(puzzle) and kind_of(puzzle) in kinds]
    return sorted(todo, key=lambda puzzle: (KIND_ORDER.index(kind_of(puzzle)), weight(puzzle["fen"])))


def weight(fen: str) -> int:
    """Pieces on the board, a king counted twice: how dear a position is to search (a flying king's
    moves are many), so that a run stopped early has verified the most puzzles it could."""
    squares = [square for side in fen.split(":")[1:] for square in side[1:].split(",") if square]
    return len(squares) + sum(square.startswith("K") for square in squares)


def apply(puzzles: list[Record], outcomes: list[Outcome]) -> list[Record]:
    """The set with the failed puzzles left out and the kept ones marked as verified, in file order."""
    by_id = {outcome.id: outcome for outcome in outcomes}
    kept = []
    for puzzle in puzzles:
        outcome = by_id.get(puzzle["id"])
        if outcome is None:
            kept.append(puzzle)
        elif outcome.reason is None:
            kept.append(corrected_puzzle(puzzle, outcome))
    return kept


def corrected_puzzle(puzzle: Record, outcome: Outcome) -> Record:
    """A kept puzzle marked as verified, with the alternatives the verifier found if it found any."""
    fixed = {**puzzle, "verified": outcome.verified}
    if outcome.alternatives is not None:
        fixed.pop("alternatives", None)
        if any(outcome.alternatives):
            fixed["alternatives"] = outcome.alternatives
    return fixed


def verify_set(
    game: str,
    directory: Path,
    jobs: int,
    ids: set[str] | None = None,
    write: bool = True,
    kinds: tuple[str, ...] = KIND_ORDER,
) -> list[Outcome]:
    """Verify the puzzles of ``directory/<game>.jsonl`` not yet verified, writing as it goes: the set
    without the failures, and each failure appended to ``dropped/<game>.jsonl`` with its reason (a
    folder of its own: every ``*.jsonl`` beside the sets is packaged as a set)."""
    path = directory / f"{game}.jsonl"
    puzzles = read_jsonl(path)
    todo = [p for p in puzzles if p["id"] in ids] if ids else pending(puzzles, kinds)
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
        log += [log_entry(o, dropped[o.id]) for o in fresh if o.reason or o.alternatives is not None]
        log_path.parent.mkdir(exist_ok=True)
        write_jsonl(log_path, log)
        add_cpu(directory, game, fresh)
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


def _outcomes(game: str, puzzles: list[Record], jobs: int) -> Iterator[Outcome]:
    tasks = [(game, puzzle) for puzzle in puzzles]
    if jobs <= 1:
        yield from map(_verify_task, tasks)
        return
    with get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_verify_task, tasks, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.verify", description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(DRAUGHTS))
    parser.add_argument("--dir", type=Path, default=HERE, help="where <game>.jsonl is (default: puzzles/)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ids", default="", help="comma-separated ids: verify only these")
    parser.add_argument("--kinds", default=",".join(KIND_ORDER), help="only these kinds, comma-separated")
    parser.add_argument("--check", action="store_true", help="verify and report; write nothing")
    parser.add_argument("--report", action="store_true", help="only say where the sets stand")
    args = parser.parse_args(argv)
    ids = set(filter(None, args.ids.split(","))) or None
    for game in args.games.split(","):
        if not args.report:
            kinds = tuple(args.kinds.split(","))
            outcomes = verify_set(game, args.dir, args.jobs, ids, write=not args.check, kinds=kinds)
            print(summary(game, outcomes), flush=True)
        print(standing(game, args.dir), flush=True)
    return 0


#: The verifier's API, with what it reads from ``outcomes`` and ``settings`` (carry, generate, the tests use them here).
__all__ = [
    "CLEARLY_WORSE",
    "DRAUGHTS",
    "FRESH_DEPTHS",
    "GENERATOR_DEPTH",
    "HERE",
    "KIND_ORDER",
    "MAX_WINNING_SHARE",
    "NODE_LIMIT",
    "Outcome",
    "PUZZLE_NODE_LIMIT",
    "QUICK_PATH",
    "TABLE_LIMIT",
    "VERIFY_DEPTH",
    "WRITE_EVERY",
    "add_cpu",
    "apply",
    "check_step",
    "corrected",
    "corrected_puzzle",
    "crowded",
    "done",
    "fresh_judges",
    "fresh_win",
    "judge_for",
    "judged_alternatives",
    "kind_of",
    "log_entry",
    "main",
    "move_scores",
    "pending",
    "proven_alternatives",
    "read_jsonl",
    "spread",
    "standing",
    "summary",
    "verify",
    "verify_set",
    "weight",
    "write_jsonl",
]


if __name__ == "__main__":
    sys.exit(main())
