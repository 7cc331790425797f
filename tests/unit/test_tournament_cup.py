"""Groups then knockout (the Tanzanian championship's format): the bracket from the groups' tables, a match of
two games told like football, the deciding live game of a level match and the group record after a drawn
decider (pure domain); then a whole cup of 8 on the service with real games, from the joins to the final."""

from __future__ import annotations

import pytest
from common.errors import DomainError
from games.domain import new_game_options
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from tournaments.domain import Format, GameResult, NewTournament, State, cup, game_id_for
from tournaments.domain.cup import group_pairings, groups_of
from tournaments.models import TournamentView
from tournaments.repository import InMemoryTournaments
from tournaments.seated import TournamentGames
from tournaments.service import TournamentService
from tournaments.stream import count_result

from tests.clocks import ManualClock
from tests.unit.test_tournament_service import open_moves, player

ORDER = tuple(f"p{n}" for n in range(8))  # groups: A = p0 p2 p4 p6, B = p1 p3 p5 p7


def strongest_wins(order: tuple[str, ...], groups: int) -> dict[str, GameResult]:
    """Every group game won by the player listed first in ``order`` (so each group's table is in that order)."""
    results = {}
    for _group, pairing in group_pairings(order, groups):
        stronger = min(pairing.white, pairing.black, key=order.index)
        game_id = str(pairing.number)
        winner = "white" if stronger == pairing.white else "black"
        results[game_id] = GameResult(game_id, pairing.white, pairing.black, winner, at=pairing.number, plies=40)
    return results


def ids(groups: int = 2) -> dict[str, str]:
    """Game ids equal to their keys: a group game's number, or a knockout key."""
    from tournaments.domain import knockout_keys

    found = {str(number): str(number) for number in range(len(group_pairings(ORDER, groups)))}
    return found | {key: key for key in knockout_keys(groups)}


def won(game_id: str, white: str, black: str, winner: str | None, at: int = 1000) -> GameResult:
    return GameResult(game_id, white, black, winner, at=at, plies=40)


def test_the_groups_are_dealt_and_the_bracket_crosses_them():
    assert groups_of(ORDER, 2) == [("p0", "p2", "p4", "p6"), ("p1", "p3", "p5", "p7")]
    assert len(group_pairings(ORDER, 2)) == 24  # two groups of 4: 12 games each
    before = cup("t", ORDER, 2, {}, ids())
    assert [(m.one, m.other) for m in before.rounds[0]] == [(None, None), (None, None)] and before.due == []
    results = strongest_wins(ORDER, 2)
    after = cup("t", ORDER, 2, results, ids())
    assert [table.standings[0].player for table in after.groups] == ["p0", "p1"]
    # A1-B2 in the top half, B1-A2 in the bottom half: p0 and p2 (group A) can meet only in the final
    assert [(m.one, m.other) for m in after.rounds[0]] == [("p0", "p3"), ("p1", "p2")]
    assert [(m.one, m.other) for m in after.rounds[1]] == [(None, None)]
    assert {(g.key, g.white, g.black) for g in after.due} == {
        ("k0.0.0", "p0", "p3"),
        ("k0.0.1", "p3", "p0"),
        ("k0.1.0", "p1", "p2"),
        ("k0.1.1", "p2", "p1"),
    }


def test_a_match_two_nil_a_level_match_its_decider_and_a_drawn_decider_to_the_group_record():
    results = strongest_wins(ORDER, 2)
    results["k0.0.0"] = won("k0.0.0", "p0", "p3", "white")
    results["k0.0.1"] = won("k0.0.1", "p3", "p0", "black")
    results["k0.1.0"] = won("k0.1.0", "p1", "p2", "white")
    results["k0.1.1"] = won("k0.1.1", "p2", "p1", "white")  # 1-1: level
    state = cup("t", ORDER, 2, results, ids())
    first, second = state.rounds[0]
    assert (first.score, first.winner) == ("2-0", "p0")
    assert (second.score, second.winner) == ("1-1", None)
    decider = next(game for game in state.due if game.key == "k0.1.d")
    assert decider.decider and {decider.white, decider.black} == {"p1", "p2"}
    assert state.rounds[1][0].one == "p0" and state.rounds[1][0].other is None
    # the decider drawn: p1 (6 of 6 in group B) has the better group record than p2 (4 of 6 in group A)
    results["k0.1.d"] = won("k0.1.d", decider.white, decider.black, None)
    state = cup("t", ORDER, 2, results, ids())
    second = state.rounds[0][1]
    assert (second.winner, second.by_group_record, second.decider_score) == ("p1", True, "½-½")
    assert {(g.key, g.white, g.black) for g in state.due if g.key.startswith("k1")} == {
        ("k1.0.0", "p0", "p1"),
        ("k1.0.1", "p1", "p0"),
    }
    results["k1.0.0"] = won("k1.0.0", "p0", "p1", None)
    results["k1.0.1"] = won("k1.0.1", "p1", "p0", "black")
    final = cup("t", ORDER, 2, results, ids())
    assert final.finished and final.winners == ["p0"] and final.rounds[1][0].score == "1½-½"


