"""An arena being played, on the in-memory repositories and real games: six players present are paired in one
wave; a game's end frees both and the next wave never pairs them again at once; the computer standing in
pauses a player until they come back; the ranking follows the arena's scoring."""

from __future__ import annotations

import pytest
from common.players.service import Player, hash_token
from games.domain import new_game_options
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from tournaments.arena_service import ArenaService
from tournaments.domain import Format, GameResult, NewTournament
from tournaments.models import TournamentView
from tournaments.repository import InMemoryTournaments
from tournaments.repository.arenas import InMemoryArenaSeats
from tournaments.seated import TournamentGames
from tournaments.service import TournamentService
from tournaments.stream import count_result

from tests.clocks import ManualClock


def player(name: str) -> tuple[Player, str]:
    token = "ubao_" + (name * 43)[:43]
    return Player(player_id=f"id-{name}", token_hash=hash_token(token), name=name), hash_token(token)


@pytest.fixture
def world():
    clock = ManualClock()
    games = GamesService(in_memory_games(InMemoryGameStore()), clock=clock)
    repository, seats = InMemoryTournaments(), InMemoryArenaSeats()
    seated = TournamentGames(games.log, games.store)
    service = TournamentService(repository, seated, new_game_options, clock=clock)
    arena = ArenaService(repository, seats, seated, clock)
    return clock, games, repository, seats, seated, service, arena


def test_six_present_players_are_paired_in_one_wave_and_again_after_their_games(world):
    clock, games, repository, seats, seated, service, arena = world
    starts = int(clock() * 1000) + 60_000
    new = NewTournament(Format.ARENA, "chess", options={"turn_seconds": 60}, starts=starts, minutes=30, public=True)
    made = service.create(player("maker")[0], new)
    people = [player(name) for name in ("a", "b", "c", "d", "e", "f")]
    for who, _ in people:
        service.join(who, made.tournament.id, None)
    tournament = repository.get(made.tournament.id)
    assert arena.heartbeat("id-a", tournament, True) == []  # before the start: no pairing
    clock.now += 61
    for who, _ in people:
        clock.now += 4  # a wave at most every 3 s
        arena.heartbeat(who.player_id, tournament, True)
    busy = {seat.player_id: seat.busy for seat in seats.seats(tournament.id)}
    assert all(busy.values()) and len(set(busy.values())) == 3  # everyone paired: 3 games
    token_of = {who.player_id: token for who, token in people}
    first_opponent = {seat.player_id: seat.last_opponent for seat in seats.seats(tournament.id)}
    first_game = busy["id-a"]
    head = games.head(first_game)
    assert head.state == "active" and head.options["turn_seconds"] == 60
    loser = head.black.player_id
    winner = head.white.player_id
    games.resign(token_of[loser], first_game)
    clock.now += 4
    assert count_result(first_game, repository, seated, clock(), seats) is True
    where = {seat.player_id: seat for seat in seats.seats(tournament.id)}
    assert where[winner].busy is None and where[loser].busy is None  # free again, and not paired together
    assert where[winner].last_opponent == loser
    view = TournamentView.of(
        repository.get(tournament.id),
        repository.read(tournament.id)[1],
        winner,
        seats.seats(tournament.id),
        service.now_ms(),
    )
    top = view.arena[0]
    assert top.points == 2 and top.scores == [2] and view.players[top.seat].name == winner.removeprefix("id-")
    # the other games end: the four freed players are paired with new opponents
    for game_id in {busy[p] for p in busy} - {first_game}:
        head = games.head(game_id)
        games.draw(token_of[head.white.player_id], game_id, "offer")
        games.draw(token_of[head.black.player_id], game_id, "accept")
        clock.now += 4
        count_result(game_id, repository, seated, clock(), seats)
        for who, _ in people:
            arena.seats.heartbeat(tournament.id, who.player_id, int(clock() * 1000))
    clock.now += 4
    arena.wave(repository.get(tournament.id))
    free = [seat for seat in seats.seats(tournament.id) if seat.busy is None]
    # paired again as their games ended, never with the same opponent; two left over only if they just met
    assert len(free) in (0, 2) and all(seat.last_opponent in {f.player_id for f in free} for seat in free)
    for seat in seats.seats(tournament.id):
        if seat.busy is None:
            continue
        assert seat.busy not in busy.values()
        head = games.head(seat.busy)
        opponent = ({head.white.player_id, head.black.player_id} - {seat.player_id}).pop()
        assert opponent != first_opponent[seat.player_id]


def test_the_computer_standing_in_pauses_a_player_until_they_come_back(world):
    clock, games, repository, seats, seated, service, arena = world
    new = NewTournament(Format.ARENA, "chess", options={"turn_seconds": 30}, starts=int(clock() * 1000) + 1, minutes=20)
    made = service.create(player("maker")[0], new)
    people = [player(name)[0] for name in ("a", "b", "c", "d")]
    for who in people:
        service.join(who, made.tournament.id, made.invite)
    clock.now += 1
    tournament = repository.get(made.tournament.id)
    for who in people:
        clock.now += 4
        arena.heartbeat(who.player_id, tournament, True)
    game_id = seats.seats(tournament.id)[0].busy
    head = games.head(game_id)
    white, black = head.white.player_id, head.black.player_id
    ended = GameResult(game_id, white, black, "white", at=service.now_ms(), plies=40, computer_white=True)
    repository.record_result(tournament.id, ended)
    arena.game_over(tournament, ended)
    where = {seat.player_id: seat for seat in seats.seats(tournament.id)}
    assert where[white].paused and not where[black].paused
    view = TournamentView.of(tournament, repository.read(tournament.id)[1], None, seats.seats(tournament.id), 0)
    assert {row.points for row in view.arena} == {0}  # the win the computer made for White scores nothing
    clock.now += 4
    arena.heartbeat(white, tournament, True)  # back on the page: paired again when someone is free
    assert not {seat.player_id: seat for seat in seats.seats(tournament.id)}[white].paused


def test_a_game_aborted_in_a_tournament_is_lost_by_whoever_aborted_it(world):
    clock, games, repository, seats, seated, service, arena = world
    made = service.create(player("maker")[0], NewTournament(Format.LEAGUE, "chess", players=3))
    people = [player(name) for name in ("a", "b", "c")]
    for who, _ in people:
        service.join(who, made.tournament.id, made.invite)
    tournament = repository.get(made.tournament.id)
    game_id = tournament.game_ids()[0]
    head = games.head(game_id)
    token_of = {who.player_id: token for who, token in people}
    games.resign(token_of[head.white.player_id], game_id)  # before two moves each: an abort in the games
    assert games.head(game_id).aborted
    assert count_result(game_id, repository, seated, clock(), seats)
    result = repository.read(tournament.id)[1][game_id]
    assert result.winner == "black" and not result.void
