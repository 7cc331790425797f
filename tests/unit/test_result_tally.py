"""A player's wins, draws and losses (``ResultTally``) over any order of game ends, settles retried or never made,
and a recount (the back-fill) whose Scan and write fall anywhere among them: in the end each game that ended is
counted once, with its outcome (property tests; the conditional writes' races are tests/games/test_result_counts.py)."""

from __future__ import annotations

from games.ratings.domain import COUNTED_KEPT, TALLIED, ResultTally
from hypothesis import given
from hypothesis import strategies as st

OUTCOMES = list(TALLIED)

#: A game: its player's outcome, when it ends, and after how long each settle of it runs (its first, then any
#: retries; none: its settle was lost, and only the recount can count it).
game = st.tuples(st.sampled_from(OUTCOMES), st.integers(0, 20), st.lists(st.integers(0, 10), max_size=3))


def _settled(tally: ResultTally, game_id: str, outcome: str) -> ResultTally:
    """What ``GameRatings.count_results`` writes for one player: nothing for a game counted already."""
    return tally if tally.has_counted(game_id) else tally.after(game_id, outcome)


@given(st.lists(game, max_size=COUNTED_KEPT // 2), st.integers(0, 30), st.integers(0, 10))
def test_every_game_that_ended_counts_once_whatever_the_settles_and_the_recount(games, scan_at, write_after):
    """Each step at its time (ties: ends first, then settles, then the recount's Scan, then its write)."""
    steps: list[tuple[int, int, str, str]] = []
    for number, (_, ended_at, delays) in enumerate(games):
        steps.append((ended_at, 0, "end", f"g{number}"))
        steps += [(ended_at + delay, 1, "settle", f"g{number}") for delay in delays]
    steps += [(scan_at, 2, "scan", ""), (scan_at + write_after, 3, "write", "")]
    outcome_of = {f"g{number}": outcome for number, (outcome, _, _) in enumerate(games)}
    ended: list[tuple[str, str]] = []
    tally = ResultTally("p", "chess")
    scanned: list[tuple[str, str]] = []
    for _, _, kind, game_id in sorted(steps):
        if kind == "end":
            ended.append((game_id, outcome_of[game_id]))
        elif kind == "settle":
            tally = _settled(tally, game_id, outcome_of[game_id])
        elif kind == "scan":
            scanned = list(ended)
        else:
            recounted = tally.recounted(scanned)
            tally = tally if recounted.counts() == tally.counts() else recounted
    expected = {outcome: sum(1 for _, found in ended if found == outcome) for outcome in OUTCOMES}
    lost = {game_id for game_id, (_, ended_at, delays) in zip(outcome_of, games) if not delays and ended_at > scan_at}
    for game_id in lost:  # its settle lost and ended after the Scan: nothing could count it
        expected[outcome_of[game_id]] -= 1
    assert tally.counts() == expected


@given(st.lists(st.sampled_from(OUTCOMES), max_size=3 * COUNTED_KEPT))
def test_a_recount_of_everything_is_the_count_and_keeps_the_newest_ids(outcomes):
    ended = [(f"g{number}", outcome) for number, outcome in enumerate(outcomes)]
    tally = ResultTally("p", "chess").recounted(ended)
    assert tally.counts() == {outcome: outcomes.count(outcome) for outcome in OUTCOMES}
    assert list(tally.counted) == ended[-COUNTED_KEPT:]
    assert tally.recounted(ended).counts() == tally.counts()  # a second recount changes nothing
