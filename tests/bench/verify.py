"""Section ``verify``: the deep verification of the draughts puzzles, CPU seconds a puzzle by kind.

Countdown studies: the retrograde table (``puzzles.countdown_table``, built once, then a lookup per
move) against the memoized search it replaced (``countdown.CountdownSolver``, a fresh memo per
process), on the same studies in the same run; the verdicts must agree. Depth-judged puzzles: the
CPU seconds of ``puzzles.verify.verify`` on the first puzzles of each kind, on the plain search and on
the quick path (``puzzles.quick_search``, the same tree faster), the verdicts asserted equal. The
compiled search (``puzzles.compiled``, mypyc) against the plain code on the same puzzles in the same run,
the verdicts and the nodes searched asserted equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import NamedTuple

from puzzles import compiled, countdown, verify
from puzzles.countdown_table import CountdownTable
from puzzles.settings import Record, draughts_rules
from shared_rules.draughts.game import COUNTDOWN_MOVES
from tests.bench.common import heading

STUDIES = 2  # countdown studies proven both ways (the search spends about a CPU-minute on the first)
PER_KIND = 2  # depth-judged puzzles timed per kind


def _winners(prover: countdown.CountdownSolver | CountdownTable, puzzle: Record) -> list[list[str]]:
    """Each solver step's winning moves, by the table or by the memoized search (the way before it)."""
    position = draughts_rules(puzzle["game"]).from_fen(puzzle["fen"])
    steps = []
    for index, text in enumerate(puzzle["solution"]):
        move = position.parse_move(text)
        if index % 2 == 0:
            left = COUNTDOWN_MOVES - index // 2
            wins = [m for m in position.legal_moves() if prover.move_wins(position.state, m, left)]
            steps.append(sorted(position.notation(m) for m in wins))
        position = position.play(move)
    return steps


def bench_verify() -> None:
    """CPU seconds: countdown proofs by table vs by search; depth verification per puzzle by kind."""
    sets = {game: verify.read_jsonl(verify.HERE / f"{game}.jsonl") for game in verify.DRAUGHTS}
    studies = [p for p in sets["tanzanian"] if verify.kind_of(p) == "countdown"][:STUDIES]
    engine = draughts_rules("tanzanian").engine

    heading("verify: countdown studies, CPU seconds (process time)")
    started = time.process_time()
    table = CountdownTable(engine)
    built = time.process_time() - started
    started = time.process_time()
    by_table = [_winners(table, study) for study in studies]
    looked_up = time.process_time() - started
    started = time.process_time()
    solver = countdown.CountdownSolver(engine)
    by_search = [_winners(solver, study) for study in studies]
    searched = time.process_time() - started
    assert by_table == by_search, "the table and the search disagree"
    print(f"table: built in {built:.1f} s, then {looked_up / len(studies):.3f} s a study")
    print(f"search (the reference): {searched / len(studies):.1f} s a study ({len(studies)} studies, one memo)")
    print(f"ratio for these {len(studies)} studies: {searched / (built + looked_up):.1f}x; for all 285 of a set")
    print(f"  the search's cost grows with the studies, the table's stays at {built:.0f} s")

    heading("verify: depth-judged puzzles, CPU seconds a puzzle (depth 4 to 12), plain and quick path")
    plain_total = quick_total = 0.0
    for game, puzzles in sets.items():
        for kind in ("ending", "landing", "self-play"):
            sample = [p for p in puzzles if verify.kind_of(p) == kind][:PER_KIND]
            if not sample:
                continue
            plain, quick = _timed(game, sample, quick=False), _timed(game, sample, quick=True)
            plain_total, quick_total = plain_total + plain, quick_total + quick
            print(
                f"{game:<10} {kind:<10} plain {plain / len(sample):6.2f} s, quick {quick / len(sample):6.2f} s "
                f"({len(sample)} puzzles): {plain / quick:.2f}x"
            )
    print(f"quick path against the plain one, all of the above: {plain_total / quick_total:.2f}x")
    bench_compiled(sets)


