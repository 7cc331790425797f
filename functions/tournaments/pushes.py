"""Tournament pushes, through the notify function's ``Pushes`` (each player's subscriptions, each in its own
language, the texts in ``notify.domain.texts``): a game made for you (a league's start tells it once for all
its games; an arena's pairing and a knockout game each), the arena about to start, and the tournament won.

Never an error: the tournament's state is written before; a push that cannot go is logged. The payload's ``tag``
folds a tournament's notices into one on the phone (``tournament:<id>``) and a game's into that game's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

from tournaments.domain import Entry, Tournament
from tournaments.service import Announcer, Silent

if TYPE_CHECKING:
    from notify.handler import Pushes

logger = Logger(child=True)


class TournamentPushes:
    """The ``Announcer`` of the deployed functions (``tournaments.service``)."""

    def __init__(self, pushes: Callable[[], Pushes]):
        self.pushes = pushes

    def game_started(self, tournament: Tournament, game_id: str, white: Entry, black: Entry) -> None:
        for player, opponent in ((white, black), (black, white)):
            self._send(player.player_id, "your_move", "tournament_game", tournament, game_id, opponent.name)

    def started(self, tournament: Tournament) -> None:
        self._each(tournament.entries.values(), "your_move", "tournament_started", tournament)

    def arena_soon(self, tournament: Tournament) -> None:
        self._each(tournament.entries.values(), "reminder", "arena_soon", tournament)

    def won(self, tournament: Tournament, winners: Iterable[str]) -> None:
        self._each((tournament.entries[p] for p in winners), "game_over", "tournament_won", tournament)

    def _each(self, entries: Iterable[Entry], kind: str, message: str, tournament: Tournament) -> None:
        for entry in entries:
            self._send(entry.player_id, kind, message, tournament, None, None)

    def _send(
        self, player_id: str, kind: str, message: str, tournament: Tournament, game_id: str | None, opponent: str | None
    ) -> None:
        from notify.domain.decide import Notice

        page = None if game_id else f"mashindano/?id={tournament.id}"
        notice = Notice(
            player_id=player_id,
            kind=kind,
            message=message,
            game_id=game_id or tournament.id,
            game=tournament.game,
            opponent=opponent,
            opponent_is_computer=False,
            tag=f"game:{game_id}" if game_id else f"tournament:{tournament.id}",
            page=page,
        )
        try:
            self.pushes().notifier().deliver(notice)
        except Exception:  # the tournament is written: a push that cannot go is only logged
            logger.exception("tournament push not sent", extra={"tournament_id": tournament.id, "push": message})


def pushes_from_environment() -> Announcer:
    """The deployed functions' pushes (the subscriptions' table and Web Push with the VAPID key), made on the
    first push an instance sends; none where no key is configured (as ``GET /v1/push/key`` answers 503)."""
    from functools import cache

    from notify.handler import pushes_from_environment as build
    from push.domain import local_mode
    from push.vapid import SECRET_VARIABLE

    if not (os.environ.get(SECRET_VARIABLE) or local_mode()):
        return Silent()
    return TournamentPushes(cache(build))
