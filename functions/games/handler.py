"""GamesFunction: correspondence games and players (routes in template.yaml). Thin: models in, the service,
views out.

The routes are on a module-level ``router``; ``create_app()`` builds the resolver, includes this router and
the players' (``common.players.handler``), and gives the resolver its own ``RecentHeads`` through the
``recent_heads`` dependency. Tokens arrive as ``Authorization: Bearer <token>``; the service never sees the
header, only the token's hash. Each route declares the service it needs with Powertools' ``Depends``
(``games_service`` below, on ``common.web.depends``' repositories, clock and limits); tests replace any of
them through the resolver's ``dependency_overrides``.
"""

import os
import re
from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter
from common.players import handler as player_routes
from common.web.api import JSON, Api
from common.web.auth import CurrentPlayer, TokenHash
from common.web.depends import Clock, clock, rate_buckets
from common.web.models import error_responses
from common.web.ratelimit import BucketRepository, RateLimiter
from review.queue import ReviewQueue, queue_from_environment
from review.repository import DynamoReviews, ReviewRepository

from games.errors import Conflict, GameNotFound, IllegalMove, NotModified
from games.export import export_game
from games.models import (
    MAX_EVENT,
    MAX_PLY,
    CreatedGame,
    CreateGameRequest,
    DrawRequest,
    GameDetail,
    GameList,
    GameReview,
    GameState,
    JoinRequest,
    MoveRequest,
    SeatedGame,
)
from games.models import (
    MovePage as MovePageModel,
)
from games.pages import MOVES_PAGE
from games.protocol import RecentHeads
from games.repository import GameRepository, dynamodb_games
from games.reviews import ReviewRequests, review_view
from games.service import (
    LIST_LIMIT_DEFAULT,
    LIST_LIMIT_MAX,
    MOVES_LIMIT_DEFAULT,
    MOVES_LIMIT_MAX,
    GamesService,
    Outcome,
)
from games.views import game_view, page_view

GAME_ID = re.compile(r"[A-Za-z0-9_-]{12}")

router = APIGatewayHttpRouter()  # type: ignore[no-untyped-call]  # Powertools' Router.__init__ is unannotated

#: The heads of a resolver made without ``create_app()``'s own (none on Lambda: ``app`` below has its own).
_PROCESS_HEADS = RecentHeads()


def game_repository() -> GameRepository:
    return dynamodb_games()


def recent_heads() -> RecentHeads:
    """The heads this instance keeps (``RecentHeads``): ``create_app()`` gives each resolver its own."""
    return _PROCESS_HEADS


def games_service(
    repository: Annotated[GameRepository, Depends(game_repository)],
    now: Annotated[Clock, Depends(clock)],
    buckets: Annotated[BucketRepository, Depends(rate_buckets)],
    recent: Annotated[RecentHeads, Depends(recent_heads)],
) -> GamesService:
    # The limiter is built here rather than declared (``common.web.depends.rate_limiter``): Powertools resolves
    # the dependency tree again on every request, and each node costs a ``get_type_hints``.
    limiter = RateLimiter(buckets, now)
    site_url = os.environ.get("SITE_URL", "")
    return GamesService(repository, clock=now, site_url=site_url, limiter=limiter, recent=recent)


Games = Annotated[GamesService, Depends(games_service)]


def review_repository() -> ReviewRepository:
    return DynamoReviews()


def review_queue() -> ReviewQueue:
    return queue_from_environment()


def review_requests(
    games: Annotated[GameRepository, Depends(game_repository)],
    reviews: Annotated[ReviewRepository, Depends(review_repository)],
    queue: Annotated[ReviewQueue, Depends(review_queue)],
    now: Annotated[Clock, Depends(clock)],
) -> ReviewRequests:
    return ReviewRequests(games, reviews, queue, now)


Reviews = Annotated[ReviewRequests, Depends(review_requests)]


_DESCRIPTIONS = {
    401: "No token, or not a token of any player.",
    403: "Not your game, not your turn, or a wrong invite code.",
    404: "No such game; for a review, also none asked for yet (`review_not_found`).",
    409: "The game is not in a state that allows this (a review: `game_not_finished`); the body has the current "
    "`game`.",
    422: "The request is wrong: a field, an option, or an illegal move (with `legal_moves`).",
    503: "The store did not answer in time; send the same request again after `Retry-After` seconds. A write "
    "may or may not be stored (never half): a move sent again with the same `ply` is safe, it is answered as "
    "played if it was.",
}


def _errors(*statuses: int) -> dict[int, OpenAPIResponse]:
    return error_responses(_DESCRIPTIONS, *statuses)


def create_app() -> Api:
    """The resolver with every route. One per process on Lambda; the tests make one per simulated instance."""
    app = Api()
    app.include_router(player_routes.router)  # POST /v1/players, PATCH /v1/players/me
    app.include_router(router)
    # Each instance keeps the heads it last read or wrote: a move starts from one instead of reading it.
    heads = RecentHeads()
    app.dependency_overrides[recent_heads] = lambda: heads
    # What a refusal carries beside its error, so the client catches up without another request.
    app.add_error_details(Conflict, lambda error: {"game": game_view(error.game)})
    app.add_error_details(IllegalMove, lambda error: {"legal_moves": error.legal_moves})
    return app


