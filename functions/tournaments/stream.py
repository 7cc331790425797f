"""TournamentResultsFunction: each finished tournament game counted once, from the games table's stream.

Why the stream (as the notify function reads it) and not a hook in the games function: the games function
then knows nothing of tournaments (no import cycle, no extra write on a move), and a game's end reaches its
tournament even when the request that ended it died right after storing the event. Delivery is at least
once; the result's write is conditional (``attribute_not_exists``), so a record fed twice, or two records of
one game, count it once. The template's filter lets through only the event items that can end a game
(``ENDING_KINDS``); for each, one read finds whether the game is a tournament's (``g#<id>`` in the
tournaments table); only then is its log read and its result stored (1 Query, 1 conditional write, and the
tournament's Query to see whether the league is over: the write that finishes it, once).
"""

from __future__ import annotations

import time
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from tournaments.arena_service import ArenaService
from tournaments.domain import Format
from tournaments.repository import TournamentRepository
from tournaments.repository.arenas import ArenaSeats, DynamoArenaSeats
from tournaments.seated import TournamentGames
from tournaments.service import Announcer

logger = Logger()
#: The events after which a game may be over (a move that mates, a resignation, a claim, an agreed draw).
ENDING_KINDS = frozenset({"move", "resign", "claim_timeout", "accept_draw", "abort"})


def ended_game(record: DynamoDBRecord) -> str | None:
    """The game id of an inserted event item that may end its game; None for any other record."""
    if record.event_name is None or record.event_name.name != "INSERT" or record.dynamodb is None:
        return None
    image = record.dynamodb.raw_event.get("NewImage") or {}
    sort_key = image.get("sk", {}).get("S", "")
    if not (sort_key.startswith("E") and sort_key[1:].isdigit()):
        return None
    if image.get("kind", {}).get("S") not in ENDING_KINDS:
        return None
    return str(image.get("pk", {}).get("S", "")) or None


def count_result(
    game_id: str,
    repository: TournamentRepository,
    games: TournamentGames,
    now: float,
    seats: ArenaSeats | None = None,
    announce: Announcer | None = None,
) -> bool:
    """Store the finished game's result in its tournament (once); True if this call stored it."""
    from games.domain import new_game_options

    from tournaments.service import Silent, TournamentService

    tournament_id = repository.tournament_of(game_id)
    if tournament_id is None:
        return False
    result = games.result(game_id)
    if result is None:
        return False
    announce = announce or Silent()
    service = TournamentService(repository, games, new_game_options, clock=lambda: now, announce=announce)
    stored = service.record(result, tournament_id)
    tournament = repository.get(tournament_id)
    if tournament is not None and tournament.format is Format.ARENA:  # free both players; pair who is waiting
        arena = ArenaService(repository, seats or DynamoArenaSeats(), games, lambda: now, announce)
        arena.game_over(tournament, result)
    return stored


def handle_record(record: DynamoDBRecord) -> None:
    game_id = ended_game(record)
    if game_id is None:
        return
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog

    from tournaments.pushes import pushes_from_environment
    from tournaments.repository import DynamoTournaments

    store = dynamodb_games()
    games = TournamentGames(GameLog(store), store)
    if count_result(game_id, DynamoTournaments(), games, time.time(), announce=pushes_from_environment()):
        logger.info("tournament game counted", extra={"game_id": game_id})


@logger.inject_lambda_context
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
    return dict(
        process_partial_response(event=event, record_handler=handle_record, processor=processor, context=context)
    )
