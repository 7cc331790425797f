"""TournamentScheduleFunction: the site's own tournaments, on EventBridge Scheduler's clock (template.yaml, every
15 minutes) and, under ``make run``, on the runner's (``local/streams.py``, its movable clock).

Each run, for each game, **open leagues**, like ICCF's sections: one public league of up to 6 players per game
is always taking entries (made under an id fixed by the game and the run's quarter hour when none is filling,
so two runs at once make it once); it starts as soon as 6 have joined (the join that fills it), or at the
first run that finds 4 or more in it (so a fifth and sixth have up to a quarter of an hour to join).

And **the daily arenas**: one per game at 20:00 East Africa Time and one at 20:00 Philippine Time, an hour
of 60-second live tables, public and rated. Each run makes the next one of each (under an id fixed by the
game, the zone and the day, so every run before it makes it once): it is listed from the run after the
previous one began, a day ahead, so players can see it coming and join. And **the cups' round deadlines**: each public running cup's knockout
legs past their round's deadline are ended (``TournamentService.sweep_deadlines``). Both zones keep no summer time
(Tanzania and the Philippines), so their offsets are fixed numbers here (``tests/unit`` checks them against the
IANA zones); the Lambda needs no time-zone data.
"""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from aws_lambda_powertools import Logger

from shared_rules.names import GAME_NAMES
from tournaments.domain import Format, NewTournament, State
from tournaments.service import TournamentService

logger = Logger()
RUN_MS = 15 * 60 * 1000  # the schedule's rate (template.yaml)
OPEN_LEAGUE_MAX, OPEN_LEAGUE_START = 6, 4
OPEN_LEAGUE_DAYS = 3  # days per move
#: The daily arenas: (label, the zone's offset from UTC) at ARENA_HOUR local time; ``Africa/Dar_es_Salaam``
#: and ``Asia/Manila`` (neither keeps summer time).
DAILY_ARENA_ZONES = (("EAT", timezone(timedelta(hours=3))), ("PHT", timezone(timedelta(hours=8))))
ARENA_HOUR = 20
ARENA_MINUTES, ARENA_TURN_SECONDS = 60, 60
SOON_MS = 5 * 60_000  # "the arena starts in 5 minutes"


def site_id(*parts: object) -> str:
    digest = hashlib.sha256("#".join(["site", *map(str, parts)]).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:12]


def next_daily_start(zone: timezone, now_ms: int) -> datetime:
    """The next ARENA_HOUR:00 in ``zone`` strictly after ``now_ms``."""
    local = datetime.fromtimestamp(now_ms / 1000, tz=zone)
    start = local.replace(hour=ARENA_HOUR, minute=0, second=0, microsecond=0)
    return start if start > local else start + timedelta(days=1)


def daily_arenas(service: TournamentService, now_ms: int) -> int:
    """Make the next daily arena of each game in each zone (once: its id is fixed); how many this run asked for."""
    asked = 0
    for label, zone in DAILY_ARENA_ZONES:
        start = next_daily_start(zone, now_ms)
        for game in GAME_NAMES:
            new = NewTournament(
                Format.ARENA,
                game,
                options={"turn_seconds": ARENA_TURN_SECONDS},
                name=f"{start:%H:%M} {label}",
                starts=int(start.astimezone(UTC).timestamp() * 1000),
                minutes=ARENA_MINUTES,
                public=True,
            )
            service.create(None, new, site_id=site_id(game, "arena", label, start.date()), exists_ok=True)
            asked += 1
    return asked


def arenas_soon(service: TournamentService, now_ms: int) -> int:
    """Tell the players of each daily arena that starts within ``SOON_MS`` "it starts in 5 minutes", once (a
    conditional write claims the telling): the 19:55 runs on AWS (template.yaml), and under ``make run`` the
    first run of the runner's schedule from 19:55 on its clock."""
    told = 0
    for game in GAME_NAMES:
        for arena in service.listed(game, State.OPEN):
            soon = arena.starts is not None and now_ms < arena.starts <= now_ms + SOON_MS
            if (
                arena.format is Format.ARENA
                and not arena.created_by
                and soon
                and service.repository.claim_soon(arena.id)
            ):
                service.announce.arena_soon(arena)
                told += 1
    return told


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
    arenas = daily_arenas(service, now_ms)
    told = arenas_soon(service, now_ms)
    return {"made": made, "started": started, "arenas": arenas, "told": told, "deadlines": sweep_cups(service)}


def sweep_cups(service: TournamentService) -> int:
    """The public running cups (the list's first 50 a game) whose knockout legs past their round's deadline this
    run ended; a private cup's are ended by its first read (docs/tournaments.md)."""
    running = [t for game in GAME_NAMES for t in service.listed(game, State.RUNNING) if t.format is Format.CUP]
    return sum(service.sweep_deadlines(cup.id) for cup in running)


class ScheduleFunction:
    """The scheduled handler on a clock (the system's on AWS, the runner's movable one under ``make run``)."""

    def __init__(self, clock: Callable[[], float], service: Callable[[Callable[[], float]], TournamentService]):
        self.clock = clock
        self.service = service

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, int]:
        service, now_ms = self.service(self.clock), int(self.clock() * 1000)
        soon = bool(event.get("arena_soon"))  # the 19:55 runs (template.yaml): "the arena starts in 5 minutes"
        counts = {"told": arenas_soon(service, now_ms)} if soon else run_schedule(service, now_ms)
        logger.info("tournament schedule", extra=counts)
        return counts


def service_from_environment(clock: Callable[[], float]) -> TournamentService:
    from games.domain import new_game_options
    from games.ratings.repository import RatingStore
    from games.ratings.service import GameRatings
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog

    from tournaments.pushes import pushes_from_environment
    from tournaments.repository import DynamoTournaments
    from tournaments.seated import TournamentGames

    store = dynamodb_games()
    games = TournamentGames(GameLog(store, clock=clock), store, GameRatings(RatingStore(), clock))
    return TournamentService(DynamoTournaments(), games, new_game_options, clock, announce=pushes_from_environment())


def create_handler(clock: Callable[[], float] = time.time) -> ScheduleFunction:
    return ScheduleFunction(clock, service_from_environment)


lambda_handler = create_handler()
