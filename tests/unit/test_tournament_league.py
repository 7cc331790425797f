"""The league's domain: pairings, scoring, match scores, tie-breaks, the computer-stood-in rule and the
withdrawal after two losses on time (functions/tournaments/domain/league.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournaments.domain import (
    GameResult,
    Pairing,
    double_round_robin,
    half_points_text,
    league_table,
    withdrawals,
)

PLAYERS = ["asha", "baraka", "chausiku", "daudi"]


def ids(pairings: list[Pairing]) -> dict[int, str]:
    return {pairing.number: f"g{pairing.number}" for pairing in pairings}


def result(
    pairing: Pairing,
    winner: str | None,
    at: int = 0,
    *,
    plies: int = 0,
    on_time: bool = False,
    computer_white: bool = False,
    computer_black: bool = False,
) -> GameResult:
    game_id, white, black = f"g{pairing.number}", pairing.white, pairing.black
    ended = at or pairing.number + 1
    return GameResult(game_id, white, black, winner, ended, plies, on_time, computer_white, computer_black)


#: Who wins each game of a pair (None: a draw), in the order the pair meets.
Plan = Mapping[frozenset[str], Sequence[str | None]]


def played_as_planned(pairings: list[Pairing], plan: Plan) -> dict[str, GameResult]:
    """Each pairing's result, by game id: the winner the plan names for its pair's next game."""
    seen: Counter[frozenset[str]] = Counter()
    results = {}
    for pairing in pairings:
        pair = frozenset((pairing.white, pairing.black))
        results[f"g{pairing.number}"] = result(pairing, winner_between(pairing, plan[pair][seen[pair]]))
        seen[pair] += 1
    return results


def winner_between(pairing: Pairing, who: str | None) -> str | None:
    """The colour of ``who`` in the pairing (None: a draw)."""
    if who is None:
        return None
    return "white" if pairing.white == who else "black"


@given(st.integers(min_value=3, max_value=8))
def test_every_pair_meets_twice_with_the_colours_reversed(size: int) -> None:
    players = [f"p{index}" for index in range(size)]
    pairings = double_round_robin(players)
    assert len(pairings) == size * (size - 1)
    seatings = Counter((pairing.white, pairing.black) for pairing in pairings)
    for one, other in itertools.permutations(players, 2):
        assert seatings[(one, other)] == 1  # once with each colour
    whites = Counter(pairing.white for pairing in pairings)
    blacks = Counter(pairing.black for pairing in pairings)
    assert all(whites[player] == blacks[player] == size - 1 for player in players)
    rounds: dict[int, list[str]] = {}
    for pairing in pairings:
        rounds.setdefault(pairing.round, []).extend([pairing.white, pairing.black])
    assert all(len(seated) == len(set(seated)) for seated in rounds.values())  # nobody plays twice in a round
    assert [pairing.number for pairing in pairings] == list(range(len(pairings)))


def test_half_points_read_like_football() -> None:
    assert [half_points_text(value) for value in (0, 1, 2, 3, 4, 5)] == ["0", "½", "1", "1½", "2", "2½"]


def test_a_league_of_four_to_the_end_with_match_scores_and_a_winner() -> None:
    pairings = double_round_robin(PLAYERS)
    # asha beats everyone; baraka and chausiku draw all their games with each other and with daudi, except
    # baraka beats daudi once
    results = {}
    for pairing in pairings:
        pair = {pairing.white, pairing.black}
        if "asha" in pair:
            who: str | None = "asha"
        elif pair == {"baraka", "daudi"} and pairing.round < 3:
            who = "baraka"
        else:
            who = None
        results[f"g{pairing.number}"] = result(pairing, winner_between(pairing, who), plies=40)
    table = league_table(PLAYERS, pairings, results, ids(pairings))
    assert table.finished
    points = {standing.player: standing.points for standing in table.standings}
    assert points == {"asha": 12, "baraka": 5, "chausiku": 4, "daudi": 3}  # half points
    assert sum(points.values()) == 2 * len(pairings)
    assert [standing.player for standing in table.standings] == ["asha", "baraka", "chausiku", "daudi"]
    assert table.winners == ["asha"]
    assert table.match_score("asha", "baraka") == "2-0"
    assert table.match_score("baraka", "daudi") == "1½-½"
    assert table.match_score("daudi", "baraka") == "½-1½"
    assert table.match_score("baraka", "chausiku") == "1-1"


def test_a_match_score_counts_only_finished_games() -> None:
    pairings = double_round_robin(PLAYERS)
    first = next(p for p in pairings if {p.white, p.black} == {"asha", "baraka"})
    table = league_table(PLAYERS, pairings, {f"g{first.number}": result(first, None)}, ids(pairings))
    assert table.match_score("asha", "baraka") == "½-½"
    assert table.match_score("asha", "chausiku") == "-"
    assert not table.finished and table.winners == []


def test_sonneborn_berger_breaks_a_tie_on_points() -> None:
    # a cycle (a beats b, b beats c, c beats d, d beats a; the other pairs draw): all tied on points
    players = ["a", "b", "c", "d"]
    pairings = double_round_robin(players)
    outcome = {  # winner of each unordered pair's two games (None: draw)
        frozenset("ab"): ("a", "a"),
        frozenset("ac"): (None, None),
        frozenset("ad"): ("d", "d"),
        frozenset("bc"): ("b", "b"),
        frozenset("bd"): (None, None),
        frozenset("cd"): ("c", "c"),
    }
    results = played_as_planned(pairings, outcome)
    table = league_table(players, pairings, results, ids(pairings))
    by_player = {standing.player: standing for standing in table.standings}
    # points: a 4+2+0=6, b 0+4+2=6, c 2+0+4=6, d 4+2+0=6 half points: all tied
    assert {s.points for s in table.standings} == {6}
    # SB (quarter points): a: beat b twice (2*6*2) + drew c twice (1*6*2) = 36; every player the same by symmetry
    # of this table, so the next break (the tied players' own games = all games) decides nothing either, and
    # the wins decide: each has 2. All share rank 1.
    assert by_player["a"].sonneborn_berger == 36
    assert all(standing.rank == 1 for standing in table.standings)


def test_sonneborn_berger_prefers_points_taken_from_the_strong() -> None:
    players = ["a", "b", "c", "d"]
    pairings = double_round_robin(players)
    # a takes its points off c (the leader), b off d (the last): both on 6 half points
    plan: Plan = {
        frozenset("ab"): [None, None],
        frozenset("ac"): ["a", "a"],
        frozenset("ad"): ["d", "d"],
        frozenset("bc"): ["c", "c"],
        frozenset("bd"): ["b", "b"],
        frozenset("cd"): ["c", "c"],
    }
    results = played_as_planned(pairings, plan)
    table = league_table(players, pairings, results, ids(pairings))
    standing = {s.player: s for s in table.standings}
    assert {p: s.points for p, s in standing.items()} == {"a": 6, "b": 6, "c": 8, "d": 4}
    assert standing["a"].sonneborn_berger == 2 * 2 * 8 + 2 * 1 * 6  # quarter points: 11 points
    assert standing["b"].sonneborn_berger == 2 * 2 * 4 + 2 * 1 * 6  # 7 points
    assert [s.player for s in table.standings] == ["c", "a", "b", "d"]
    assert [s.rank for s in table.standings] == [1, 2, 3, 4]


def test_wins_break_what_the_other_tie_breaks_leave() -> None:
    players = ["a", "b", "c"]
    pairings = double_round_robin(players)
    plan: Plan = {frozenset("ab"): [None, None], frozenset("ac"): [None, None], frozenset("bc"): ["b", "c"]}
    results = played_as_planned(pairings, plan)
    table = league_table(players, pairings, results, ids(pairings))
    assert {s.points for s in table.standings} == {4}
    assert len({s.sonneborn_berger for s in table.standings}) == 1
    assert [s.player for s in table.standings][2] == "a"  # no win; b and c one each, level on everything
    assert [s.rank for s in table.standings] == [1, 1, 3]


def test_head_to_head_breaks_what_sonneborn_berger_leaves() -> None:
    players = ["a", "b", "c", "d"]
    pairings = double_round_robin(players)
    # a and b: a wins one, one drawn -> a leads their own games 1½-½. Arrange equal points and SB.
    plan: Plan = {
        frozenset("ab"): ["a", None],
        frozenset("ac"): [None, None],
        frozenset("ad"): [None, "d"],
        frozenset("bc"): ["b", None],
        frozenset("bd"): [None, None],
        frozenset("cd"): [None, None],
    }
    results = played_as_planned(pairings, plan)
    table = league_table(players, pairings, results, ids(pairings))
    standing = {s.player: s for s in table.standings}
    assert standing["a"].points == standing["b"].points == 6
    assert standing["a"].sonneborn_berger == standing["b"].sonneborn_berger
    assert standing["a"].head_to_head == 3 and standing["b"].head_to_head == 1
    assert standing["a"].rank < standing["b"].rank


def test_the_computer_standing_in_scores_nothing_for_the_absent_player() -> None:
    pairings = double_round_robin(PLAYERS)
    first = pairings[0]
    won_by_computer = result(first, "white", computer_white=True, plies=60)
    table = league_table(PLAYERS, pairings, {"g0": won_by_computer}, ids(pairings))
    points = {s.player: s.points for s in table.standings}
    assert points[first.white] == 0 and points[first.black] == 0  # the board says White won; White was away
    drawn = result(first, None, computer_black=True, plies=60)
    table = league_table(PLAYERS, pairings, {"g0": drawn}, ids(pairings))
    points = {s.player: s.points for s in table.standings}
    assert points[first.white] == 1 and points[first.black] == 0


def test_two_losses_on_time_withdraw_a_player_and_forfeit_the_games_left() -> None:
    pairings = double_round_robin(PLAYERS)
    daudi_games = [p for p in pairings if "daudi" in (p.white, p.black)]
    first, second, third, later = daudi_games[0], daudi_games[1], daudi_games[2], daudi_games[3]

    def lost_on_time(pairing: Pairing, at: int) -> GameResult:
        other = pairing.white if pairing.black == "daudi" else pairing.black
        return result(pairing, winner_between(pairing, other), at=at, on_time=True)

    won = result(third, winner_between(third, "daudi"), at=50)  # ended before the withdrawal: it stands
    results = {
        f"g{first.number}": lost_on_time(first, 100),
        f"g{third.number}": won,
        f"g{second.number}": lost_on_time(second, 200),
        f"g{later.number}": result(later, winner_between(later, "daudi"), at=300),  # after: a forfeit anyway
    }
    assert withdrawals(list(results.values())) == {"daudi": 200}
    table = league_table(PLAYERS, pairings, results, ids(pairings))
    standing = {s.player: s for s in table.standings}
    assert standing["daudi"].withdrawn
    assert standing["daudi"].points == 2  # the one win before the withdrawal
    assert standing["daudi"].played == 6 and standing["daudi"].losses == 5
    forfeits = [item for item in table.scored if item.forfeit]
    assert len(forfeits) == 3 and all(item.score_of("daudi") == 0 for item in forfeits)
    other_games = [item for item in table.scored if "daudi" not in (item.pairing.white, item.pairing.black)]
    assert not any(item.counted for item in other_games)  # the rest of the league plays on
    assert not table.finished


def test_one_loss_on_time_is_only_a_loss() -> None:
    pairings = double_round_robin(PLAYERS)
    first = pairings[0]
    results = {"g0": result(first, "white", on_time=True)}
    assert withdrawals(list(results.values())) == {}
    table = league_table(PLAYERS, pairings, results, ids(pairings))
    assert not any(s.withdrawn for s in table.standings)
    assert sum(item.counted for item in table.scored) == 1


def test_a_player_who_withdraws_forfeits_their_games_left() -> None:
    pairings = double_round_robin(PLAYERS)
    table = league_table(PLAYERS, pairings, {}, ids(pairings), voluntary={"asha": 10})
    standing = {s.player: s for s in table.standings}
    assert standing["asha"].withdrawn and standing["asha"].points == 0 and standing["asha"].losses == 6
    assert standing["baraka"].points == 4 and standing["baraka"].wins == 2


@given(st.lists(st.sampled_from(["white", "black", None]), min_size=12, max_size=12))
def test_points_always_add_up_to_the_games_counted(winners: list[str | None]) -> None:
    pairings = double_round_robin(PLAYERS)
    results = {f"g{p.number}": result(p, winner, plies=30) for p, winner in zip(pairings, winners, strict=True)}
    table = league_table(PLAYERS, pairings, results, ids(pairings))
    assert sum(s.points for s in table.standings) == 2 * len(pairings)
    assert table.finished and table.winners
    ranks = [s.rank for s in table.standings]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_a_player_cannot_be_listed_twice() -> None:
    with pytest.raises(ValueError):
        double_round_robin(["a", "b", "a"])
