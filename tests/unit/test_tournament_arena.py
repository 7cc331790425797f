"""The arena's domain: scoring (2/1/0, the streak, quick draws, the computer standing in) and the pairing wave
(functions/tournaments/domain/arena.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from tournaments.domain import GameResult, Waiting, arena_ranking, pair_wave, sheet

ME = "asha"


def game(number: int, outcome: str, plies: int = 40, computer: bool = False) -> GameResult:
    """One of ME's games (White): outcome "w", "d" or "l"."""
    winner = {"w": "white", "d": None, "l": "black"}[outcome]
    return GameResult(f"g{number}", ME, f"opp{number}", winner, at=1000 + number, plies=plies, computer_white=computer)


def scores(outcomes: str, **kwargs: object) -> tuple[int, ...]:
    return sheet(ME, [game(n, o, **kwargs) for n, o in enumerate(outcomes)]).scores  # type: ignore[arg-type]


def test_win_two_draw_one_loss_nothing() -> None:
    assert scores("wdl") == (2, 1, 0)


def test_two_wins_in_a_row_double_the_next_games_until_a_non_win() -> None:
    assert scores("wwwwdw") == (2, 2, 4, 4, 2, 2)
    assert scores("wwdww") == (2, 2, 2, 2, 2)
    assert scores("wwlw") == (2, 2, 0, 2)
    result = sheet(ME, [game(n, o) for n, o in enumerate("www")])
    assert result.on_streak and result.points == 8 and result.wins == 3


def test_a_draw_before_ply_twenty_scores_nothing_and_ends_the_streak() -> None:
    quick = [game(0, "w"), game(1, "w"), game(2, "d", plies=19), game(3, "w")]
    assert sheet(ME, quick).scores == (2, 2, 0, 2)
    assert sheet(ME, [game(0, "d", plies=20)]).scores == (1,)


def test_a_game_the_computer_played_for_me_scores_nothing_and_is_no_win() -> None:
    games = [game(0, "w"), game(1, "w"), game(2, "w", computer=True), game(3, "w")]
    result = sheet(ME, games)
    assert result.scores == (2, 2, 0, 2) and result.wins == 3 and not result.on_streak


def test_the_sheet_follows_the_order_the_games_ended_in() -> None:
    games = [game(n, o) for n, o in enumerate("wwl")]
    assert sheet(ME, list(reversed(games))).scores == (2, 2, 0)


def test_ranking_by_points_then_wins() -> None:
    a = sheet("a", [GameResult("1", "a", "b", "white", at=1, plies=40)])
    b = sheet("b", [GameResult("1", "a", "b", "white", at=1, plies=40)])
    c = sheet("c", [GameResult("2", "c", "d", None, at=1, plies=40), GameResult("3", "c", "e", None, at=2, plies=40)])
    ranking = arena_ranking([b, c, a])
    assert [(rank, item.player) for rank, item in ranking] == [(1, "a"), (2, "c"), (3, "b")]


def waiting(count: int, points: list[int] | None = None) -> list[Waiting]:
    return [Waiting(f"p{n}", (points or [0] * count)[n]) for n in range(count)]


def test_closest_scores_are_paired_first() -> None:
    players = [Waiting("a", 10), Waiting("b", 0), Waiting("c", 9), Waiting("d", 1)]
    pairs = {frozenset(pair) for pair in pair_wave(players)}
    assert pairs == {frozenset("ac"), frozenset("bd")}


def test_never_the_last_opponent_nor_a_blocked_pair() -> None:
    players = [
        Waiting("a", 10, last_opponent="b"),
        Waiting("b", 9, last_opponent="a"),
        Waiting("c", 8),
        Waiting("d", 7),
    ]
    pairs = {frozenset(pair) for pair in pair_wave(players)}
    assert pairs == {frozenset("ac"), frozenset("bd")}
    pairs = {frozenset(pair) for pair in pair_wave(players, blocked=lambda one, other: (one, other) == ("d", "b"))}
    assert pairs == {frozenset("ad"), frozenset("bc")}


def test_six_players_are_all_paired_in_one_wave_even_when_the_greedy_pass_corners_itself() -> None:
    # the two at the bottom played each other last: the greedy pass leaves them; the repair swaps them in
    players = [Waiting(f"p{n}", 6 - n) for n in range(4)] + [
        Waiting("p4", 1, last_opponent="p5"),
        Waiting("p5", 0, last_opponent="p4"),
    ]
    pairs = pair_wave(players)
    assert len(pairs) == 3
    assert {frozenset(pair) for pair in pairs}.isdisjoint({frozenset(("p4", "p5"))})
    assert sorted(p for pair in pairs for p in pair) == sorted(w.player for w in players)


def test_white_goes_to_the_player_with_fewer_whites() -> None:
    pairs = pair_wave([Waiting("a", 5, colour_balance=1), Waiting("b", 5, colour_balance=-1)])
    assert pairs == [("b", "a")]
    pairs = pair_wave([Waiting("a", 5, colour_balance=-2), Waiting("b", 5, colour_balance=0)])
    assert pairs == [("a", "b")]


@given(st.integers(min_value=2, max_value=60), st.randoms(use_true_random=False))
def test_a_wave_pairs_everyone_but_one_at_most_and_keeps_every_rule(count: int, rng: random.Random) -> None:
    players = [f"p{n}" for n in range(count)]
    rng.shuffle(players)
    # last wave's pairs (a matching) as the last opponents, and a few blocked pairs
    last = {}
    for one, other in zip(players[0::2], players[1::2], strict=False):
        last[one], last[other] = other, one
    blocked = {(rng.choice(players), rng.choice(players)) for _ in range(count // 10)}
    waiting_now = [Waiting(p, rng.randrange(0, 30), last_opponent=last.get(p)) for p in players]
    pairs = pair_wave(waiting_now, blocked=lambda one, other: (one, other) in blocked)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated))
    for white, black in pairs:
        assert white != black and last.get(white) != black
        assert (white, black) not in blocked and (black, white) not in blocked
    if count >= 4 and not blocked:
        assert len(seated) >= count - 1


def test_a_player_listed_twice_is_paired_once() -> None:
    pairs = pair_wave([Waiting("a", 1), Waiting("a", 1), Waiting("b", 1)])
    assert pairs in ([("a", "b")], [("b", "a")])
