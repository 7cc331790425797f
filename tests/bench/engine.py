"""Section ``engine``: the computer opponent: its levels, its time on the worst positions, the level estimate."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from tests.bench.common import heading


def bench_engine() -> None:
    """The level ladder: each level against the one below, level 1 against a random mover, and
    chess level 5 against Stockfish's lowest skill when Stockfish is installed.

    BENCH_GAMES sets the games per pairing (default 100; BENCH_GAMES=10 for a quick look),
    BENCH_GAME_NAMES picks games, BENCH_WORKERS the processes playing at once (default: every core).
    Each game runs on one core; the seconds per move are measured first, alone."""
    import os

    from shared_rules import get_game
    from shared_rules.search.ladder import OPENING_PLIES, RANDOM, MatchScore, match_tasks, openings, play_all
    from shared_rules.search.levels import choose_move

    games = int(os.environ.get("BENCH_GAMES", "100"))
    names = os.environ.get("BENCH_GAME_NAMES", "chess,english,tanzanian").split(",")
    workers = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
    heading("engine: seconds per move (median over 12 opening positions, one core)")
    for name in names:
        game = get_game(name)
        starts = openings(game, 12, seed=99)
        cells = []
        for level in (1, 3, 4, 5):
            timings = []
            for position in starts:
                started = time.perf_counter()
                choose_move(game, position, level, seed=1)
                timings.append(time.perf_counter() - started)
            cells.append(f"level {level} {statistics.median(timings):5.3f}s (max {max(timings):.2f}s)")
        print(f"{name:<10} " + "   ".join(cells))
    _bench_worst_positions(names)
    _bench_level_estimate(names)
    heading(
        f"engine: the level ladder, {games} games per pairing, {workers} processes "
        f"(colours alternate; {OPENING_PLIES} random balanced opening plies, each opening played twice)"
    )
    pairings = [(name, a, b) for name in names for a, b in ((5, 4), (4, 3), (3, 2), (2, 1), (1, RANDOM))]
    tasks = [task for name, a, b in pairings for task in match_tasks(get_game(name), a, b, games, seed=1)]
    scores = {pairing: MatchScore(pairing[1], pairing[2]) for pairing in pairings}
    started = time.perf_counter()
    for done, outcome in enumerate(play_all(tasks, workers), 1):
        pairing = (outcome.task.game_name, outcome.task.a, outcome.task.b)
        scores[pairing].add(outcome)
        if scores[pairing].games == games:  # as each pairing ends, for progress; the table follows
            elapsed = time.perf_counter() - started
            print(
                f"  {done}/{len(tasks)} games, {elapsed:.0f} s: {pairing[0]} {scores[pairing].line()}",
                file=sys.stderr,
                flush=True,
            )
    for pairing in sorted(scores, key=lambda p: (names.index(p[0]), p[1])):
        score = scores[pairing]
        plies = statistics.median(score.plies)
        print(f"{pairing[0]:<10} {score.line():<78} median {plies:.0f} plies")
    print(f"{len(tasks)} games in {time.perf_counter() - started:.0f} s")
    if "chess" in names:
        _bench_stockfish(min(games, 20))


def _bench_worst_positions(names: list[str]) -> None:
    """The seconds a move takes in positions whose nodes are dearest (boards of flying kings, of
    queens), the worst of three runs, beside the level's time budget; the promise is at most twice it."""
    from shared_rules import get_game
    from shared_rules.search.levels import LEVELS, choose_move, level_settings
    from tests.engine.worst_positions import WORST_POSITIONS

    heading("engine: the worst positions, CPU seconds per move (worst of 3) / the level's time budget")
    worst_ratio = 0.0
    for name in names:
        game = get_game(name)
        for fen in WORST_POSITIONS.get(name, ()):
            position = game.from_fen(fen)
            choose_move(game, position, 1, seed=1)  # warm the caches, as a running function has them
            cells = []
            for level in LEVELS:
                timings = []
                for seed in range(3):
                    started = time.process_time()  # the clock the budget is read on
                    choose_move(game, position, level, seed=seed)
                    timings.append(time.process_time() - started)
                budget = level_settings(name, level).seconds
                worst_ratio = max(worst_ratio, max(timings) / budget)
                cells.append(f"L{level} {max(timings):.3f}/{budget:g}")
            print(f"{name:<10} {fen[:34]:<34} " + "  ".join(cells))
    print(f"worst time / budget: {worst_ratio:.2f} (the promise: at most 2)")


def middlegames(game, count: int) -> list:
    """Varied positions 10 to 25 plies in: balanced openings played on by level 3 (seeded)."""
    from shared_rules.search.ladder import openings
    from shared_rules.search.levels import choose_move

    positions = []
    for index, position in enumerate(openings(game, count, seed=77)):
        for ply in range(6 + index % 16):
            if position.status().is_over:
                break
            position = position.play(choose_move(game, position, 3, seed=index * 100 + ply).move)
        if not position.status().is_over:
            positions.append(position)
    return positions


def _bench_level_estimate(names: list[str]) -> None:
    """What a takeover reads from a player's moves: each level's mean loss per move against the reference
    search, next to the TYPICAL_LOSS the estimate matches it to, and the level it would be estimated at."""
    from shared_rules import get_game
    from shared_rules.search.levels import LEVELS, TYPICAL_LOSS, choose_move, estimate_level, family, move_loss

    heading("engine: mean loss per move by level, as a takeover estimates a player's level (30 middlegames)")
    for name in names:
        game = get_game(name)
        positions = middlegames(game, 30)
        typical = TYPICAL_LOSS[family(name)]
        cells = []
        for level in LEVELS:
            played = [(p, choose_move(game, p, level, seed=i).move) for i, p in enumerate(positions)]
            mean = statistics.mean(move_loss(game, p, move) for p, move in played)
            groups = [estimate_level(game, played[i : i + 8]) for i in range(0, len(played) - 7, 8)]
            cells.append(f"L{level} {mean:5.1f} (table {typical[level]}, read as {'/'.join(map(str, groups))})")
        print(f"{name:<10} " + "  ".join(cells))


def _bench_stockfish(games: int) -> None:
    import shutil

    path = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)
    heading(f"engine: chess level 5 against Stockfish at Skill Level 0, 50 ms a move ({games} games)")
    if path is None:
        print("skipped: Stockfish is not installed (apt-get install stockfish puts it in /usr/games)")
        return
    import chess.engine

    from shared_rules import get_game
    from shared_rules.search.ladder import MAX_MATCH_PLIES, GameOutcome, LadderGame, MatchScore, openings
    from shared_rules.search.levels import choose_move
    from tests.checks import chess_position

    game = get_game("chess")
    starts = openings(game, (games + 1) // 2, seed=5)
    score = MatchScore(5, -1)
    with chess.engine.SimpleEngine.popen_uci(path) as stockfish:
        stockfish.configure({"Skill Level": 0, "Threads": 1})
        for number in range(games):
            task = LadderGame("chess", (), 5, -1, number, games, 5)
            position = starts[number // 2]
            while not position.status().is_over and position.ply < MAX_MATCH_PLIES:
                if position.turn == task.a_colour:
                    move = choose_move(game, position, 5, seed=number).move
                else:
                    move = stockfish.play(chess_position(position).board, chess.engine.Limit(time=0.05)).move
                position = position.play(move)
            result = position.status().result
            score.add(GameOutcome(task, "draw" if result == "ongoing" else result, position.status().reason, []))
    print(score.line().replace("level -1", "Stockfish skill 0").replace(", 0 adjudicated", ""))
