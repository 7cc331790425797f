"""GamesFunction: correspondence games and players (routes in template.yaml). Thin: models in, the service,
views out.

The routes are on a module-level ``router``; ``create_app()`` builds the resolver, includes this router and
the players' (``common.players.handler``), and gives the resolver its own ``RecentHeads`` through the
``recent_heads`` dependency. Tokens arrive as ``Authorization: Bearer <token>``; the service never sees the
header, only the token's hash. Each route declares the service it needs with Powertools' ``Depends``
(``games.handler.dependencies``, on ``common.web.depends``' repositories, clock and limits); tests replace any of
them through the resolver's ``dependency_overrides``.
"""

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.players import handler as player_routes
from common.web import etag
from common.web.answers import answer, created_if, no_store
from common.web.api import JSON, Api
from common.web.auth import CurrentPlayer, TokenHash
from common.web.etag import matches
from common.web.models import route_errors
from common.web.routes import Routes

from games.domain.errors import Conflict, GameNotFound, IllegalMove
from games.handler import blocks as blocking
from games.handler import history as history_routes
from games.handler import lobby as lobby_routes
from games.handler import ratings as rating_routes
from games.handler import reactions as reaction_routes
from games.handler import watch as watch_routes
from games.handler.dependencies import Games, Reviews, export_cache, recent_heads
from games.handler.dependencies import game_repository as game_repository  # the tests override it here
from games.handler.dependencies import review_queue as review_queue  # the tests override it here
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
    RematchRequest,
    SeatedGame,
)
from games.models import (
    MovePage as MovePageModel,
)
from games.service import (
    LIST_LIMIT_DEFAULT,
    LIST_LIMIT_MAX,
    MOVES_LIMIT_DEFAULT,
    MOVES_LIMIT_MAX,
    GamesService,
    Outcome,
    Unchanged,
)
from games.service.protocol import RecentHeads
from games.service.reviews import review_view
from games.views import etag_of, export_etag, game_view, page_view, seq_from_etag
from games.views.export import EXPORT_MEDIA_TYPES, ExportCache, export_game
from games.views.pages import MOVES_PAGE

GAME_ID = re.compile(r"[A-Za-z0-9_-]{12}")


class NotModified(etag.NotModified):
    """The client's copy (its ``If-None-Match``) is current: 304 with no body, answered by the resolver
    (``common.web.api``) as every function's; a game's answers are revalidated on every use."""

    def __init__(self, tag: str):
        super().__init__({"ETag": tag, "Cache-Control": "no-cache"})
        self.etag = tag


router = Routes("games")

_errors = route_errors(
    {
        403: "Not your game, not your turn, or a wrong invite code.",
        404: "No such game; for a review, also none asked for yet (`review_not_found`).",
        409: "The game is not in a state that allows this (a review: `game_not_finished`); the body has the current "
        "`game`.",
        422: "The request is wrong: a field, an option, or an illegal move (with `legal_moves`).",
        503: "The store did not answer in time; send the same request again after `Retry-After` seconds. A write "
        "may or may not be stored (never half): a move sent again with the same `ply` is safe, it is answered as "
        "played if it was.",
    }
)


def create_app() -> Api:
    """The resolver with every route. One per process on Lambda; the tests make one per simulated instance."""
    app = Api()
    app.include_router(player_routes.router)  # POST /v1/players, PATCH /v1/players/me
    app.include_router(router)
    app.include_router(blocking.router)  # /v1/players/me/blocks
    app.include_router(reaction_routes.router)  # /v1/games/{id}/reactions
    app.include_router(lobby_routes.router)  # /v1/seeks
    app.include_router(history_routes.router)  # /v1/players/me/history, /v1/players/{id}/games
    app.include_router(watch_routes.router)  # /v1/games/live
    app.include_router(rating_routes.router)  # GET /v1/players/me, its rating histories, /v1/leaderboard
    # Each instance keeps the heads it last read or wrote: a move starts from one instead of reading it.
    heads = RecentHeads()
    app.dependency_overrides[recent_heads] = lambda: heads
    # And its last exports: a second download of a game costs about a GET.
    exports = ExportCache()
    app.dependency_overrides[export_cache] = lambda: exports
    # What a refusal carries beside its error, so the client catches up without another request.
    # Through its model, as every answer: the players as their handles (common.players.handles).
    app.add_error_details(
        Conflict, lambda error: {"game": GameState.model_validate(game_view(error.game)).model_dump(mode="json")}
    )
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


