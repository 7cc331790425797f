"""The live socket's service on the in-memory repositories and the real games service, on one manual clock: what
its unit tests (games, tournaments) build on."""

from __future__ import annotations

import json

from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService
from live.games import StoredGameViews
from live.repository import InMemoryLive, InMemorySockets
from live.service import LiveService
from live.tournaments import TournamentViews

from tests.clocks import ManualClock


class LiveWorld:
    def __init__(self) -> None:
        self.clock = ManualClock()
        self.store = InMemoryGameStore()
        self.games = GamesService(in_memory_games(self.store), clock=self.clock)
        self.live = InMemoryLive()
        self.sockets = InMemorySockets()
        views = StoredGameViews(in_memory_games(self.store), self.clock)
        self.service = LiveService(self.live, views, self.sockets, self.clock, self.tournament_views())

    def tournament_views(self) -> TournamentViews | None:
        """What the live service reads tournaments through: none, unless a test's world has tournaments."""
        return None

    def connect(self, connection_id: str, who: str | None = None, address: str = "10.0.0.1") -> None:
        issued = self.service.issue_ticket(f"p-{who}" if who else None, address)
        self.service.connect(connection_id, issued.ticket)

    def received(self, connection_id: str) -> list[dict]:
        return [json.loads(data) for data in self.sockets.sent.get(connection_id, [])]