def headers() -> dict[str, Any]:
    return router.current_event.headers or {}


def base_url() -> str:
    site = os.environ.get("SITE_URL", "")
    if site:
        return site
    host = headers().get("host", "")
    if not re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host):
        return ""
    local = host.startswith(("127.0.0.1", "localhost", "[::1]"))
    return f"{'http' if local else 'https'}://{host}"


def state(outcome: Outcome) -> dict[str, Any]:
    return game_view(outcome.head)


# ------------------------------------------------------------------------------------- players
@router.get(
    "/v1/players/me/games",
    summary="Your games",
    description="Newest activity first; among active games, those where it is your move come first.",
    tags=["players"],
    responses=_errors(401, 422, 503),
)
def my_games(
    games: Games,
    player: CurrentPlayer,
    status: Annotated[Literal["active", "finished"], Query()] = "active",
    cursor: Annotated[str | None, Query(max_length=400)] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_LIMIT_MAX)] = LIST_LIMIT_DEFAULT,
) -> GameList:
    return GameList.model_validate(games.games_of(player, status, cursor, limit))


# --------------------------------------------------------------------------------------- games
@router.post(
    "/v1/games",
    summary="Create a game",
    description="You take one seat; send the invite `url` to your opponent, who joins with its code. With "
    '`"opponent": {"type": "cpu", "level": 1-5}` the computer takes the other seat and plays at once when it '
    "has White.",
    tags=["games"],
    responses={201: {"description": "The game, your seat and the invite."}, **_errors(401, 422, 503)},
)
def create_game(request: CreateGameRequest, service: Games, player: CurrentPlayer) -> Response[CreatedGame]:
    level = request.opponent.level if request.opponent else None
    outcome = service.create(player, request.game, request.color, request.options, request.fen, cpu_level=level)
    invite = None
    if outcome.invite:
        code = outcome.invite["code"]
        invite = {"code": code, "url": service.invite_url(outcome.head.id, code, base_url())}
    body = CreatedGame.model_validate({"game": state(outcome), "seat": outcome.seat, "invite": invite})
    return Response(HTTPStatus.CREATED, JSON, body, headers={"Cache-Control": "no-store"})


@router.get(
    "/v1/games/{id}",
    summary="A game, as anyone may see it",
    description="Public (a spectator link). Send the `ETag` back as `If-None-Match` to poll: 304 until "
    f"the game changes. `moves` holds the latest {MOVES_PAGE} moves at most (`moves_from` moves come before "
    "the first); with `moves_after` only those after that ply. Older moves: `GET /v1/games/{id}/moves` with "
    "`before` set to `earlier`.",
    tags=["games"],
    responses={304: {"description": "Your copy is current."}, **_errors(404, 422, 503)},
)
def get_game(
    id: str,
    games: Games,
    moves_after: Annotated[
        int | None,
        Query(ge=0, le=MAX_PLY, description="Only the moves after this ply (a poller's own `ply`)."),
    ] = None,
) -> Response[GameDetail]:
    head, page, etag = games.get(_game_id(id), headers().get("if-none-match"), moves_after)
    detail = {**game_view(head), **page_view(page), "start_fen": page.start_fen}
    return Response(
        HTTPStatus.OK,
        JSON,
        GameDetail.model_validate(detail),
        headers={"ETag": etag, "Cache-Control": "no-cache"},
    )


@router.get(
    "/v1/games/{id}/moves",
    summary="Older moves of a game, a page at a time",
    description="The moves among the `limit` events of the game before event `before` (a page's `earlier`), "
    "in order. Follow `earlier` until it is null to reach the first move. Public, like the game.",
    tags=["games"],
    responses=_errors(404, 422, 503),
)
def game_moves(
    id: str,
    games: Games,
    before: Annotated[int, Query(ge=2, le=MAX_EVENT, description="The `earlier` of the page you have.")],
    limit: Annotated[int, Query(ge=1, le=MOVES_LIMIT_MAX)] = MOVES_LIMIT_DEFAULT,
) -> Response[MovePageModel]:
    page = games.moves_before(_game_id(id), before, limit)
    return Response(
        HTTPStatus.OK,
        JSON,
        MovePageModel.model_validate({"id": id, **page_view(page)}),
        headers={"Cache-Control": "no-cache"},
    )


@router.post(
    "/v1/games/{id}/join",
    summary="Take the open seat",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def join_game(id: str, request: JoinRequest, games: Games, player: CurrentPlayer) -> SeatedGame:
    outcome = games.join(player, _game_id(id), request.invite)
    return SeatedGame.model_validate({"game": state(outcome), "seat": outcome.seat})


@router.post(
    "/v1/games/{id}/moves",
    summary="Play a move",
    description="`ply` is the game's `ply` when you chose the move. Sending the same move again at the same "
    "`ply` returns the same answer, so retrying is safe.",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def play_move(id: str, request: MoveRequest, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.move(token, _game_id(id), request.move, request.ply)))


@router.post("/v1/games/{id}/resign", summary="Resign", tags=["games"], responses=_errors(401, 403, 404, 409, 503))
def resign(id: str, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.resign(token, _game_id(id))))


