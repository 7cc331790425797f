"""An arena being played: presence (the page's heartbeat), the pairing wave, and freeing players when their
game ends (docs/tournaments.md, "Arena play").

A wave runs at most once every few seconds (``ArenaSeats.claim_wave``), when a player arrives or a game ends:
the players present (a heartbeat in the last ``PRESENT_MS``), free and not paused are paired by
``domain.arena.pair_wave`` on their arena points; each pair's game is a live-table game of the games table
(made through the games' own ``GameLog``, under an id fixed by the pair and the wave) linked to the tournament,
so its end reaches the results function like a league's. A player the computer stood in for is paused
until their next heartbeat.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable

from tournaments.domain import Format, GameResult, NotEntered, Sheet, State, Tournament, Waiting, pair_wave, sheet
from tournaments.repository import TournamentRepository
from tournaments.repository.arenas import ArenaSeat, ArenaSeats
from tournaments.service import Announcer, GameMaker, Silent, arena_end

PRESENT_MS = 45_000  # the page beats every 15 s: three missed beats and the player is away


def arena_game_id(tournament_id: str, white: str, black: str, wave: int) -> str:
    digest = hashlib.sha256(f"arena#{tournament_id}#{white}#{black}#{wave}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:12]


def sheets_of(tournament: Tournament, results: dict[str, GameResult]) -> dict[str, Sheet]:
    mine: dict[str, list[GameResult]] = {player: [] for player in tournament.entries}
    for result in results.values():
        for player in (result.white, result.black):
            if player in mine:
                mine[player].append(result)
    return {player: sheet(player, games) for player, games in mine.items()}


class ArenaService:
    def __init__(
        self,
        repository: TournamentRepository,
        seats: ArenaSeats,
        games: GameMaker,
        clock: Callable[[], float],
        announce: Announcer | None = None,
    ):
        self.repository = repository
        self.seats = seats
        self.games = games
        self.clock = clock
        self.announce: Announcer = announce or Silent()

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def heartbeat(
        self, player_id: str, tournament: Tournament, present: bool, blocks: frozenset[str] = frozenset()
    ) -> list[tuple[str, str]]:
        """``blocks``: the players this one blocked (their player item's, read with their token)."""
        if player_id not in tournament.entries:
            raise NotEntered("you are not in this arena")
        self.seats.heartbeat(tournament.id, player_id, self.now_ms() if present else 0, blocks)
        return self.wave(tournament)

    def playing(self, tournament: Tournament) -> bool:
        now = self.now_ms()
        return tournament.format is Format.ARENA and (tournament.starts or 0) <= now < arena_end(tournament)

    def wave(self, tournament: Tournament) -> list[tuple[str, str]]:
        """Pair the players waiting now (white, black), if the arena is on and no wave ran in the last seconds."""
        if not self.playing(tournament) or tournament.state is State.FINISHED:
            return []
        now = self.now_ms()
        if not self.seats.claim_wave(tournament.id, now):
            return []
        found = self.repository.read(tournament.id)
        results = found[1] if found else {}
        sheets = sheets_of(tournament, results)
        seats = {seat.player_id: seat for seat in self.seats.seats(tournament.id)}
        waiting = [
            Waiting(player, sheets[player].points, seat.last_opponent, seat.balance)
            for player, seat in seats.items()
            if player in tournament.entries and ready(seat, now)
        ]
        pairs = pair_wave(waiting, lambda one, other: other in seats[one].blocks)  # each way: pair_wave asks both
        for white, black in pairs:
            game_id = arena_game_id(tournament.id, white, black, now)
            if not self.seats.seat(tournament.id, white, game_id, black, 1):
                continue
            if not self.seats.seat(tournament.id, black, game_id, white, -1):
                self.seats.free(tournament.id, white, game_id, paused=False)
                continue
            self.repository.link_game(game_id, tournament.id)
            entries = tournament.entries
            self.games.make(
                game_id, tournament.game, tournament.options, tournament.rated, entries[white], entries[black], now
            )
            self.announce.game_started(tournament, game_id, entries[white], entries[black])
        return pairs

    def game_over(self, tournament: Tournament, result: GameResult) -> None:
        """Free both players (pausing one the computer stood in for), then pair who is waiting."""
        self.seats.free(tournament.id, result.white, result.game_id, paused=result.computer_white)
        self.seats.free(tournament.id, result.black, result.game_id, paused=result.computer_black)
        self.wave(tournament)


def ready(seat: ArenaSeat, now: int) -> bool:
    return seat.busy is None and not seat.paused and seat.seen > 0 and now - seat.seen <= PRESENT_MS
