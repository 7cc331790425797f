"""PuzzlesFunction: the daily puzzle, puzzles, attempts checked on the server, and players' puzzle progress
(routes in template.yaml; docs/puzzles.md). Thin: models in, service, out.

The routes are on a module-level ``router``; each gets its ``PuzzleService`` with Powertools' ``Depends``
(``puzzle_service``, on ``common.web.depends``' players and clock and this module's repository); tests replace
any of them through the resolver's ``dependency_overrides``. ``create_app`` builds the resolver and binds the
state one instance keeps (the puzzle ratings it has read) to the ``ratings_seen`` dependency.
"""

from typing import Annotated, Literal, TypeVar

from aws_lambda_powertools.event_handler import Request, Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.persistence.attributes import Record
from common.players.service import Players
from common.reviews.repository import DynamoReviews, ReviewRepository
from common.web.answers import no_store, tagged
from common.web.api import Api
from common.web.auth import CurrentPlayer, OptionalPlayer
from common.web.depends import Limiter, Now, players
from common.web.models import route_errors
from common.web.routes import Routes
from pydantic import BaseModel

from puzzles_api.domain import ANONYMOUS_PUZZLE_LIMIT, anonymous_budget
from puzzles_api.models import (
    AttemptRequest,
    AttemptResult,
    DailyPuzzle,
    PersonalPuzzleView,
    PuzzlePack,
    PuzzleProgress,
    PuzzleView,
)
from puzzles_api.repository import PuzzleProgressRepository, PuzzleStore
from puzzles_api.service import PACK_MAX, PuzzleService, RatingsSeen, caller_of, puzzle_view, time_zone
from puzzles_api.service.mine import PersonalPuzzles, is_personal
from shared_rules.names import GameName

#: Part of every ETag: bump it when the JSON of a puzzle changes shape, so no client keeps an old copy.
REPRESENTATION = "1"
#: A puzzle never changes while the sets stay the same; a day keeps caches fresh after a new set is deployed.
PUZZLE_MAX_AGE = 86_400

ModelT = TypeVar("ModelT", bound=BaseModel)

THEME_HELP = "Only puzzles with this theme (`fork`, `mateIn2`, `shot`, `landing`...)"


_errors = route_errors(
    {
        304: "Your copy is current (send the `ETag` back as `If-None-Match`).",
        404: "No such puzzle, or (next) no puzzle of the game left that you have not played.",
        422: "The request is wrong: a field, the game, the date, the time zone, or an illegal move.",
        503: "The store is busy; retry after `Retry-After` seconds. A retried attempt counts once.",
    }
)

router = Routes("puzzles")


def puzzle_progress_repository() -> PuzzleProgressRepository:
    return PuzzleStore()


def review_repository() -> ReviewRepository:
    return DynamoReviews()


def personal_puzzles(reviews: Annotated[ReviewRepository, Depends(review_repository)]) -> PersonalPuzzles:
    return PersonalPuzzles(reviews)


Mine = Annotated[PersonalPuzzles, Depends(personal_puzzles)]


def ratings_seen() -> RatingsSeen:
    """The puzzle ratings this instance has read; ``create_app`` binds one dict per resolver (per process on
    Lambda), so a rating is read at most once per CACHE_SECONDS per process (docs/puzzles.md)."""
    return {}


def puzzle_service(
    players: Annotated[Players, Depends(players)],
    progress: Annotated[PuzzleProgressRepository, Depends(puzzle_progress_repository)],
    now: Now,
    ratings: Annotated[RatingsSeen, Depends(ratings_seen)],
) -> PuzzleService:
    return PuzzleService(players, progress, clock=now, ratings_seen=ratings)


def requested_zone(request: Request) -> str | None:
    # A dependency, so a wrong ``tz`` is refused before the token is checked, as it always was.
    return time_zone((request.query_parameters or {}).get("tz"))


Puzzles = Annotated[PuzzleService, Depends(puzzle_service)]
Zone = Annotated[str | None, Depends(requested_zone)]


def _public(model: type[ModelT], body: Record, max_age: int) -> Response[ModelT]:
    """A puzzle everyone sees alike: cached for ``max_age`` seconds, with an ETag (a 304 when the client has it)."""
    headers = router.current_event.headers or {}
    return tagged(model.model_validate(body), body, REPRESENTATION, f"public, max-age={max_age}", headers)


@router.get(
    "/v1/puzzles/daily",
    summary="The daily puzzle of a game",
    description="The same puzzle for everyone on a UTC date, never twice within 366 days. Cached until the "
    "UTC day ends; send the `ETag` back as `If-None-Match` for a 304. `date` (YYYY-MM-DD) gives an earlier "
    "day's puzzle.",
    responses=_errors(304, 422),
)
def daily(
    service: Puzzles,
    game: Annotated[GameName, Query(description="chess, english or tanzanian")],
    date: Annotated[str | None, Query(max_length=40, description="A UTC date, YYYY-MM-DD; today if left out")] = None,
) -> Response[DailyPuzzle]:
    chosen = service.daily(game, date)
    body = {**service.view(chosen.puzzle), "date": chosen.day.isoformat()}
    return _public(DailyPuzzle, body, chosen.max_age)