def state(outcome: Outcome, games: GamesService) -> dict[str, Any]:
    return game_view(outcome.head, games.log.now_ms())


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
    'has White. `"rated": true` asks for a rated game (never against the computer or from a custom position: '
    "422 `rated_not_allowed`).",
    responses={201: {"description": "The game, your seat and the invite."}, **_errors(401, 422, 503)},
)
def create_game(request: CreateGameRequest, service: Games, player: CurrentPlayer) -> Response[CreatedGame]:
    level = request.opponent.level if request.opponent else None
    outcome = service.create(
        player, request.game, request.color, request.options, request.fen, cpu_level=level, rated=request.rated
    )
    invite = None
    if outcome.invite:
        code = outcome.invite["code"]
        invite = {"code": code, "url": service.invite_url(outcome.head.id, code, base_url())}
    body = CreatedGame.model_validate({"game": state(outcome, service), "seat": outcome.seat, "invite": invite})
    return no_store(body, HTTPStatus.CREATED)


@router.get(
    "/v1/games/{id}",
    summary="A game, as anyone may see it",
    description="Public (a spectator link). Send the `ETag` back as `If-None-Match` to poll: 304 until "
    f"the game changes. `moves` holds the latest {MOVES_PAGE} moves at most (`moves_from` moves come before "
    "the first); with `moves_after` only those after that ply. Older moves: `GET /v1/games/{id}/moves` with "
    "`before` set to `earlier`.",
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
    found = games.get(_game_id(id), seq_from_etag(headers().get("if-none-match")), moves_after)
    if isinstance(found, Unchanged):
        raise NotModified(etag_of(found.seq))
    head, page, seq = found
    etag = etag_of(seq)
    detail = {**game_view(head, games.log.now_ms()), **page_view(page), "start_fen": page.start_fen}
    return answer(GameDetail.model_validate(detail), "no-cache", headers={"ETag": etag})


@router.get(
    "/v1/games/{id}/moves",
    summary="Older moves of a game, a page at a time",
    description="The moves among the `limit` events of the game before event `before` (a page's `earlier`; "
    "without it, the latest events), in order. Follow `earlier` until it is null to reach the first move. With "
    "`positions`, the position after each move (`fens`) and, once the page reaches the start, the position "
    "before the first (`start_fen`): a board steps through the game a page at a time. Public, like the game.",
    responses=_errors(404, 422, 503),
)
def game_moves(
    id: str,
    games: Games,
    before: Annotated[
        int | None, Query(ge=2, le=MAX_EVENT, description="The `earlier` of the page you have; none: the latest.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MOVES_LIMIT_MAX)] = MOVES_LIMIT_DEFAULT,
    positions: Annotated[bool, Query(description="Add the position after each move (`fens`).")] = False,
) -> Response[MovePageModel]:
    page = games.moves_before(_game_id(id), before, limit, positions)
    body = {"id": id, **page_view(page), "fens": page.fens, "start_fen": page.start_fen}
    return answer(MovePageModel.model_validate(body), "no-cache")


@router.post(
    "/v1/games/{id}/join",
    summary="Take the open seat",
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def join_game(id: str, request: JoinRequest, games: Games, player: CurrentPlayer) -> SeatedGame:
    outcome = games.join(player, _game_id(id), request.invite)
    return SeatedGame.model_validate({"game": state(outcome, games), "seat": outcome.seat})


@router.post(
    "/v1/games/{id}/moves",
    summary="Play a move",
    description="`ply` is the game's `ply` when you chose the move. Sending the same move again at the same "
    "`ply` returns the same answer, so retrying is safe.",
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def play_move(id: str, request: MoveRequest, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.move(token, _game_id(id), request.move, request.ply), games))


SEAT_ERRORS = (401, 403, 404, 409, 503)


@dataclass(frozen=True)
class SeatAction:
    """A seated player's act on a game that carries no body: ``POST /v1/games/{id}/<path>``, answered with the
    game after it. ``name`` is the route function's, which Powertools makes the operationId from."""

    path: str
    name: str
    summary: str
    act: Callable[[GamesService, str, str], Outcome]
    description: str | None = None
    errors: tuple[int, ...] = SEAT_ERRORS


SEAT_ACTIONS = (
    SeatAction("resign", "resign", "Resign", GamesService.resign),
    SeatAction(
        "abort",
        "abort",
        "Abort the game",
        GamesService.abort,
        description="Ends the game with no result and no rating change, while neither side has made two moves "
        "(`abortable` in the game). A retry is a 200.",
    ),
    SeatAction(
        "open",
        "open_table",
        "Say you are at the live table",
        GamesService.open,
        description="Sent by a seated player's page when it opens a live table (`unopened` in the game): the "
        "first turn's clock starts once both players have; a table one of them never opens is aborted when its "
        "`deadline` passes. Nothing is written for another game or a seat already opened (a retry is a 200).",
        errors=(401, 403, 404, 503),
    ),
    SeatAction(
        "claim-timeout",
        "claim_timeout",
        "Claim the game when the opponent's time is up",
        GamesService.claim_timeout,
        description="A win, or a draw where the rules say so (chess: you have no mating material; Tanzanian "
        "draughts: three pieces against one, men or kings).",
    ),
    SeatAction(
        "cpu-takeover",
        "cpu_takeover",
        "Let the computer play on for your opponent, whose time ran out",
        GamesService.cpu_takeover,
        description="Instead of claiming the game on time: the computer takes the opponent's seat, at about the "
        "level of the opponent's own moves in this game (3 if they chose none), and moves at once. The opponent "
        "takes the seat back with `resume`.",
    ),
    SeatAction(
        "resume",
        "resume",
        "Take back your seat from the computer",
        GamesService.resume,
        description="After a `cpu-takeover`, you play your seat again from the current position. Asking when "
        "the seat is already yours changes nothing (200).",
    ),
)


def seat_route(action: SeatAction) -> Callable[..., GameState]:
    """Declare ``action``'s route on the router; the route function is returned."""

    def route(id: str, games: Games, token: TokenHash) -> GameState:
        return GameState.model_validate(state(action.act(games, token, _game_id(id)), games))

    route.__name__ = route.__qualname__ = action.name
    declare = router.post(
        f"/v1/games/{{id}}/{action.path}",
        summary=action.summary,
        description=action.description,
        responses=_errors(*action.errors),
    )
    return declare(route)


for seat_action in SEAT_ACTIONS:
    seat_route(seat_action)


@router.post(
    "/v1/games/{id}/draw",
    summary="Offer, accept or decline a draw",
    description="An offer stands until the opponent accepts, declines or moves.",
    responses=_errors(401, 403, 404, 409, 422, 503),
)
def draw(id: str, request: DrawRequest, games: Games, token: TokenHash) -> GameState:
    return GameState.model_validate(state(games.draw(token, _game_id(id), request.action), games))


@router.post(
    "/v1/games/{id}/rematch",
    summary="Offer, accept, decline or withdraw a rematch",
    description="A rematch is an offer the opponent accepts or declines on the game (`rematch_offer`); no game "
    "is made and no one is notified until it is accepted (against the computer, at once). The rematch has the "
    "same options, colours swapped unless the game's `swap_colors` is false. The answer is the new game once "
    "agreed (201 to the request that made it, 200 to every other), else the old game. Offering while the "
    "opponent's offer stands accepts it. 403 `blocked` when one player blocked the other.",
    responses={201: {"description": "The rematch was created."}, **_errors(401, 403, 404, 409, 422, 503)},
)
def rematch(id: str, games: Games, token: TokenHash, request: RematchRequest | None = None) -> Response[SeatedGame]:
    outcome = games.rematch(token, _game_id(id), request.action if request else "offer")
    body = SeatedGame.model_validate({"game": state(outcome, games), "seat": outcome.seat})
    return Response(created_if(outcome.created), JSON, body)


@router.get(
    "/v1/games/{id}/export",
    summary="Download the game as PGN (chess) or PDN (draughts)",
    description="Send the `ETag` back as `If-None-Match`: 304 until the game changes. Public, like the game.",
    responses={
        200: {
            "description": "The PGN (chess, `application/x-chess-pgn`) or PDN (draughts, `text/plain`) text, UTF-8.",
            "content": {media: {"schema": {"type": "string"}} for media in EXPORT_MEDIA_TYPES},
        },
        304: {"description": "Your copy is current."},
        **_errors(404, 422, 503),
    },
)
def export(id: str, games: Games, exports: Annotated[ExportCache, Depends(export_cache)]) -> Response[str]:
    game_id, site = _game_id(id), base_url()
    head = games.head(game_id)  # one read: the export changes only with a new event
    etag = export_etag(head.seq)
    if matches(headers().get("if-none-match"), etag):
        raise NotModified(etag)
    document = exports.get(game_id, head.seq, site)
    if document is None:
        games.charge("exports")  # the log read and the replay: by address (docs/limits.md)
        head, log = games.export(game_id)
        document = export_game(head, log, site)
        exports.keep(game_id, head.seq, site, document)
        etag = export_etag(head.seq)
    return Response(
        HTTPStatus.OK,
        document.content_type,
        document.text,
        headers={
            "Content-Disposition": f'attachment; filename="{document.filename}"',
            "Cache-Control": "no-cache",
            "ETag": etag,
        },
    )


@router.post(
    "/v1/games/{id}/review",
    summary="Ask for the game's review",
    description="Either player of a finished game. The engine reads every position off the request path: poll "
    "`GET /v1/games/{id}/review` until `status` is `done` (a push says so too). Asking again, from either seat, "
    "answers the same review and starts nothing.",
    responses={202: {"description": "The review, pending or done."}, **_errors(401, 403, 404, 409, 503)},
)
def ask_review(id: str, reviews: Reviews, token: TokenHash) -> Response[GameReview]:
    body = GameReview.model_validate(review_view(reviews.ask(token, _game_id(id))))
    return no_store(body, HTTPStatus.ACCEPTED)


@router.get(
    "/v1/games/{id}/review",
    summary="The game's review",
    description="Public, like the game. `pending` until the engine is done; then every move (`ply` 1 is the first) "
    "in the game's notation with the position after it (`fen`), its evaluation for White (`score` in hundredths of "
    "a pawn or a man, or `winner` and `win_in`), the engine's `best` move in the position before it and its `mark` "
    "(`?!`, `?`, `??`) when it lost enough; a marked move has `best_squares` to show on a board. `accuracy` per side.",
    responses={200: {"description": "The review: pending, or done with every move."}, **_errors(404, 503)},
)
def get_review(id: str, reviews: Reviews) -> Response[GameReview]:
    stored = reviews.read(_game_id(id))
    cache = "no-cache" if stored.status == "pending" else "public, max-age=3600"
    return answer(GameReview.model_validate(review_view(stored)), cache)


def _game_id(value: str) -> str:
    if not GAME_ID.fullmatch(value or ""):
        raise GameNotFound(f"there is no game {value[:40]!r}")
    return value


app = create_app()
lambda_handler = app.lambda_handler