# Run in the compiled copy: verify the puzzles given (JSON on stdin), print each one's verdict, nodes and CPU.
_COMPILED_RUN = """
import json, sys
from puzzles import verify
from shared_rules.draughts import engine
assert engine.__file__.endswith(".so"), engine.__file__
print(json.dumps([_measure(verify, game, puzzle) for game, puzzle in json.load(sys.stdin)]))
"""


class Measured(NamedTuple):
    """One puzzle verified afresh: its verdict, the verifier's nodes, CPU seconds (a JSON list between processes)."""

    reason: str | None
    detail: str
    alternatives: list[list[str]] | None
    nodes: int
    cpu: float


def _measure(module, game: str, puzzle: Record) -> Measured:
    """Verify ``puzzle`` afresh (its recorded verdict left out): verdict, the verifier's nodes, CPU seconds."""
    searcher = module.judge_for(game, module.QUICK_PATH).searcher
    before = searcher.nodes
    outcome = module.verify(game, {key: value for key, value in puzzle.items() if key != "verified"})
    return Measured(outcome.reason, outcome.detail, outcome.alternatives, searcher.nodes - before, outcome.cpu)


def bench_compiled(sets: dict[str, list[Record]]) -> None:
    """The compiled search against the plain code: the same puzzles, verdicts and nodes equal, CPU ratio."""
    heading("verify: the compiled search (mypyc) against the plain code, CPU seconds a puzzle")
    if not compiled.build():
        print("mypyc could not build the search: not measured")
        return
    tasks = [
        (game, puzzle)
        for game, puzzles in sets.items()
        for kind in ("ending", "landing", "self-play")
        for puzzle in [p for p in puzzles if verify.kind_of(p) == kind and p.get("verified")][:PER_KIND]
    ]
    plain = [_measure(verify, game, puzzle) for game, puzzle in tasks]
    script = "from tests.bench.verify import _measure\n" + _COMPILED_RUN
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(tasks),
        cwd=compiled.BUILD,
        env={
            **os.environ,
            "PYTHONPATH": str(compiled.ROOT),
        },  # tests.bench from here; puzzles and shared_rules from the copy
        capture_output=True,
        text=True,
        check=True,
    )
    fast = [Measured(*row) for row in json.loads(run.stdout)]
    for (_, puzzle), mine, theirs in zip(tasks, plain, fast, strict=True):
        assert mine[:4] == theirs[:4], f"{puzzle['id']}: the compiled search disagrees: {mine[:4]} != {theirs[:4]}"
        print(
            f"{puzzle['id']:<22} {verify.kind_of(puzzle):<10} {mine[3]:>9,} nodes: plain {mine[4]:6.2f} s, "
            f"compiled {theirs[4]:6.2f} s: {mine[4] / max(theirs[4], 1e-3):.2f}x"
        )
    plain_cpu, fast_cpu = sum(m.cpu for m in plain), sum(t.cpu for t in fast)
    print(f"compiled against plain, {len(tasks)} puzzles, the same verdicts and nodes: {plain_cpu / fast_cpu:.2f}x")


def _timed(game: str, sample: list[Record], *, quick: bool) -> float:
    """CPU seconds of verifying ``sample`` on one path; the verdicts are the same on both (asserted)."""
    verify.QUICK_PATH = quick
    try:
        outcomes = [verify.verify(game, puzzle) for puzzle in sample]
    finally:
        verify.QUICK_PATH = True
    verdicts = [(o.reason, o.detail, o.alternatives) for o in outcomes]
    key = (game, tuple(p["id"] for p in sample))
    assert _VERDICTS.setdefault(key, verdicts) == verdicts, "the quick and plain paths disagree"
    return sum(o.cpu for o in outcomes)


_VERDICTS: dict[tuple[str, tuple[str, ...]], list[tuple[str | None, str, list[list[str]] | None]]] = {}
