"""A cup's knockout round deadlines (``domain/cup.py``, ``TournamentService.enforce_deadlines``), on the in-memory
repositories with real games: a round's clock starts when its last player is known; a leg still going on after
it is lost on time by the side to move, as the games' own claim on time (before two moves a side: the absent
side's no-show); a level match then goes to its live decider, which has no deadline."""

from __future__ import annotations

import pytest
from games.domain import new_game_options
from games.ratings.repository import InMemoryRatings
from games.ratings.service import GameRatings
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from tournaments.domain import Format, NewTournament, State, cup, game_id_for
from tournaments.domain.cup import DAY_MS, LIVE_ROUND_MS, round_ms
from tournaments.models import TournamentView
from tournaments.repository import InMemoryTournaments
from tournaments.seated import TournamentGames
from tournaments.service import TournamentService
from tournaments.stream import count_result

from tests.clocks import ManualClock
from tests.unit.test_tournament_cup import ORDER, ids, play, strongest_wins, won
from tests.unit.test_tournament_service import open_moves, player

WEEK = 7 * DAY_MS


def test_a_rounds_clock_starts_when_its_last_player_is_known():
    assert round_ms({"days_per_move": 2}) == 20 * DAY_MS and round_ms({}) == 30 * DAY_MS
    assert round_ms({"turn_seconds": 60}) == LIVE_ROUND_MS
    results = strongest_wins(ORDER, 2)  # the group games end at 0 ... 23 ms
    before = cup("t", ORDER, 2, {key: r for key, r in results.items() if key != "23"}, ids(), round_length=WEEK)
    assert [m.deadline for m in before.rounds[0]] == [None, None] and before.overdue(10 * WEEK) == []
    state = cup("t", ORDER, 2, results, ids(), round_length=WEEK)
    assert [m.deadline for m in state.rounds[0]] == [23 + WEEK, 23 + WEEK] and state.rounds[1][0].deadline is None
    assert state.overdue(23 + WEEK - 1) == []
    assert state.overdue(23 + WEEK) == ["k0.0.0", "k0.0.1", "k0.1.0", "k0.1.1"]
    results["k0.0.0"] = won("k0.0.0", "p0", "p3", "white", at=5_000)
    results["k0.0.1"] = won("k0.0.1", "p3", "p0", "black", at=9_000)  # the first semi-final over: 2-0
    state = cup("t", ORDER, 2, results, ids(), round_length=WEEK)
    assert state.overdue(23 + WEEK) == ["k0.1.0", "k0.1.1"] and state.rounds[1][0].deadline is None
    results["k0.1.0"] = won("k0.1.0", "p1", "p2", "white", at=7_000)
    results["k0.1.1"] = won("k0.1.1", "p2", "p1", "black", at=8_000)  # the last player known at 9,000
    state = cup("t", ORDER, 2, results, ids(), round_length=WEEK)
    assert state.rounds[1][0].deadline == 9_000 + WEEK and state.overdue(9_000 + WEEK) == ["k1.0.0", "k1.0.1"]
    assert cup("t", ORDER, 2, results, ids()).overdue(10 * WEEK) == []  # no round length, no deadline


@pytest.fixture
def world():
    clock = ManualClock()
    ratings = InMemoryRatings()
    games = GamesService(in_memory_games(InMemoryGameStore()), clock=clock)
    repository = InMemoryTournaments()
    seated = TournamentGames(games.log, games.store, GameRatings(ratings, clock))
    service = TournamentService(repository, seated, new_game_options, clock=clock)
    return clock, games, repository, seated, service, ratings


def test_legs_unfinished_at_the_deadline_are_lost_by_the_side_to_move(world):
    clock, games, repository, seated, service, ratings = world
    terms = NewTournament(Format.CUP, "chess", groups=2, players=4, options={"days_per_move": 1})
    made = service.create(player("maker")[0], terms)
    people = [player(f"d{n}") for n in range(8)]
    token_of = {who.player_id: token for who, token in people}
    for who, _ in people:
        service.join(who, made.tournament.id, made.invite)
    tournament, _ = service.get(made.tournament.id)
    strength = tournament.order
    for pairing in tournament.pairings():
        game_id = game_id_for(tournament.id, pairing.number)
        stronger = min(pairing.white, pairing.black, key=strength.index)
        play(games, token_of, game_id, "white" if stronger == pairing.white else "black")
        clock.now += 60
        count_result(game_id, repository, seated, clock())
    groups_over = clock.now - 60  # when the last group game ended
    tournament, results = service.get(made.tournament.id)
    one, other = strength[0], strength[3]  # the first semi-final; the second is strength[1] against strength[2]
    first_leg, second_leg = (game_id_for(tournament.id, f"k0.0.{leg}") for leg in "01")
    play(games, token_of, first_leg, "white")  # one wins the first leg
    count_result(first_leg, repository, seated, clock())
    open_moves(games, second_leg, token_of)  # two moves a side; White (other) to move, then nobody moves
    assert games.head(second_leg).turn == "white"
    clock.now = groups_over + round_ms(tournament.options) / 1000 - 1
    tournament, results = service.get(made.tournament.id)  # a second before the deadline: nothing ends
    assert games.head(second_leg).state != "finished" and "k0.1.d" not in tournament.made

    clock.now += 1
    tournament, results = service.get(made.tournament.id)
    ended = results[second_leg]
    assert ended.on_time and ended.winner == "black" and ended.white == other  # the side to move lost on time
    assert games.head(second_leg).reason == "timeout"
    assert ratings.get(one, "chess") is not None and ratings.get(other, "chess") is not None  # rated: settled
    for leg in "01":  # the other semi-final never began: each leg is its White's no-show, so 1-1
        game = results[game_id_for(tournament.id, f"k0.1.{leg}")]
        assert game.winner == "black" and not game.void and game.white == strength[1 if leg == "0" else 2]
    view = TournamentView.of(tournament, results, None, None, 0)
    first, second, final = view.bracket
    assert (first.score, second.score, second.winner) == ("2-0", "1-1", None)
    assert "k0.1.d" in tournament.made and tournament.state is State.RUNNING  # the live decider, no deadline
    assert final.seats[0] == tournament.order.index(one) and final.seats[1] is None
    assert first.deadline is not None and final.deadline is None
    assert not count_result(second_leg, repository, seated, clock())  # the stream's count of it: counted once
    again, counted = service.get(made.tournament.id)
    assert counted == results and again.made == tournament.made  # a second read changes nothing
