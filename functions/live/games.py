"""What the live socket reads of a game, through the games function's own read side (``games.service.reads``, its
repository and views), so a message carries exactly what ``GET /v1/games/{id}?moves_after=`` answers: the page
renders a pushed game as it renders a polled one.

A read may store a head that is behind its log (``GameLog.repair``, a conditional write, as a GET does).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from live.domain import Sight, sight_of

if TYPE_CHECKING:
    from games.repository import GameRepository


@dataclass(frozen=True)
class GameView:
    """A game as a follower gets it: its ``seq`` (the ETag's number) and ``state``, ``GameDetail`` as JSON."""

    seq: int
    sight: Sight
    state: dict[str, Any]
    etag: str


class GameViews(Protocol):
    def view(self, game_id: str, moves_after: int | None) -> GameView | None:
        """The game with its moves after ply ``moves_after`` (None: the latest page; negative: none, the state
        alone); None: no such game."""
        ...


class StoredGameViews:
    """``GameViews`` on the games repository (DynamoDB unless given another)."""

    def __init__(self, games: GameRepository | None = None, clock: Callable[[], float] = time.time):
        from games.service.protocol import GameLog

        if games is None:
            from games.repository import dynamodb_games

            games = dynamodb_games()
        self.log = GameLog(games, clock)

    def view(self, game_id: str, moves_after: int | None) -> GameView | None:
        from games.domain.errors import GameNotFound
        from games.models import MAX_PLY, GameDetail
        from games.service import reads
        from games.views import etag_of, game_view, page_view

        if moves_after is not None and moves_after < 0:  # the state alone (``service.NO_MOVES``)
            moves_after = MAX_PLY
        try:
            tracked, events = reads.read_latest(self.log, game_id, moves_after)
        except GameNotFound:
            return None
        head = tracked.head
        if head.seek is not None and head.seek.state != "taken":  # an open challenge of the lobby: no game yet
            return None
        page = reads.page_of(self.log, game_id, head, events, moves_after)
        detail = {**game_view(head, self.log.now_ms()), **page_view(page), "start_fen": page.start_fen}
        state = GameDetail.model_validate(detail).model_dump(mode="json")
        players = [seat.player_id if seat else None for seat in (head.seat("white"), head.seat("black"))]
        sight = sight_of(game_id, bool(head.options.get("private")), players)
        return GameView(head.seq, sight, state, etag_of(head.seq))
