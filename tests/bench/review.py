"""The game review's numbers: what a 60-ply game costs to review, and how often the chess review's best move is
the Lichess puzzle's answer. Run: ``python -m tests.bench review`` (part of ``make bench``).

* **Cost.** A 60-ply chess game and a 60-ply Tanzanian game (``played_game``: the same on every machine, with
  mistakes in it), each reviewed once: the function's CPU time (this process plus Stockfish's, which runs beside it on the
  function's one vCPU), beside the 20 s target and, as a reference measured in the same run, the CPU time of one
  level-5 move of the computer opponent.
* **Strength.** 20 puzzles spread evenly through ``puzzles/chess.jsonl``: the set's ``fen`` is the solver to
  move (the importer already played the opponent's first move, ``puzzles/README.md``), so the review's best
  move in that position is compared with the solution's first move, as moves.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT, ROOT / "functions"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from review.engines import EngineUnavailable, StockfishAnalyser, stockfish_path  # noqa: E402
from review.service import review_game  # noqa: E402

from puzzles import catalog  # noqa: E402
from shared_rules import get_game  # noqa: E402
from shared_rules.chess_game import ChessPosition  # noqa: E402
from shared_rules.search import Searcher, model_for  # noqa: E402
from shared_rules.search.levels import choose_move  # noqa: E402
from tests.checks import draughts  # noqa: E402

TARGET_SECONDS = 20.0
PLIES = 60
PUZZLES = 20
#: Lambda's price per GB-second (us-east-1, 2026) and the review function's memory (one full vCPU).
PRICE_PER_GB_SECOND = {"x86_64": 0.0000166667, "arm64": 0.0000133334}
MEMORY_GB = 1.769


def heading(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 70 - len(title)))


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (Stockfish, once it has quit)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def played_game(name: str, plies: int = PLIES) -> list[str]:
    """A game of ``plies`` moves, none of them ending it, the same on every machine: both sides search 1,500
    nodes (no clock), and one move in eight is a seeded random one, so the game has mistakes to find."""
    game = get_game(name)
    for seed in range(50):
        rng = random.Random(f"review bench {name} {seed}")
        searcher = Searcher(model_for(name))
        position = game.start()
        moves: list[Any] = []
        while len(moves) < plies and not position.status().is_over:
            state = position.board if isinstance(position, ChessPosition) else draughts(position).state
            if rng.random() < 1 / 8:
                move = rng.choice(position.legal_moves())
            else:
                move = searcher.search(state, node_limit=1_500).move
            moves.append(position.notation(move))
            position = position.play(move)
        if len(moves) == plies:
            return moves
    raise RuntimeError(f"no {plies}-ply {name} game in 50 seeds")


def level5_move_seconds(name: str) -> float:
    game = get_game(name)
    position = game.replay(played_game(name, 20))
    started = time.process_time()
    choose_move(game, position, level=5, seed=1)
    return time.process_time() - started


def bench_cost(name: str) -> None:
    moves = played_game(name)
    reference = level5_move_seconds(name)
    started, wall = cpu_seconds(), time.perf_counter()
    review = review_game(name, {}, None, moves)
    spent, wall = cpu_seconds() - started, time.perf_counter() - wall
    marks = {mark: sum(1 for move in review.moves if move.mark == mark) for mark in ("?!", "?", "??")}
    print(f"{name}: {len(moves)} plies reviewed in {spent:.1f} CPU-s ({wall:.1f} s wall on this shared machine)")
    print(
        f"  target {TARGET_SECONDS:.0f} s: {spent / TARGET_SECONDS:.2f} of it; reference: one level-5 move "
        f"{reference:.2f} CPU-s, so the review costs {spent / reference:.0f} level-5 moves"
    )
    print(
        f"  marks {marks}, accuracy white {review.accuracy.white} black {review.accuracy.black}, "
        f"{len(review.puzzles)} personal puzzles"
    )
    for arch, price in PRICE_PER_GB_SECOND.items():
        print(f"  cost per game at {MEMORY_GB} GB on {arch}: ${spent * MEMORY_GB * price:.5f}")


def bench_puzzles() -> None:
    rows = catalog.load("chess")
    chosen = rows[:: len(rows) // PUZZLES][:PUZZLES]
    found = 0
    started = cpu_seconds()
    with StockfishAnalyser() as analyser:
        for puzzle in chosen:
            answer = puzzle.solution[0]
            review = review_game("chess", {}, puzzle.fen, [answer], analyser=analyser)
            board = get_game("chess").from_fen(puzzle.fen)
            same = board.parse_move(review.moves[0].best) == board.parse_move(answer)
            found += same
            print(
                f"  {puzzle.id:<14} rating {puzzle.rating:>4}  answer {answer:<8} review {review.moves[0].best:<8}"
                f"{'' if same else '  (differs)'}"
            )
    spent = cpu_seconds() - started
    print(f"best move = the puzzle's answer in {found}/{len(chosen)} (target >= 18); {spent:.1f} CPU-s in all")


def bench_review() -> None:
    try:
        print(f"Stockfish: {stockfish_path()}")
    except EngineUnavailable as missing:
        print(f"chess skipped: {missing}")
    else:
        heading("review: a 60-ply chess game")
        bench_cost("chess")
        heading(f"review: best move on {PUZZLES} Lichess puzzles")
        bench_puzzles()
    heading("review: a 60-ply Tanzanian game")
    bench_cost("tanzanian")
