"""What the live socket reads of a tournament, through the tournaments function's own repositories and view
(``tournaments.models.TournamentView``), so a message carries exactly what ``GET /v1/tournaments/{id}`` answers
its player: the crosstable or the arena's ranking, the pairings, and the player's own next game.

Unlike ``GET``, nothing is written here: a league due to start is started by the next request that reads it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tournaments.repository import TournamentRepository
    from tournaments.repository.arenas import ArenaSeats


class TournamentViews(Protocol):
    def views(self, tournament_id: str, players: Iterable[str | None]) -> dict[str | None, dict[str, Any]] | None:
        """The tournament as each of ``players`` sees it (None: a watcher), as JSON; None: no such tournament."""
        ...


class StoredTournamentViews:
    """``TournamentViews`` on the tournaments table (DynamoDB unless given other repositories): one read of the
    tournament and its results (and an arena's seats) however many players follow it."""

    def __init__(
        self,
        repository: TournamentRepository | None = None,
        seats: ArenaSeats | None = None,
        clock: Callable[[], float] = time.time,
    ):
        if repository is None:
            from tournaments.repository import DynamoTournaments

            repository = DynamoTournaments()
        if seats is None:
            from tournaments.repository.arenas import DynamoArenaSeats

            seats = DynamoArenaSeats()
        self.repository, self.seats, self.clock = repository, seats, clock

    def views(self, tournament_id: str, players: Iterable[str | None]) -> dict[str | None, dict[str, Any]] | None:
        from tournaments.domain import Format
        from tournaments.models import TournamentView

        found = self.repository.read(tournament_id)
        if found is None:
            return None
        tournament, results = found
        where = self.seats.seats(tournament_id) if tournament.format is Format.ARENA else None
        now = int(self.clock() * 1000)
        # One view for every follower who is not in it (watchers, and players of other tournaments).
        entered = {player for player in players if player is not None and player in tournament.entries}
        return {
            who: TournamentView.of(tournament, results, who, where, now).model_dump(mode="json")
            for who in (None, *sorted(entered))
        }
