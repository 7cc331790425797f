"""The tournaments' service on the in-memory repositories (tournaments and real games) and a clock the tests
move: making, joining (one entry each, 20 racing for 4 places), the league's start, results counted once,
withdrawals, and the refusals."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from common.errors import DomainError
from common.players.service import Player, hash_token
from games.domain import new_game_options
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from tournaments.domain import Format, NewTournament, State, game_id_for
from tournaments.repository import InMemoryTournaments
from tournaments.seated import TournamentGames
from tournaments.service import TournamentService
from tournaments.stream import count_result

from shared_rules import RulesError
from tests.clocks import ManualClock


def player(name: str) -> tuple[Player, str]:
    token = "ubao_" + (name * 43)[:43]
    return Player(player_id=f"id-{name}", token_hash=hash_token(token), name=name), hash_token(token)


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def games(clock):
    return GamesService(in_memory_games(InMemoryGameStore()), clock=clock)


@pytest.fixture
def repository():
    return InMemoryTournaments()


@pytest.fixture
def seated(games):
    return TournamentGames(games.log, games.store)


@pytest.fixture
def service(repository, seated, clock):
    return TournamentService(repository, seated, new_game_options, clock=clock)


def refused(code: str, action, *args):
    with pytest.raises((DomainError, RulesError)) as caught:
        action(*args)
    error = caught.value
    assert isinstance(error, (DomainError, RulesError)) and error.code == code, error


def open_moves(games, game_id: str, token_of: dict[str, str], plies: int = 4) -> None:
    """Two moves a side (each the first legal one), so that the game's end counts."""
    for _ in range(plies):
        head = games.head(game_id)
        seat = head.seat(head.turn)
        games.move(token_of[seat.player_id], game_id, head.position().legal_notations()[0], head.ply)


def league(service, size=4, **terms):
    maker, _ = player("maker")
    return service.create(maker, NewTournament(Format.LEAGUE, "tanzanian", players=size, **terms))


def test_a_league_of_four_fills_starts_plays_its_twelve_games_and_finishes(service, repository, games, seated, clock):
    made = league(service, options={"days_per_move": 2})
    assert made.invite and made.tournament.state is State.OPEN and not made.tournament.public
    names = ["asha", "baraka", "chausiku", "daudi"]
    people = {name: player(name) for name in names}
    for name in names[:3]:
        joined = service.join(people[name][0], made.tournament.id, made.invite)
        assert joined.state is State.OPEN
    last = service.join(people["daudi"][0], made.tournament.id, made.invite)
    assert last.state is State.RUNNING and len(last.order) == 4
    tournament, results = service.get(made.tournament.id)
    game_ids = tournament.game_ids()
    assert len(game_ids) == 12 and results == {}
    for pairing in tournament.pairings():  # every game made at once, both seats taken, rated by default
        head = games.head(game_ids[pairing.number])
        assert head.state == "active" and head.rated
        assert (head.white.player_id, head.black.player_id) == (pairing.white, pairing.black)
        assert head.options["days_per_move"] == 2
    # asha wins every game (her opponents resign); the others draw among themselves
    token_of = {people[name][0].player_id: people[name][1] for name in names}
    for pairing in tournament.pairings():
        game_id = game_ids[pairing.number]
        open_moves(games, game_id, token_of)  # a rated game ended before two moves a side is aborted (fair play)
        if "id-asha" in (pairing.white, pairing.black):
            loser = pairing.black if pairing.white == "id-asha" else pairing.white
            games.resign(token_of[loser], game_id)
        else:
            games.draw(token_of[pairing.white], game_id, "offer")
            games.draw(token_of[pairing.black], game_id, "accept")
        clock.now += 60
        assert count_result(game_id, repository, seated, clock()) is True
        assert count_result(game_id, repository, seated, clock()) is False  # a record fed twice counts once
    tournament, results = service.get(made.tournament.id)
    assert tournament.state is State.FINISHED and len(results) == 12
    table = tournament.table(results)
    assert table.winners == ["id-asha"]
    assert {s.player: s.points for s in table.standings} == {
        "id-asha": 12,
        "id-baraka": 4,
        "id-chausiku": 4,
        "id-daudi": 4,
    }
    assert table.match_score("id-asha", "id-daudi") == "2-0"
    assert table.match_score("id-baraka", "id-chausiku") == "1-1"


def test_a_game_outside_any_tournament_is_not_counted(service, repository, games, seated):
    asha, _ = player("asha")
    outcome = games.create(asha, "chess", "white", {}, None)
    assert count_result(outcome.head.id, repository, seated, 0) is False


