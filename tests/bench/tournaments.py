"""Section ``tournaments``: an arena's pairing wave of 500 present players (the issue's target: well under 1 s
of one vCPU), beside its reference, sorting the same players by score (what any pairing must at least do),
and a full league of 8's standings beside the same reference."""

from __future__ import annotations

import random

from tests.bench.common import best_of, heading


def bench_tournaments() -> None:
    from tournaments.domain import GameResult, Waiting, double_round_robin, league_table, pair_wave

    rng = random.Random(40)
    players = [f"p{n:03d}" for n in range(500)]
    shuffled = players[:]
    rng.shuffle(shuffled)
    last = {}
    for one, other in zip(shuffled[0::2], shuffled[1::2], strict=True):
        last[one], last[other] = other, one
    blocked = {(rng.choice(players), rng.choice(players)) for _ in range(200)}
    waiting = [
        Waiting(p, rng.randrange(0, 40), last_opponent=last[p], rating=rng.randrange(900, 2300)) for p in players
    ]

    def reference() -> None:
        sorted(waiting, key=lambda item: (-item.points, -item.rating, item.player))

    def wave() -> None:
        pair_wave(waiting, blocked=lambda one, other: (one, other) in blocked)

    heading("tournaments: an arena wave of 500 players; a league of 8's standings")
    pairs = pair_wave(waiting, blocked=lambda one, other: (one, other) in blocked)
    sort_time, wave_time = best_of(reference, repeat=7), best_of(wave, repeat=7)
    print(f"sort 500 players by score (reference)   {sort_time * 1e3:8.3f} ms")
    print(
        f"pair a wave of 500 players              {wave_time * 1e3:8.3f} ms  ({wave_time / sort_time:.0f}x the sort; "
        f"{len(pairs)} pairs, target: under 1 s, {1 / wave_time:.0f}x under it)"
    )
    league = [f"q{n}" for n in range(8)]
    pairings = double_round_robin(league)
    results = {
        f"g{p.number}": GameResult(f"g{p.number}", p.white, p.black, rng.choice(["white", "black", None]), at=p.number)
        for p in pairings
    }
    game_ids = {p.number: f"g{p.number}" for p in pairings}
    table_time = best_of(lambda: league_table(league, pairings, results, game_ids), repeat=7)
    print(f"standings of a finished league of 8     {table_time * 1e3:8.3f} ms  (56 games)")