@router.get(
    "/v1/puzzles/next",
    summary="Your next puzzle",
    description="A puzzle of the game you have never finished, near your rating; with `theme`, one with "
    "that theme (a 422 `invalid_theme` for a theme no puzzle of the game has). With `source=mine`, the next of "
    'your own puzzles ("Your mistakes": a game review made them from your mistakes; `game_id` keeps one game\'s), '
    "a 404 `no_puzzle_left` when none is waiting; solving one changes no rating.",
    responses={
        200: {"description": "The puzzle (with `source=mine`: and the game it comes from)."},
        **_errors(401, 404, 422, 503),
    },
)
def next_puzzle(
    puzzles: Puzzles,
    mine: Mine,
    player: CurrentPlayer,
    game: Annotated[GameName, Query(description="chess, english or tanzanian")],
    theme: Annotated[str | None, Query(max_length=40, description=THEME_HELP)] = None,
    source: Annotated[Literal["sets", "mine"], Query(description="`sets` (the default) or `mine`")] = "sets",
    game_id: Annotated[str | None, Query(max_length=40, description="With `source=mine`: one game's puzzles")] = None,
) -> Response[PersonalPuzzleView | PuzzleView]:
    if source == "mine":
        personal = PersonalPuzzleView.model_validate(mine.next(caller_of(player), game, game_id))
        return no_store(personal)
    body = PuzzleView.model_validate(puzzles.view(puzzles.next_puzzle(caller_of(player), game, theme)))
    return no_store(body)


@router.get(
    "/v1/puzzles/pack",
    summary="Your next puzzles, to solve offline",
    description="Up to `count` puzzles of the game you have never finished, nearest your rating first: the "
    "ones `/v1/puzzles/next` would give one by one. The site keeps them to solve without a connection; "
    "each attempt is still checked by `POST /v1/puzzles/{id}/attempt`.",
    responses=_errors(401, 404, 422, 503),
)
def puzzle_pack(
    puzzles: Puzzles,
    player: CurrentPlayer,
    game: Annotated[GameName, Query(description="chess, english or tanzanian")],
    count: Annotated[int, Query(ge=1, le=PACK_MAX, description=f"How many, 1 to {PACK_MAX}")] = PACK_MAX,
    theme: Annotated[str | None, Query(max_length=40, description=THEME_HELP)] = None,
) -> Response[PuzzlePack]:
    chosen = puzzles.next_puzzles(caller_of(player), game, theme, count)
    # The pack's ratings are the ones this process knows (no read per puzzle); each is read when served.
    body = PuzzlePack.model_validate({"puzzles": [puzzle_view(p, puzzles.rating_of(p)) for p in chosen]})
    return no_store(body)


@router.get(
    "/v1/puzzles/{id}",
    summary="A puzzle",
    description="Any puzzle by its id (never its solution).",
    responses=_errors(304, 404),
)
def get_puzzle(id: str, service: Puzzles) -> Response[PuzzleView]:
    body = service.view(service.puzzle(id))
    return _public(PuzzleView, body, PUZZLE_MAX_AGE)


@router.post(
    "/v1/puzzles/{id}/attempt",
    summary="Check your moves",
    description="Send all your moves so far, each time: the answer is `continue` with the opponent's reply, "
    "`solved`, or `failed`. Any checkmate solves a mate puzzle. The solution comes with `failed` only to a "
    "player whose first finished attempt at the puzzle failed, recorded before it is shown; never without "
    "a token. With a token, your first "
    "finished attempt at a puzzle counts for your rating, counts and streak. `tz` (an IANA time zone) sent "
    "with a counted attempt is stored as your time zone, as with `/v1/players/me/puzzles`. One of your own "
    "puzzles (`<game>-mine-...`, from a game review) needs your token, shows its solution with any `failed`, "
    "and never counts (`rated` false).",
    responses=_errors(401, 404, 422, 503),
)
def attempt(
    id: str,
    request: AttemptRequest,
    puzzles: Puzzles,
    mine: Mine,
    zone: Zone,
    player: OptionalPlayer,
    limiter: Limiter,
    tz: Annotated[str | None, Query(max_length=200, description="Your time zone, such as Asia/Manila")] = None,
) -> Response[AttemptResult]:
    limiter.charge("puzzles" if player else "anonymous_puzzles")  # anonymous attempts: by address alone
    if player is None:  # and a budget per puzzle, so they are no oracle for a rated attempt
        limiter.charge(ANONYMOUS_PUZZLE_LIMIT, scope=id[:60], limit=anonymous_budget(puzzles.puzzle(id)))
    caller = caller_of(player) if player else None
    if is_personal(id):  # one of the player's own puzzles: checked the same way, never rated
        body = AttemptResult.model_validate(mine.attempt(caller, id, request.moves))
        return no_store(body)
    body = AttemptResult.model_validate(puzzles.attempt(id, request.moves, caller, zone))
    return no_store(body)


@router.get(
    "/v1/players/me/puzzles",
    summary="Your puzzle progress",
    description="Rating, counts, streak and recent attempts. The streak counts your days: the dates of your "
    "time zone, kept with your progress (UTC until you set one). `tz` (an IANA time zone such as "
    "Africa/Dar_es_Salaam) sets it: at once before your first streak day, else from your next day on "
    "(`tz_next`, `tz_from`), so a change never shortens a day and a day earns one streak day at most.",
    tags=["players"],
    responses=_errors(401, 422, 503),
)
def my_puzzles(
    puzzles: Puzzles,
    zone: Zone,
    player: CurrentPlayer,
    tz: Annotated[str | None, Query(max_length=200, description="Your time zone, such as Africa/Nairobi")] = None,
) -> Response[PuzzleProgress]:
    body = PuzzleProgress.model_validate(puzzles.progress(caller_of(player), zone))
    return no_store(body)


def create_app() -> Api:
    """The resolver with every route. One per process on Lambda; the tests make one per simulated instance."""
    app = Api()
    app.include_router(router)
    seen: RatingsSeen = {}
    app.dependency_overrides[ratings_seen] = lambda: seen
    return app


app = create_app()
lambda_handler = app.lambda_handler
