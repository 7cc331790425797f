"""TournamentScheduleFunction: the site's own tournaments, on EventBridge Scheduler's clock (template.yaml, every
15 minutes) and, under ``make run``, on the runner's (``local/streams.py``, its movable clock).

Each run, for each game, **open leagues**, like ICCF's sections: one public league of up to 6 players per game
is always taking entries (made under an id fixed by the game and the run's quarter hour when none is filling,
so two runs at once make it once); it starts as soon as 6 have joined (the join that fills it), or at the
first run that finds 4 or more in it (so a fifth and sixth have up to a quarter of an hour to join).

The daily arenas (20:00 East Africa Time and 20:00 Philippine Time) are not made yet: an arena's pairing
waves and its games are not built (docs/tournaments.md), and an arena nobody can play would only mislead.
"""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger

from shared_rules.names import GAME_NAMES
from tournaments.domain import Format, State
from tournaments.service import NewTournament, TournamentService

logger = Logger()
RUN_MS = 15 * 60 * 1000  # the schedule's rate (template.yaml)
OPEN_LEAGUE_MAX, OPEN_LEAGUE_START = 6, 4
OPEN_LEAGUE_DAYS = 3  # days per move


def site_id(*parts: object) -> str:
    digest = hashlib.sha256("#".join(["site", *map(str, parts)]).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:12]


def run_schedule(service: TournamentService, now_ms: int) -> dict[str, int]:
    """One run: what it made and started (counts), for the log."""
    made = started = 0
    for game in GAME_NAMES:
        leagues = [t for t in service.listed(game, State.OPEN) if t.format is Format.LEAGUE and not t.created_by]
        for league in leagues:
            if len(league.entries) >= league.min_players:
                service.start(league)
                started += 1
        if not [t for t in leagues if len(t.entries) < t.min_players]:
            new = NewTournament(
                Format.LEAGUE,
                game,
                options={"days_per_move": OPEN_LEAGUE_DAYS},
                players=OPEN_LEAGUE_MAX,
                min_players=OPEN_LEAGUE_START,
                public=True,
            )
            service.create(None, new, site_id=site_id(game, "league", now_ms // RUN_MS), exists_ok=True)
            made += 1
    return {"made": made, "started": started}


class ScheduleFunction:
    """The scheduled handler on a clock (the system's on AWS, the runner's movable one under ``make run``)."""

    def __init__(self, clock: Callable[[], float], service: Callable[[Callable[[], float]], TournamentService]):
        self.clock = clock
        self.service = service

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, int]:
        counts = run_schedule(self.service(self.clock), int(self.clock() * 1000))
        logger.info("tournament schedule", extra=counts)
        return counts


def service_from_environment(clock: Callable[[], float]) -> TournamentService:
    from games.domain import new_game_options
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog

    from tournaments.repository import DynamoTournaments
    from tournaments.seated import TournamentGames

    store = dynamodb_games()
    return TournamentService(
        DynamoTournaments(), TournamentGames(GameLog(store, clock=clock), store), new_game_options, clock
    )


def create_handler(clock: Callable[[], float] = time.time) -> ScheduleFunction:
    return ScheduleFunction(clock, service_from_environment)


lambda_handler = create_handler()
