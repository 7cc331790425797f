"""TournamentsFunction: Mashindano, leagues and arenas (routes in template.yaml; docs/tournaments.md).

Thin: models in, the ``TournamentService`` (on the tournaments table, the games' write protocol and the clock),
views out. A league's games are made through the games function's own ``GameLog`` (``tournaments.seated``).
"""

import os
import re
from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.clubs.repository import ClubRepository, DynamoClubs
from common.web.answers import answer, no_store
from common.web.api import Api
from common.web.auth import CurrentPlayer, OptionalPlayer, viewer_id
from common.web.depends import Asker, Buckets, Now, Pace, PlayerStorage
from common.web.models import route_errors
from common.web.ratelimit import RateLimiter
from common.web.routes import Routes
from games.domain import new_game_options
from games.ratings.repository import RatingStore
from games.ratings.service import GameRatings
from games.repository import GameRepository, dynamodb_games
from games.service.protocol import GameLog

from tournaments.arena_service import ArenaService
from tournaments.domain import Format, NotAnArena, State, TournamentNotFound
from tournaments.models import (
    CreatedTournament,
    InviteView,
    PresenceRequest,
    StateName,
    TournamentJoinRequest,
    TournamentList,
    TournamentRequest,
    TournamentSummary,
    TournamentView,
)
from tournaments.repository import TournamentRepository
from tournaments.repository.arenas import ArenaSeats
from tournaments.seated import TournamentGames
from tournaments.service import Announcer, TournamentService

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{12}")

router = Routes("tournaments")


def tournament_repository() -> TournamentRepository:
    from tournaments.repository import DynamoTournaments

    return DynamoTournaments()


def club_repository() -> ClubRepository:
    return DynamoClubs()


def game_repository() -> GameRepository:
    return dynamodb_games()


def announcer() -> Announcer:
    from tournaments.pushes import pushes_from_environment

    return pushes_from_environment()


def tournament_service(
    repository: Annotated[TournamentRepository, Depends(tournament_repository)],
    games: Annotated[GameRepository, Depends(game_repository)],
    now: Now,
    pace: Pace,
    buckets: Buckets,
    client: Asker,
    players: PlayerStorage,
    clubs: Annotated[ClubRepository, Depends(club_repository)],
    announce: Annotated[Announcer, Depends(announcer)],
) -> TournamentService:
    # The limiter built by hand (as the games function's ``games_service``): one dependency node fewer a request.
    limiter = RateLimiter(buckets, pace, client)
    log = GameLog(games, clock=now)
    return TournamentService(
        repository,
        TournamentGames(log, games, GameRatings(RatingStore(), now)),  # no read of it unless a deadline ends a game
        new_game_options,
        clock=now,
        limiter=limiter,
        clubs=clubs,
        players=players,
        announce=announce,
    )


Tournaments = Annotated[TournamentService, Depends(tournament_service)]


def arena_seats() -> ArenaSeats:
    from tournaments.repository.arenas import DynamoArenaSeats

    return DynamoArenaSeats()


Seats = Annotated[ArenaSeats, Depends(arena_seats)]


def view_of(tournaments: TournamentService, seats: ArenaSeats, tournament_id: str, you: str | None) -> TournamentView:
    """The tournament's view: one Query (a league), two with an arena's players (where each stands)."""
    tournament, results = tournaments.get(tournament_id)
    where = seats.seats(tournament.id) if tournament.format is Format.ARENA else None
    return TournamentView.of(tournament, results, you, where, tournaments.now_ms())


_errors = route_errors(
    {
        403: "The invite code does not open this private tournament (`invalid_tournament_invite`), or it is "
        "for a club's members and you are not one (`club_members_only`).",
        404: "No tournament has this id (`tournament_not_found`), or no club the `club` asked (`club_not_found`).",
        409: "The tournament has started (`tournament_started`), is full (`tournament_full`) or over "
        "(`tournament_over`), you are in it already (`already_entered`) or not in it (`not_entered`), or a "
        "player in the league and you keep each other away (`blocked_entrant`: a block, either way).",
        422: "The request is wrong: an unknown game, a league of more than 8 or fewer than 3, a start in the "
        "past, an arena without live tables or of the wrong length, a bad option.",
        429: "Too many tournaments made; retry after `Retry-After` seconds.",
    }
)


def _tournament_id(text: str) -> str:
    if not TOURNAMENT_ID.fullmatch(text):
        raise TournamentNotFound("no tournament has this id")
    return text


def _invite_url(tournament_id: str, code: str) -> str:
    site = os.environ.get("SITE_URL", "").rstrip("/")
    return f"{site}/sw/mashindano/?id={tournament_id}#invite={code}"  # the page forwards to none: Swahili first