def test_a_decider_won_goes_through_and_the_lot_for_its_colours_is_the_same_for_every_reader():
    results = strongest_wins(ORDER, 2)
    for key, (white, black) in {"k0.1.0": ("p1", "p2"), "k0.1.1": ("p2", "p1")}.items():
        results[key] = won(key, white, black, None)  # two draws: 1-1
    lots = {(g.white, g.black) for seed in ("t",) * 3 for g in cup(seed, ORDER, 2, results, ids()).due if g.decider}
    assert len(lots) == 1
    white, black = lots.pop()
    results["k0.1.d"] = won("k0.1.d", white, black, "black")
    match = cup("t", ORDER, 2, results, ids()).rounds[0][1]
    assert (match.winner, match.by_group_record, match.decider_score) == (
        black,
        False,
        "0-1" if match.one == white else "1-0",
    )


@pytest.fixture
def world():
    clock = ManualClock()
    games = GamesService(in_memory_games(InMemoryGameStore()), clock=clock)
    repository = InMemoryTournaments()
    seated = TournamentGames(games.log, games.store)
    return clock, games, repository, seated, TournamentService(repository, seated, new_game_options, clock=clock)


def test_the_cups_terms_are_checked():
    service = TournamentService(InMemoryTournaments(), None, new_game_options)  # type: ignore[arg-type]
    for groups, players in ((3, 4), (2, 3), (2, 7), (None, 4)):
        with pytest.raises(DomainError) as caught:
            service.create(player("maker")[0], NewTournament(Format.CUP, "chess", groups=groups, players=players))
        assert caught.value.code == "invalid_cup_size"
    made = service.create(player("maker")[0], NewTournament(Format.CUP, "chess", groups=4, players=5))
    assert (made.tournament.max_players, made.tournament.min_players, made.tournament.groups) == (20, 16, 4)


def play(games, token_of, game_id: str, winner: str | None) -> None:
    open_moves(games, game_id, token_of)
    head = games.head(game_id)
    if winner is None:
        games.draw(token_of[head.white.player_id], game_id, "offer")
        games.draw(token_of[head.black.player_id], game_id, "accept")
    else:
        loser = head.black if winner == "white" else head.white
        games.resign(token_of[loser.player_id], game_id)


def test_a_cup_of_eight_plays_its_groups_then_its_knockout_to_the_final(world):
    clock, games, repository, seated, service = world
    made = service.create(player("maker")[0], NewTournament(Format.CUP, "tanzanian", groups=2, players=4))
    people = [player(f"m{n}") for n in range(8)]
    token_of = {who.player_id: token for who, token in people}
    for who, _ in people:
        service.join(who, made.tournament.id, made.invite)
    tournament, _ = service.get(made.tournament.id)
    assert tournament.state is State.RUNNING and len(tournament.pairings()) == 24 and tournament.games_made
    strength = tournament.order  # the seeding order: whoever is listed first wins each group game
    for pairing in tournament.pairings():
        game_id = game_id_for(tournament.id, pairing.number)
        stronger = min(pairing.white, pairing.black, key=strength.index)
        play(games, token_of, game_id, "white" if stronger == pairing.white else "black")
        clock.now += 60
        assert count_result(game_id, repository, seated, clock())
    tournament, results = service.get(made.tournament.id)
    semis = tournament.cup(results).rounds[0]
    assert sorted(tournament.made) == ["k0.0.0", "k0.0.1", "k0.1.0", "k0.1.1"]
    assert [(m.one, m.other) for m in semis] == [(strength[0], strength[3]), (strength[1], strength[2])]
    # the first semi-final 2-0; the second level (each wins with White), then a drawn live decider
    outcome = {"k0.0.0": "white", "k0.0.1": "black", "k0.1.0": "white", "k0.1.1": "white"}
    for key, winner in outcome.items():
        play(games, token_of, game_id_for(tournament.id, key), winner)
        clock.now += 60
        count_result(game_id_for(tournament.id, key), repository, seated, clock())
    tournament, results = service.get(made.tournament.id)
    decider = game_id_for(tournament.id, "k0.1.d")
    assert "k0.1.d" in tournament.made and games.head(decider).options["turn_seconds"] == 60
    play(games, token_of, decider, None)
    count_result(decider, repository, seated, clock())
    tournament, results = service.get(made.tournament.id)
    view = TournamentView.of(tournament, results, strength[1], None, 0)
    first, second, final = view.bracket
    assert (first.score, first.decider, second.score, second.decider) == ("2-0", None, "1-1", "½-½")
    assert second.by_group_record and second.winner == 1  # seat 1 is strength[1]: 6 of 6 in its group
    assert final.round == 1 and final.score == "-" and len(view.your_games) == 2  # the final's two games
    assert [len(group) for group in view.groups] == [4, 4] and view.groups[0][0].points == 6
    final_games: tuple[tuple[str, str | None], ...] = (("k1.0.0", None), ("k1.0.1", "black"))
    for key, last in final_games:  # the final: a draw, then strength[0] wins
        play(games, token_of, game_id_for(tournament.id, key), last)
        clock.now += 60
        count_result(game_id_for(tournament.id, key), repository, seated, clock())
    tournament, results = service.get(made.tournament.id)
    assert tournament.state is State.FINISHED and tournament.cup(results).winners == [strength[0]]
    view = TournamentView.of(tournament, results, None, None, 0)
    assert view.bracket[-1].score == "1½-½" and [view.players[w].name for w in view.winners] == [
        tournament.entries[strength[0]].name
    ]
    assert len(results) == 24 + 4 + 1 + 2  # every game counted once
