"""Blocks in tournaments, on the in-memory repositories and real games: a league never seats two players of
whom one blocked the other (the join is refused, whichever of the two blocked, racing joins included), and an
arena's wave never pairs them (each heartbeat carries the player's blocks onto their seat)."""

from __future__ import annotations

import pytest
from common.errors import DomainError
from common.players.blocks import add_block
from common.players.repository import InMemoryPlayers
from common.players.service import Player, hash_token
from games.domain import new_game_options
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from tournaments.arena_service import ArenaService
from tournaments.domain import Entry, Format, NewTournament, Tournament
from tournaments.repository import InMemoryTournaments
from tournaments.repository.arenas import InMemoryArenaSeats
from tournaments.seated import TournamentGames
from tournaments.service import TournamentService

from tests.checks import known
from tests.clocks import ManualClock


class World:
    def __init__(self, repository: InMemoryTournaments | None = None):
        self.clock = ManualClock()
        self.games = GamesService(in_memory_games(InMemoryGameStore()), clock=self.clock)
        self.repository = repository or InMemoryTournaments()
        self.players = InMemoryPlayers()
        seated = TournamentGames(self.games.log, self.games.store)
        self.service = TournamentService(
            self.repository, seated, new_game_options, clock=self.clock, players=self.players
        )
        self.seats = InMemoryArenaSeats()
        self.arena = ArenaService(self.repository, self.seats, seated, self.clock)

    def player(self, name: str) -> Player:
        """The player as the token's read gives them: with their stored item (their blocks in it)."""
        key = hash_token("ubao_" + (name * 43)[:43])
        self.players.create(Player(f"id-{name}", key, name))
        found = self.players.get(key)
        assert found is not None
        return found

    def block(self, blocker: Player, blocked: Player) -> Player:
        add_block(self.players, blocker.token_hash, blocked.player_id, blocked.name, "some-game", 0)
        found = self.players.get(blocker.token_hash)
        assert found is not None
        return found

    def league(self, size: int = 4) -> str:
        made = self.service.create(
            self.player("maker"), NewTournament(Format.LEAGUE, "chess", players=size, public=True)
        )
        return made.tournament.id


def refused_join(world: World, who: Player, tournament_id: str) -> None:
    with pytest.raises(DomainError) as caught:
        world.service.join(who, tournament_id, None)
    assert caught.value.code == "blocked_entrant"
    assert who.player_id not in known(world.repository.get(tournament_id)).entries


@pytest.mark.parametrize("who_blocked", ["the one in the league", "the joiner"])
def test_a_league_refuses_a_player_blocked_either_way_and_seats_the_rest(who_blocked):
    world = World()
    league = world.league()
    asha, baraka = world.player("asha"), world.player("baraka")
    world.service.join(asha, league, None)
    if who_blocked == "the joiner":
        baraka = world.block(baraka, asha)
    else:
        world.block(asha, baraka)
    refused_join(world, baraka, league)
    others = [world.player(name) for name in ("chausiku", "daudi", "eliya")]
    for other in others:
        world.service.join(other, league, None)
    started = known(world.repository.get(league))
    assert started.state.value == "running" and set(started.order) == {"id-asha", "id-chausiku", "id-daudi", "id-eliya"}
    assert all({"id-asha", "id-baraka"} != {p.white, p.black} for p in started.pairings())


class RacingJoins(InMemoryTournaments):
    """A join that meets another one entering at the same moment (after this one read the league)."""

    racer: Entry | None = None

    def join(self, tournament_id: str, entry: Entry) -> Tournament:
        racer, self.racer = self.racer, None
        if racer is not None:
            super().join(tournament_id, racer)
        return super().join(tournament_id, entry)


def test_of_two_racing_joins_of_players_who_blocked_one_another_the_later_gives_way():
    repository = RacingJoins()
    world = World(repository)
    league = world.league()
    asha, baraka = world.player("asha"), world.player("baraka")
    world.block(asha, baraka)
    repository.racer = Entry(asha.player_id, asha.name, asha.token_hash, world.service.now_ms())
    refused_join(world, baraka, league)  # its pre-check read no Asha; its write found her there
    assert set(known(world.repository.get(league)).entries) == {"id-asha"}


def test_an_arena_wave_never_pairs_a_blocked_pair_and_pairs_the_rest():
    world = World()
    starts = world.service.now_ms() + 60_000
    new = NewTournament(Format.ARENA, "chess", options={"turn_seconds": 60}, starts=starts, minutes=30, public=True)
    arena_id = world.service.create(world.player("maker"), new).tournament.id
    a, b, c, d = (world.player(name) for name in ("a", "b", "c", "d"))
    a = world.block(a, b)  # alone, the wave would pair a with b (equal scores, in id order)
    for who in (a, b, c, d):
        world.service.join(who, arena_id, None)
    world.clock.now += 61
    tournament = known(world.repository.get(arena_id))
    for who in (a, b, c, d):
        world.clock.now += 4
        world.arena.heartbeat(who.player_id, tournament, True, frozenset(x.player_id for x in who.blocks))
    games = {seat.player_id: seat.busy for seat in world.seats.seats(arena_id)}
    assert all(games.values()) and len(set(games.values())) == 2  # all four paired
    assert games["id-a"] != games["id-b"]
    # and the other way round: b's own heartbeat carries no block, a's does; the wave asks both
    assert world.seats.seats(arena_id)[0].blocks == frozenset({"id-b"})