@router.post(
    "/v1/games/{id}/draw",
    summary="Offer, accept or decline a draw",
    description="An offer stands until the opponent accepts, declines or moves.",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def draw(id: str, request: DrawRequest, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.draw(token, _game_id(id), request.action)))


@router.post(
    "/v1/games/{id}/claim-timeout",
    summary="Claim the game when the opponent's time is up",
    description="A win, or a draw where the rules say so (chess: you have no mating material; Tanzanian "
    "draughts: three kings against one).",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 503),
)
def claim_timeout(id: str, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.claim_timeout(token, _game_id(id))))


@router.post(
    "/v1/games/{id}/cpu-takeover",
    summary="Let the computer play on for your opponent, whose time ran out",
    description="Instead of claiming the game on time: the computer takes the opponent's seat, at about the "
    "level of the opponent's own moves in this game (3 if they chose none), and moves at once. The opponent "
    "takes the seat back with `resume`.",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 503),
)
def cpu_takeover(id: str, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.cpu_takeover(token, _game_id(id))))


@router.post(
    "/v1/games/{id}/resume",
    summary="Take back your seat from the computer",
    description="After a `cpu-takeover`, you play your seat again from the current position. Asking when "
    "the seat is already yours changes nothing (200).",
    tags=["games"],
    responses=_errors(401, 403, 404, 409, 503),
)
def resume(id: str, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.resume(token, _game_id(id))))


@router.post(
    "/v1/games/{id}/rematch",
    summary="Play again",
    description="A new game with the same options, both players seated, colours swapped unless the game's "
    "`swap_colors` is false. Asking again returns the same rematch (200).",
    tags=["games"],
    responses={201: {"description": "The rematch was created."}, **_errors(401, 403, 404, 409, 503)},
)
def rematch(id: str, games: Games, token: TokenHash) -> Response[SeatedGame]:
    outcome = games.rematch(token, _game_id(id))
    body = SeatedGame.model_validate({"game": state(outcome), "seat": outcome.seat})
    return Response(HTTPStatus.CREATED if outcome.created else HTTPStatus.OK, JSON, body)


@router.get(
    "/v1/games/{id}/export",
    summary="Download the game as PGN (chess) or PDN (draughts)",
    tags=["games"],
    responses={200: {"description": "The PGN or PDN text.", "content": {"text/plain": {}}}, **_errors(404, 503)},
)
def export(id: str, games: Games) -> Response[str]:
    head, log = games.export(_game_id(id))
    document = export_game(head, log, base_url())
    return Response(
        HTTPStatus.OK,
        document.content_type,
        document.text,
        headers={"Content-Disposition": f'attachment; filename="{document.filename}"', "Cache-Control": "no-cache"},
    )


@router.post(
    "/v1/games/{id}/review",
    summary="Ask for the game's review",
    description="Either player of a finished game. The engine reads every position off the request path: poll "
    "`GET /v1/games/{id}/review` until `status` is `done` (a push says so too). Asking again, from either seat, "
    "answers the same review and starts nothing.",
    tags=["games"],
    responses={202: {"description": "The review, pending or done."}, **_errors(401, 403, 404, 409, 503)},
)
def ask_review(id: str, reviews: Reviews, token: TokenHash) -> Response[GameReview]:
    body = GameReview.model_validate(review_view(reviews.ask(token, _game_id(id))))
    return Response(HTTPStatus.ACCEPTED, JSON, body, headers={"Cache-Control": "no-store"})


@router.get(
    "/v1/games/{id}/review",
    summary="The game's review",
    description="Public, like the game. `pending` until the engine is done; then every move (`ply` 1 is the first) "
    "in the game's notation with the position after it (`fen`), its evaluation for White (`score` in hundredths of "
    "a pawn or a man, or `winner` and `win_in`), the engine's `best` move in the position before it and its `mark` "
    "(`?!`, `?`, `??`) when it lost enough; a marked move has `best_squares` to show on a board. `accuracy` per side.",
    tags=["games"],
    responses={200: {"description": "The review: pending, or done with every move."}, **_errors(404, 503)},
)
def get_review(id: str, reviews: Reviews) -> Response[GameReview]:
    stored = reviews.read(_game_id(id))
    cache = "no-cache" if stored.status == "pending" else "public, max-age=3600"
    return Response(
        HTTPStatus.OK, JSON, GameReview.model_validate(review_view(stored)), headers={"Cache-Control": cache}
    )


def _game_id(value: str) -> str:
    if not GAME_ID.fullmatch(value or ""):
        raise GameNotFound(f"there is no game {value[:40]!r}")
    return value


def _not_modified(error: NotModified) -> Response[str]:
    return Response(HTTPStatus.NOT_MODIFIED, None, "", headers={"ETag": error.etag, "Cache-Control": "no-cache"})


router.exception_handler(NotModified)(_not_modified)

app = create_app()
lambda_handler = app.lambda_handler
