"""The tournaments' actions: make one, list them, read one with its standings, join, withdraw; start a league
when it fills (or at its start time with enough players), and count each finished game once.

The service depends on a ``TournamentRepository``, a ``GameMaker`` (the games function's write protocol:
``tournaments.seated``) and a clock. Refusals are the domain's plain exceptions.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from common.clock import Clocked
from common.clubs.domain import ClubTournament
from common.clubs.membership import club_of_member, list_in_club
from common.clubs.repository import ClubRepository
from common.players.blocks import blocks_player
from common.players.domain import Player
from common.players.repository import PlayerRepository
from common.web.ratelimit import RateLimiter

from tournaments.domain import (
    AlreadyEntered,
    BlockedEntrant,
    Entry,
    Format,
    GameResult,
    InvalidTournamentInvite,
    NewTournament,
    StartsInPast,
    State,
    Tournament,
    TournamentNotFound,
    game_id_for,
    sizes,
)
from tournaments.domain.cup import DECIDER_OPTIONS
from tournaments.repository import TournamentRepository

ID_BYTES = 9  # 12 characters of base64url, as a game's id
INVITE_BYTES = 16
LIST_LIMIT = 50


class GameMaker(Protocol):
    def make(
        self, game_id: str, game: str, options: Mapping[str, Any], rated: bool, white: Entry, black: Entry, at: int
    ) -> None:
        """Make the game with both seats taken (once: a game with this id that exists is left as it is)."""
        ...

    def time_out(self, game_id: str, at: int) -> GameResult | None:
        """End the game, if it still goes on, as lost on time by the side to move (a knockout round's deadline);
        the finished game's result (None if it is not over)."""
        ...


class Announcer(Protocol):
    """Tells players what happened (``tournaments.pushes``: Web Push in each one's language)."""

    def game_started(self, tournament: Tournament, game_id: str, white: Entry, black: Entry) -> None: ...

    def started(self, tournament: Tournament) -> None: ...

    def arena_soon(self, tournament: Tournament) -> None: ...

    def won(self, tournament: Tournament, winners: Iterable[str]) -> None: ...


class Silent:
    """An ``Announcer`` that tells no one (the tests' default, and a function without pushes)."""

    def game_started(self, tournament: Tournament, game_id: str, white: Entry, black: Entry) -> None:
        pass

    def started(self, tournament: Tournament) -> None:
        pass

    def arena_soon(self, tournament: Tournament) -> None:
        pass

    def won(self, tournament: Tournament, winners: Iterable[str]) -> None:
        pass


class OptionsCheck(Protocol):
    def __call__(self, game: str, options: Mapping[str, Any], rated: bool) -> Mapping[str, Any]:
        """The options as a game would take them, or the games' refusal (``invalid_option``, ``unknown_game``)."""
        ...


@dataclass(frozen=True)
class Made:
    tournament: Tournament
    invite: str | None


def arena_end(tournament: Tournament) -> int:
    return (tournament.starts or 0) + (tournament.minutes or 0) * 60_000


def invite_hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class TournamentService(Clocked):
    repository: TournamentRepository
    games: GameMaker
    check_options: OptionsCheck
    clock: Callable[[], float] = time.time
    limiter: RateLimiter | None = None
    #: Where the blocks are (None: no block is checked, as for the site's own jobs).
    players: PlayerRepository | None = None
    clubs: ClubRepository | None = None
    announce: Announcer = field(default_factory=Silent)

    # ------------------------------------------------------------------------------------ making
    def create(
        self, player: Player | None, new: NewTournament, site_id: str | None = None, exists_ok: bool = False
    ) -> Made:
        """A new tournament, open for entries; private (joined with its invite code) unless ``public``.
        ``site_id``: one of the site's own (the schedule's) under this fixed id, public and charged to no one;
        made once however often the schedule runs (``exists_ok``: a second making is no error)."""
        site = site_id is not None
        now = self.now_ms()
        options = dict(new.options or {})  # kept as asked: each game completes them as it is made
        complete = self.check_options(new.game, options, new.rated)
        if new.starts is not None and new.starts <= now:
            raise StartsInPast("the start time has passed")
        size, minimum, minutes = sizes(new, complete)
        if new.club is not None and player is not None:
            club_of_member(self.clubs, new.club, player.player_id)
        if self.limiter is not None and not site:
            self.limiter.charge("tournaments")  # a refusal writes nothing
        invite = None if (new.public or site or new.club) else secrets.token_urlsafe(INVITE_BYTES)
        tournament = Tournament(
            id=site_id or secrets.token_urlsafe(ID_BYTES),
            format=new.format,
            game=new.game,
            rated=new.rated,
            options=options,
            name=new.name,
            public=new.public or site,
            created_by="" if site or player is None else player.player_id,
            created=now,
            max_players=size,
            min_players=minimum,
            starts=new.starts,
            minutes=minutes,
            invite_hash=invite_hash(invite) if invite else None,
            club_id=new.club,
            groups=new.groups or 0 if new.format is Format.CUP else 0,
        )
        try:
            self.repository.create(tournament)
        except ValueError:  # the id is taken: only the schedule's fixed ids can meet one
            if not exists_ok:
                raise
        if new.club is not None:
            listed = ClubTournament(tournament.id, tournament.name, tournament.game, tournament.format.value, now)
            list_in_club(self.clubs, new.club, listed)
        return Made(tournament, invite)

    # ------------------------------------------------------------------------------------ reading
    def get(self, tournament_id: str) -> tuple[Tournament, dict[str, GameResult]]:
        """The tournament and its results (one read); a league due to start is started first."""
        found = self.repository.read(tournament_id)
        if found is None:
            raise TournamentNotFound("no tournament has this id")
        tournament, results = found
        owed = tournament.state is State.RUNNING and tournament.format is not Format.ARENA and not tournament.games_made
        if tournament.startable(self.now_ms()) or owed:
            tournament = self.start(tournament)
        if (
            tournament.format is Format.ARENA
            and tournament.state is State.OPEN
            and self.now_ms() >= arena_end(tournament)
        ):
            self.repository.finish(tournament, self.now_ms())  # an arena takes entries until its end
            tournament = self.repository.get(tournament_id) or tournament
        if self.enforce_deadlines(tournament, results):
            tournament, results = self.repository.read(tournament_id) or (tournament, results)
        return tournament, results

    def sweep_deadlines(self, tournament_id: str) -> bool:
        """The schedule's sweep of one running cup: its overdue legs ended (one read when none is)."""
        found = self.repository.read(tournament_id)
        return found is not None and self.enforce_deadlines(*found)

    def enforce_deadlines(self, tournament: Tournament, results: Mapping[str, GameResult]) -> bool:
        """A running cup's knockout legs still going on after their round's deadline: each ended as lost on time
        by the side to move (the games' claim on time, so an early one is the absent side's no-show) and
        counted at once (the stream counts it again as nothing). True when one was ended."""
        if tournament.format is not Format.CUP or tournament.state is not State.RUNNING:
            return False
        now = self.now_ms()
        ended = False
        for key in tournament.cup(results).overdue(now):
            game_id = game_id_for(tournament.id, key)
            result = self.games.time_out(game_id, now) if key in tournament.made else None
            if result is not None:
                self.repository.record_result(tournament.id, result)
                ended = True
        if ended:
            self.finish_if_done(tournament.id)
        return ended

    def listed(self, game: str, state: State) -> list[Tournament]:
        return self.repository.listed(game, state, LIST_LIMIT)

    # ------------------------------------------------------------------------------------ entries
    def join(self, player: Player, tournament_id: str, invite: str | None) -> Tournament:
        found = self.repository.get(tournament_id)
        if found is None:
            raise TournamentNotFound("no tournament has this id")
        if player.player_id in found.entries:
            raise AlreadyEntered("you are in this tournament already")
        if found.club_id is not None:
            club_of_member(self.clubs, found.club_id, player.player_id)
        if found.invite_hash is not None and (invite is None or invite_hash(invite) != found.invite_hash):
            raise InvalidTournamentInvite("that invite code does not open this tournament")
        entry = Entry(player.player_id, player.name, player.token_hash, self.now_ms())
        league = found.format is Format.LEAGUE
        if league and self.blocked_among(player, found.entries.values()):
            raise BlockedEntrant("a player in this league and you keep each other away: it cannot seat you both")
        joined = self.repository.join(tournament_id, entry)
        late = [other for key, other in joined.entries.items() if key not in found.entries and key != player.player_id]
        if league and self.blocked_among(player, late):  # one who joined while we did: the later join gives way
            self.repository.leave(tournament_id, player.player_id)
            raise BlockedEntrant("a player in this league and you keep each other away: it cannot seat you both")
        if joined.startable(self.now_ms()):
            joined = self.start(joined)
        return joined

    def blocked_among(self, player: Player, entries: Iterable[Entry]) -> bool:
        """Whether ``player`` blocked one of ``entries`` or one of them blocked ``player`` (a league pairs everyone
        with everyone). The joiner's blocks come with their token's read; each other player's is one read."""
        if self.players is None:
            return False
        others = [entry for entry in entries if entry.player_id != player.player_id]
        if any(player.blocked(entry.player_id) for entry in others):
            return True
        return any(blocks_player(self.players.get(entry.key), player.player_id) for entry in others)

    def withdraw(self, player: Player, tournament_id: str) -> Tournament:
        """Before the start: the entry is taken back. After it: withdrawn, every game not finished yet lost."""
        found = self.repository.get(tournament_id)
        if found is None:
            raise TournamentNotFound("no tournament has this id")
        if found.state is State.OPEN:
            return self.repository.leave(tournament_id, player.player_id)
        withdrawn = self.repository.withdraw(tournament_id, player.player_id, self.now_ms())
        self.finish_if_done(tournament_id)  # forfeits may complete the table
        return self.repository.get(tournament_id) or withdrawn

    # ------------------------------------------------------------------------------------ the league
    def start(self, tournament: Tournament) -> Tournament:
        """Fix the seeding and mark the league running (conditional on its state and its number of entries, so
        it seats exactly the players it read), then make every game at once (each pair twice, colours reversed).

        The games' ids follow from the tournament's, so games made by a start cut short are made again by the
        next read (``get``: running, ``games_made`` not set) and no game twice."""
        moved = False
        if tournament.state is State.OPEN:
            moved = self.repository.start(tournament, tournament.seeded(), self.now_ms())
            current = self.repository.get(tournament.id)
            if current is None or current.state is State.OPEN:
                return current or tournament  # lost to a join or a leave: the next request decides again
            if not moved and current.games_made:
                return current
            tournament = current
        self.make_games(tournament)
        if moved:
            self.announce.started(tournament)  # once: the request that started it
        return self.repository.get(tournament.id) or tournament

    def make_games(self, tournament: Tournament) -> None:
        at = tournament.started or self.now_ms()
        for pairing in tournament.pairings():
            game_id = game_id_for(tournament.id, pairing.number)
            self.repository.link_game(game_id, tournament.id)
            white, black = tournament.entries[pairing.white], tournament.entries[pairing.black]
            self.games.make(game_id, tournament.game, tournament.options, tournament.rated, white, black, at)
        self.repository.games_made(tournament.id)

    # ------------------------------------------------------------------------------------ results
    def record(self, result: GameResult, tournament_id: str | None = None) -> bool:
        """Count a finished game once (its tournament found from the game's id unless given); True if this call
        stored it. A league whose every game is then counted (or forfeited) is finished."""
        tournament_id = tournament_id or self.repository.tournament_of(result.game_id)
        if tournament_id is None:
            return False
        stored = self.repository.record_result(tournament_id, result)
        self.finish_if_done(tournament_id)
        return stored

    def finish_if_done(self, tournament_id: str) -> None:
        """Mark a running league finished once every game is counted or forfeited, a cup once its final is
        decided (one read, a write once); a cup's knockout games are made as their players become known."""
        found = self.repository.read(tournament_id)
        if found is None:
            return
        tournament, results = found
        if tournament.format is Format.ARENA or tournament.state is not State.RUNNING:
            return
        if tournament.format is Format.CUP:
            self.make_knockout_games(tournament, results)
        if tournament.finished_by(results) and self.repository.finish(tournament, self.now_ms()):
            cup = tournament.format is Format.CUP
            self.announce.won(tournament, tournament.cup(results).winners if cup else tournament.table(results).winners)

    def make_knockout_games(self, tournament: Tournament, results: Mapping[str, GameResult]) -> None:
        """Each knockout game whose players are known and that is not made yet: made under its fixed id (so two
        results at once make it once), then marked made. A decider is played at a live table."""
        due = [game for game in tournament.cup(results).due if game.key not in tournament.made]
        for game in due:
            game_id = game_id_for(tournament.id, game.key)
            self.repository.link_game(game_id, tournament.id)
            options = DECIDER_OPTIONS if game.decider else tournament.options
            white, black = tournament.entries[game.white], tournament.entries[game.black]
            self.games.make(game_id, tournament.game, options, tournament.rated, white, black, self.now_ms())
            self.announce.game_started(tournament, game_id, white, black)
        if due:
            self.repository.mark_made(tournament.id, [game.key for game in due])