@router.post(
    "/v1/tournaments",
    summary="Make a tournament",
    description="A league (3-8 players, every pair plays twice with the colours reversed, all games at once) or "
    "an arena (live tables, paired as players become free). Private unless `public`: its invite is shown once. With `club`, for that club's members only (no invite).",
    responses={
        201: {"description": "The tournament, open for entries."},
        **_errors(401, 403, 404, 422, 429, 503),
    },
)
def create_tournament(
    request: TournamentRequest, tournaments: Tournaments, player: CurrentPlayer
) -> Response[CreatedTournament]:
    made = tournaments.create(player, request.new())
    invite = (
        None if made.invite is None else InviteView(code=made.invite, url=_invite_url(made.tournament.id, made.invite))
    )
    body = CreatedTournament(tournament=TournamentSummary.of(made.tournament), invite=invite)
    return no_store(body, HTTPStatus.CREATED)


@router.get(
    "/v1/tournaments",
    summary="The public tournaments of a game",
    description="Open (taking entries), running or finished, soonest start first; at most 50.",
    responses={200: {"description": "The tournaments."}, **_errors(422, 503)},
)
def list_tournaments(
    tournaments: Tournaments,
    game: Annotated[str, Query(max_length=20, description="chess, english or tanzanian")],
    state: Annotated[StateName, Query(description="open, running or finished")] = "open",
) -> Response[TournamentList]:
    from shared_rules import get_game

    get_game(game)  # 422 unknown_game
    body = TournamentList(tournaments=[TournamentSummary.of(t) for t in tournaments.listed(game, State(state))])
    return answer(body, "public, max-age=10")


@router.get(
    "/v1/tournaments/{id}",
    summary="A tournament with its standings",
    description="Its terms, players, standings (league: points, Sonneborn-Berger, head-to-head), every game with "
    "what it counts for, each pairing's match score, the winners once it is over, and your games left.",
    responses={200: {"description": "The tournament."}, **_errors(401, 404, 503)},
)
def get_tournament(id: str, tournaments: Tournaments, seats: Seats, viewer: OptionalPlayer) -> Response[TournamentView]:
    body = view_of(tournaments, seats, _tournament_id(id), viewer_id(viewer))
    return no_store(body)


@router.post(
    "/v1/tournaments/{id}/join",
    summary="Enter a tournament",
    description="One entry per player. A league starts (all its games made) when its last place is taken. "
    "Joining again is safe (200, the same entry).",
    responses={200: {"description": "You are in."}, **_errors(401, 403, 404, 409, 422, 503)},
)
def join_tournament(
    id: str, request: TournamentJoinRequest, tournaments: Tournaments, seats: Seats, player: CurrentPlayer
) -> Response[TournamentView]:
    tournament = tournaments.join(player, _tournament_id(id), request.invite)
    body = view_of(tournaments, seats, tournament.id, player.player_id)
    return no_store(body)


@router.post(
    "/v1/tournaments/{id}/withdraw",
    summary="Leave a tournament",
    description="Before the start the entry is taken back; after it you are withdrawn and every game of yours "
    "not finished yet counts as lost.",
    responses={200: {"description": "You are out."}, **_errors(401, 404, 409, 503)},
)
def withdraw_from_tournament(
    id: str, tournaments: Tournaments, seats: Seats, player: CurrentPlayer
) -> Response[TournamentView]:
    tournaments.withdraw(player, _tournament_id(id))
    return no_store(view_of(tournaments, seats, id, player.player_id))


@router.post(
    "/v1/tournaments/{id}/presence",
    summary="Be on an arena's page (or leave it)",
    description="The arena's page sends it every 15 s while open: present players who are free are paired as "
    "they become free (a wave at most every 3 s), closest scores first, never the same opponent twice in a row. "
    "Coming back after the computer stood in for you ends your pause.",
    responses={200: {"description": "Where the arena stands."}, **_errors(401, 404, 409, 422, 503)},
)
def arena_presence(
    id: str, request: PresenceRequest, tournaments: Tournaments, seats: Seats, player: CurrentPlayer
) -> Response[TournamentView]:
    tournament, _results = tournaments.get(_tournament_id(id))
    if tournament.format is not Format.ARENA:
        raise NotAnArena("only an arena pairs players who are present")
    blocks = frozenset(block.player_id for block in player.blocks)
    ArenaService(tournaments.repository, seats, tournaments.games, tournaments.clock, tournaments.announce).heartbeat(
        player.player_id, tournament, request.present, blocks
    )
    return no_store(view_of(tournaments, seats, id, player.player_id))


def create_app() -> Api:
    """The resolver with this function's routes (one per process on Lambda; tests may make more)."""
    return Api.with_routers(router)


app = create_app()
lambda_handler = app.lambda_handler
