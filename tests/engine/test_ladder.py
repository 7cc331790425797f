"""The level ladder's machinery: openings, adjudication, scores, and matches spread over processes."""

from __future__ import annotations

import pytest

from shared_rules import get_game
from shared_rules.search.core import Searcher
from shared_rules.search.ladder import (
    ADJUDICATION,
    BALANCED,
    OPENING_PLIES,
    RANDOM,
    Adjudicator,
    MatchScore,
    match,
    match_tasks,
    openings,
    play_all,
)
from shared_rules.search.levels import model_of, search_state


@pytest.mark.parametrize("game_name", ["chess", "english", "tanzanian"])
def test_openings_are_different_balanced_and_a_few_plies_in(game_name):
    game = get_game(game_name)
    starts = openings(game, 8, seed=3)
    assert len({position.fen() for position in starts}) == 8
    model = model_of(game)
    for position in starts:
        assert position.ply == OPENING_PLIES
        assert not position.status().is_over
        score = Searcher(model, table_limit=20_000).search(search_state(position), node_limit=1_500).score
        assert abs(score) <= BALANCED
    assert [p.fen() for p in openings(game, 8, seed=3)] == [p.fen() for p in starts]
    assert [p.fen() for p in openings(game, 8, seed=4)] != [p.fen() for p in starts]


def _verdicts(game_name: str, fens: list[str], plies: int) -> list[str | None]:
    """The adjudicator's verdict after each of ``plies`` plies that cycle through ``fens`` (no material change)."""
    game = get_game(game_name)
    judge = Adjudicator(game)
    positions = [game.from_fen(fen) for fen in fens]
    return [judge.after(positions[ply % len(positions)]) for ply in range(plies)]


def test_a_lasting_winning_lead_is_adjudicated_for_the_side_ahead():
    rule = ADJUDICATION["chess"]
    queen_up = ["4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 30", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 30"]
    verdicts = _verdicts("chess", queen_up, rule.win_plies + 1)
    assert verdicts[: rule.win_plies] == [None] * rule.win_plies
    assert verdicts[-1] == "white"
    black_ahead = ["3qk3/8/8/8/8/8/PP6/4K3 w - - 0 30"]
    assert _verdicts("chess", black_ahead, rule.win_plies + 1)[-1] == "black"
    two_men_up = ["B:W21,22,23,24,25:B1,2,3"]
    assert _verdicts("english", two_men_up, ADJUDICATION["english"].win_plies + 1)[-1] == "white"
    king_up = ["W:Wa1,c1:BKh8,g7,e7,c7"]
    assert _verdicts("tanzanian", king_up, ADJUDICATION["tanzanian"].win_plies + 1)[-1] == "black"


def test_a_lead_that_cannot_win_is_not_adjudicated_a_win():
    # Two knights cannot force mate, and three kings against one are held to a draw by the countdown.
    knights = _verdicts("chess", ["4k3/8/8/8/8/8/8/1NN1K3 w - - 0 30"], 30)
    assert "white" not in knights
    countdown = _verdicts("tanzanian", ["W:WKa1,Kc1,Ke1:BKh8"], 12)
    assert "white" not in countdown


def test_a_long_shuffle_without_a_winning_lead_is_a_draw():
    rule = ADJUDICATION["tanzanian"]
    king_and_man_against_king = ["B:WKd2:BKa1,h4", "W:WKd2:BKb2,h4"]
    verdicts = _verdicts("tanzanian", king_and_man_against_king, rule.draw_plies + 1)
    assert verdicts[:-1] == [None] * rule.draw_plies and verdicts[-1] == "draw"
    chess_rule = ADJUDICATION["chess"]
    early = _verdicts("chess", ["4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"], chess_rule.draw_after - 1)
    assert "draw" not in early  # before draw_after plies even a still position plays on


def test_the_score_line_and_elo():
    even = MatchScore(2, 1, wins=30, draws=40, losses=30)
    elo, error = even.elo()
    assert elo == pytest.approx(0) and 30 < error < 80
    better = MatchScore(2, 1, wins=60, draws=20, losses=20)
    assert better.elo()[0] == pytest.approx(147.2, abs=1)  # a 70% score
    sweep = MatchScore(1, RANDOM, wins=100)
    assert sweep.elo()[0] < 1000
    assert sweep.line().startswith("level 1 vs random: 100/100 (+100 =0 -0), Elo ≥ +")
    # Per-game variance 0.16, so the 95% bar on the score is 0.7 ± 0.078: from +87 to +219 Elo.
    assert better.line() == "level 2 vs level 1: 70/100 (+60 =20 -20), Elo +147 ± 66, 0 adjudicated"


def test_a_match_alternates_colours_and_plays_each_opening_twice():
    game = get_game("english")
    tasks = match_tasks(game, 2, RANDOM, 6, seed=2)
    assert [task.a_colour for task in tasks] == ["white", "black"] * 3
    outcomes = list(play_all(tasks))
    starts = openings(game, 3, seed=2)
    for outcome in outcomes:
        start = starts[outcome.task.number // 2]
        replayed = start
        for move in outcome.moves:
            replayed = replayed.play(replayed.parse_move(move))
        assert outcome.ended_by == "adjudicated" or replayed.status().is_over
        if outcome.ended_by != "adjudicated":
            assert replayed.status().result == outcome.result


def test_processes_play_the_same_games_as_one():
    game = get_game("tanzanian")
    alone = [(o.result, o.moves) for o in play_all(match_tasks(game, 1, RANDOM, 4, seed=5))]
    shared = [(o.result, o.moves) for o in play_all(match_tasks(game, 1, RANDOM, 4, seed=5), workers=2)]
    assert shared == alone


def test_level_one_beats_a_random_mover():
    score = match(get_game("english"), 1, RANDOM, 6, seed=1)
    assert score.games == 6 and score.points >= 4.5
