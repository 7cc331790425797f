"""Section ``rules``: the rules layer beside its oracles (pydraughts, python-chess)."""

from __future__ import annotations

import time

from tests.bench.common import best_of, heading, median_process_time


def _pydraughts_perft(board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)  # the last ply in bulk, as ours
    total = 0
    for move in moves:
        board.push(move)
        total += _pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def bench_rules() -> None:
    from shared_rules.draughts.engine import engine_for
    from shared_rules.draughts.variants import ENGLISH, TANZANIAN

    heading("draughts perft from the start (last ply counted in bulk)")
    rates = {}
    for variant in (ENGLISH, TANZANIAN):
        engine = engine_for(variant)
        start = engine.start_state()
        started = time.perf_counter()
        leaves = engine.perft(start, 8)
        elapsed = time.perf_counter() - started
        rates[variant.name] = leaves / elapsed
        print(
            f"ubao {variant.name:<10} depth 8: {leaves:>9,} leaves in {elapsed:6.2f} s = {rates[variant.name]:>10,.0f} leaves/s"
        )
    try:
        from draughts import Board
    except ImportError:
        print("pydraughts is not installed: no reference ratio")
    else:
        depth = 5
        started = time.perf_counter()
        leaves = _pydraughts_perft(Board(variant="english"), depth)
        elapsed = time.perf_counter() - started
        reference = leaves / elapsed
        print(
            f"pydraughts english depth {depth}: {leaves:>9,} leaves in {elapsed:6.2f} s = {reference:>10,.0f} leaves/s"
        )
        print(f"ratio ubao/pydraughts (english, leaves/s): {rates['english'] / reference:,.0f}x  (target >= 300x)")

    heading("one validate request in the rules layer (parse FEN, play a move, outcome)")
    from shared_rules import get_game

    cases = {
        "chess": ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "O-O"),
        "english": ("B:W19,20,22,25,26,27,29,30,31:B2,3,4,5,7,8,10,11,16,21", "16x23x32"),
        "tanzanian": ("W:Wa3,b2,b4,c1,d2,e1,f2,g1,g3,h6:Bb8,c5,c7,d4,d6,e7,f6,f8,g7,h8", "g3-f4"),
    }
    for name, (fen, move) in cases.items():
        game = get_game(name)

        def validate(game=game, fen=fen, move=move):
            after = game.from_fen(fen).play(move)
            after.status()
            after.legal_notations()

        seconds = best_of(validate, repeat=5, number=200)
        print(f"{name:<10} {seconds * 1e6:8.1f} us per request (target for draughts: < 100 us)")

    heading("import cost of the rules layer on top of python-chess")
    floor = median_process_time("import chess")
    ours = median_process_time(
        "import chess, shared_rules; from shared_rules import get_game; "
        "[get_game(n).start() for n in ('chess', 'english', 'tanzanian')]"
    )
    print(
        f"import chess: {floor * 1e3:.0f} ms; with the rules layer and all three games set up: {ours * 1e3:.0f} ms; "
        f"added {max(0.0, ours - floor) * 1e3:.0f} ms (target < 60 ms)"
    )