def test_twenty_racing_joins_of_a_league_of_four_make_four_entries(service, repository):
    made = league(service)
    people = [player(f"p{n:02d}")[0] for n in range(20)]
    answers: list[str] = []
    barrier = threading.Barrier(len(people))

    def join(who: Player) -> None:
        barrier.wait()
        try:
            service.join(who, made.tournament.id, made.invite)
            answers.append("in")
        except DomainError as refusal:
            answers.append(refusal.code)

    threads = [threading.Thread(target=join, args=(who,)) for who in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers.count("in") == 4
    assert set(answers) - {"in"} <= {"tournament_full", "tournament_started"}
    tournament = repository.get(made.tournament.id)
    assert len(tournament.entries) == 4 and tournament.state is State.RUNNING


def test_refusals_write_nothing(service, repository, clock):
    maker, _ = player("maker")
    refused("unknown_game", service.create, maker, NewTournament(Format.LEAGUE, "checkers"))
    refused("invalid_league_size", service.create, maker, NewTournament(Format.LEAGUE, "chess", players=9))
    refused("invalid_league_size", service.create, maker, NewTournament(Format.LEAGUE, "chess", players=2))
    past = int(clock() * 1000) - 1
    arena: dict[str, Any] = {"options": {"turn_seconds": 30}, "minutes": 30}
    refused("starts_in_past", service.create, maker, NewTournament(Format.ARENA, "chess", starts=past, **arena))
    soon = int(clock() * 1000) + 3_600_000
    refused("arena_needs_live_table", service.create, maker, NewTournament(Format.ARENA, "chess", starts=soon))
    refused(
        "invalid_arena_length",
        service.create,
        maker,
        NewTournament(Format.ARENA, "chess", starts=soon, options={"turn_seconds": 30}, minutes=200),
    )
    refused("invalid_option", service.create, maker, NewTournament(Format.LEAGUE, "chess", options={"days": 3}))
    assert repository.tournaments == {}
    made = service.create(maker, NewTournament(Format.ARENA, "chess", starts=soon, **arena))
    assert made.tournament.max_players == 500 and made.tournament.minutes == 30


def test_joining_twice_a_private_league_without_its_code_and_a_started_league(service):
    made = league(service, size=3)
    asha, baraka, chausiku, daudi = (player(name)[0] for name in ("asha", "baraka", "chausiku", "daudi"))
    refused("invalid_tournament_invite", service.join, asha, made.tournament.id, None)
    refused("invalid_tournament_invite", service.join, asha, made.tournament.id, "not-the-code")
    service.join(asha, made.tournament.id, made.invite)
    refused("already_entered", service.join, asha, made.tournament.id, made.invite)
    service.join(baraka, made.tournament.id, made.invite)
    service.join(chausiku, made.tournament.id, made.invite)
    refused("tournament_started", service.join, daudi, made.tournament.id, made.invite)
    refused("tournament_not_found", service.join, daudi, "nope", made.invite)


def test_a_league_starts_at_its_start_time_with_three_players(service, clock):
    starts = int(clock() * 1000) + 60_000
    made = league(service, size=6, starts=starts)
    for name in ("asha", "baraka", "chausiku"):
        service.join(player(name)[0], made.tournament.id, made.invite)
    assert service.get(made.tournament.id)[0].state is State.OPEN
    clock.now += 61
    tournament, _ = service.get(made.tournament.id)
    assert tournament.state is State.RUNNING and len(tournament.pairings()) == 6


def test_withdrawing_before_the_start_frees_the_place_and_after_it_forfeits(service, games, repository):
    made = league(service, size=3)
    asha, baraka, chausiku = (player(name)[0] for name in ("asha", "baraka", "chausiku"))
    service.join(asha, made.tournament.id, made.invite)
    assert service.withdraw(asha, made.tournament.id).entries == {}
    refused("not_entered", service.withdraw, asha, made.tournament.id)
    for who in (asha, baraka, chausiku):
        service.join(who, made.tournament.id, made.invite)
    running = service.withdraw(asha, made.tournament.id)
    assert "id-asha" in running.withdrawn
    tournament, results = service.get(made.tournament.id)
    table = tournament.table(results)
    standing = {s.player: s for s in table.standings}
    assert standing["id-asha"].withdrawn and standing["id-asha"].losses == 4
    assert standing["id-baraka"].points == 4 and standing["id-chausiku"].points == 4


def test_a_start_cut_short_makes_each_game_once_when_tried_again(service, repository, games):
    made = league(service, size=4, starts=int(service.now_ms()) + 60_000)
    for name in ("asha", "baraka", "chausiku"):
        service.join(player(name)[0], made.tournament.id, made.invite)
    tournament = repository.get(made.tournament.id)
    assert repository.start(tournament, tournament.seeded(), service.now_ms())  # then the request died
    assert games.store.load(game_id_for(made.tournament.id, 0))[0] is None  # no game made yet
    for _ in range(2):  # the next reads make the games, once
        running, _results = service.get(made.tournament.id)
    assert running.games_made and running.state is State.RUNNING
    for number in range(6):
        head, events = games.store.load(game_id_for(made.tournament.id, number))
        assert head is not None and len(events) == 1


def test_a_start_that_read_fewer_entries_than_there_are_is_refused(service, repository):
    made = league(service, size=5, starts=int(service.now_ms()) + 60_000)
    for name in ("asha", "baraka", "chausiku"):
        service.join(player(name)[0], made.tournament.id, made.invite)
    stale = repository.get(made.tournament.id)
    service.join(player("daudi")[0], made.tournament.id, made.invite)  # joins after the starter read
    assert not repository.start(stale, stale.seeded(), service.now_ms())
    assert service.start(stale).state is State.OPEN  # nobody is seated out: the next request decides again


def test_the_schedule_keeps_an_open_league_per_game_and_starts_it_at_four(service, repository, clock):
    from tournaments.schedule import run_schedule

    now = service.now_ms()
    assert run_schedule(service, now) == {"made": 3, "started": 0, "arenas": 6, "told": 0, "deadlines": 0}
    run_schedule(service, now + 1000)  # the same quarter hour: nothing made twice
    open_leagues = [t for t in repository.tournaments.values() if t.state is State.OPEN and t.format is Format.LEAGUE]
    assert sorted(t.game for t in open_leagues) == ["chess", "english", "tanzanian"]
    chess = next(t for t in open_leagues if t.game == "chess")
    assert chess.public and chess.max_players == 6 and chess.min_players == 4 and chess.created_by == ""
    for name in ("asha", "baraka", "chausiku"):
        service.join(player(name)[0], chess.id, None)
    assert run_schedule(service, now + 15 * 60_000)["started"] == 0
    service.join(player("daudi")[0], chess.id, None)
    assert run_schedule(service, now + 30 * 60_000) == {"made": 1, "started": 1, "arenas": 6, "told": 0, "deadlines": 0}
    started = repository.get(chess.id)
    assert started.state is State.RUNNING and started.games_made and len(started.pairings()) == 12
    leagues = [t for t in repository.tournaments.values() if t.format is Format.LEAGUE]
    assert len([t for t in leagues if t.game == "chess" and t.state is State.OPEN]) == 1


def test_the_schedule_makes_each_games_daily_arenas_at_20_00_in_dar_es_salaam_and_manila(service, repository, clock):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from tournaments.schedule import run_schedule

    def arenas():
        return sorted(
            (t for t in repository.tournaments.values() if t.format is Format.ARENA), key=lambda t: (t.starts, t.game)
        )

    clock.now = datetime(2026, 12, 6, 11, 50, tzinfo=ZoneInfo("UTC")).timestamp()  # 14:50 in Dar, 19:50 in Manila
    for minutes in (0, 4, 9):  # runs before 20:00 in Manila make each arena once
        run_schedule(service, service.now_ms() + minutes * 60_000)
    made = arenas()
    assert len(made) == 6 and {t.game for t in made} == {"chess", "english", "tanzanian"}
    for zone in ("Asia/Manila", "Africa/Dar_es_Salaam"):
        ours = [t for t in made if datetime.fromtimestamp(t.starts / 1000, ZoneInfo(zone)).hour == 20]
        assert len(ours) == 3, zone
        assert {datetime.fromtimestamp(t.starts / 1000, ZoneInfo(zone)).date().isoformat() for t in ours} == {
            "2026-12-06"
        }
    assert all(
        t.public and t.rated and t.minutes == 60 and t.options["turn_seconds"] == 60 and t.created_by == ""
        for t in made
    )
    assert [t.name for t in made[:3]] == ["20:00 PHT"] * 3 and [t.name for t in made[3:]] == ["20:00 EAT"] * 3
    clock.now += 20 * 60  # 20:10 in Manila: its arena is on, the next one (tomorrow's) is listed beside it
    run_schedule(service, service.now_ms())
    assert len(arenas()) == 9
    tomorrow = arenas()[-3:]
    assert {datetime.fromtimestamp(t.starts / 1000, ZoneInfo("Asia/Manila")).isoformat() for t in tomorrow} == {
        "2026-12-07T20:00:00+08:00"
    }
    players = [player(name)[0] for name in ("asha", "baraka")]
    for one in players:  # anyone can join a daily arena before and while it is on
        service.join(one, made[0].id, None)
    assert len(repository.get(made[0].id).entries) == 2


def test_the_regular_schedule_run_from_19_55_tells_a_daily_arena_once(service, repository, clock):
    """Under `make run` the runner's minute-by-minute schedule is the 19:55 run's stand-in: the first run at or
    after 19:55 (5 minutes before the start) tells the arena's players, once."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from tournaments.schedule import run_schedule

    told: list[str] = []

    class Told:
        def arena_soon(self, tournament):
            told.append(tournament.id)

    service.announce = Told()
    clock.now = datetime(2026, 12, 6, 19, 50, tzinfo=ZoneInfo("Africa/Dar_es_Salaam")).timestamp()
    assert run_schedule(service, service.now_ms())["told"] == 0  # 19:50: not yet
    for minutes in (5, 6, 7):  # 19:55, 19:56, 19:57
        clock.now += 60 if minutes > 5 else 300
        run_schedule(service, service.now_ms())
    arenas = {
        t.id
        for t in repository.tournaments.values()
        if t.name == "20:00 EAT" and t.starts == service.now_ms() + 3 * 60_000
    }
    assert sorted(told) == sorted(arenas) and len(arenas) == 3
