"""ClubsFunction: clubs (vilabu) joined by invite code (routes in template.yaml; docs/community.md, "Clubs").
Thin: the models check the request, ``clubs.service.Clubs`` acts on ``common.clubs`` and the game ratings."""

from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from common.clubs.domain import MAX_CLUBS, MAX_MEMBERS
from common.clubs.repository import ClubRepository, DynamoClubs
from common.players.handles import player_id_of
from common.web.answers import created_if, no_store
from common.web.api import Api
from common.web.auth import CurrentPlayer, OptionalPlayer, viewer_id
from common.web.depends import Limiter, Now
from common.web.models import route_errors
from common.web.routes import Routes
from games.ratings.repository import RatingStore

from clubs.models import ClubJoinRequest, ClubLeft, ClubList, ClubRequest, ClubSummary, ClubView, MemberRemoved
from clubs.service import Clubs

CLUB = "/v1/clubs/{id}"


def club_repository() -> ClubRepository:
    return DynamoClubs()


def clubs_service(repository: Annotated[ClubRepository, Depends(club_repository)], now: Now) -> Clubs:
    return Clubs(repository, RatingStore(), now)


Service = Annotated[Clubs, Depends(clubs_service)]

_errors = route_errors(
    {
        403: "Only the club's owner does this (`not_club_owner`), or the code does not open the club "
        "(`wrong_club_code`: the owner may have renewed it).",
        404: "No club has this id (`club_not_found`), or that player is not in it (`not_club_member`).",
        409: f"The club has {MAX_MEMBERS} members (`club_full`), you are in {MAX_CLUBS} clubs (`too_many_clubs`), or "
        "the owner cannot leave a club with other members (`owner_stays_in_club`).",
        429: "Too many club changes from your network or by you; try again after `Retry-After` seconds.",
    }
)


router = Routes("clubs")


def _view(service: Clubs, club_id: str, you: str | None) -> ClubView:
    page = service.page(club_id)
    member = you is not None and you in page.club.member_ids
    return ClubView.of(page, you, service.boards(page) if member else None)


@router.post(
    "/v1/clubs",
    summary="Make a club",
    description=f"For one game or all three, with a name; you are its owner and first member. A player is in at "
    f"most {MAX_CLUBS} clubs, owned ones included. The answer carries the invite (`<id>-<code>`).",
    responses={201: {"description": "The club."}, **_errors(401, 409, 422, 429, 503)},
)
def create_club(request: ClubRequest, player: CurrentPlayer, service: Service, limiter: Limiter) -> Response[ClubView]:
    limiter.charge("clubs")
    club = service.create(player, request.name, request.game)
    return no_store(_view(service, club.id, player.player_id), HTTPStatus.CREATED)


@router.get(
    "/v1/players/me/clubs",
    summary="Your clubs",
    description="Oldest first. One read of your places and one batch read of the clubs.",
    responses=_errors(401, 503),
)
def my_clubs(player: CurrentPlayer, service: Service) -> Response[ClubList]:
    body = ClubList(clubs=[ClubSummary.of(club, player.player_id) for club in service.mine(player)])
    return no_store(body)


@router.get(
    CLUB,
    summary="A club",
    description="Anyone with the id sees its name, game and size; a member also its invite, members, their "
    "leaderboard per game (a batch read per 100 members and game) and its tournaments.",
    responses={200: {"description": "The club."}, **_errors(401, 404, 503)},
)
def get_club(id: str, viewer: OptionalPlayer, service: Service) -> Response[ClubView]:
    return no_store(_view(service, id, viewer_id(viewer)))


@router.post(
    CLUB + "/join",
    summary="Join a club by its code",
    description=f"With the code of its invite. At most {MAX_MEMBERS} members a club and {MAX_CLUBS} clubs a "
    "player, however many join at once. A member joining again answers 200.",
    responses={
        200: {"description": "A member already: the club, unchanged."},
        201: {"description": "Joined: the club."},
        **_errors(401, 403, 404, 409, 422, 429, 503),
    },
)
def join_club(
    id: str, request: ClubJoinRequest, player: CurrentPlayer, service: Service, limiter: Limiter
) -> Response[ClubView]:
    limiter.charge("clubs")
    club, new = service.join(player, id, request.code)
    return no_store(_view(service, club.id, player.player_id), created_if(new))


@router.post(
    CLUB + "/leave",
    summary="Leave a club",
    description="The owner leaves only as the last member, which closes the club.",
    responses=_errors(401, 404, 409, 429, 503),
)
def leave_club(id: str, player: CurrentPlayer, service: Service, limiter: Limiter) -> Response[ClubLeft]:
    limiter.charge("clubs")
    closed = service.leave(player, id)
    return no_store(ClubLeft(closed=closed))


@router.post(
    CLUB + "/code",
    summary="Renew a club's code (its owner)",
    description="The old code stops opening the club at once; members stay.",
    responses={200: {"description": "The club with its new invite."}, **_errors(401, 403, 404, 429, 503)},
)
def renew_code(id: str, player: CurrentPlayer, service: Service, limiter: Limiter) -> Response[ClubView]:
    limiter.charge("clubs")
    club = service.renew_code(player, id)
    return no_store(_view(service, club.id, player.player_id))


@router.delete(
    CLUB + "/members/{member}",
    summary="Remove a member (the club's owner)",
    description="The member's place in the club is freed; they can join again only with the code (renew it first "
    "to keep them out).",
    responses=_errors(401, 403, 404, 409, 429, 503),
)
def remove_member(
    id: str, member: str, player: CurrentPlayer, service: Service, limiter: Limiter
) -> Response[MemberRemoved]:
    limiter.charge("clubs")
    service.remove(player, id, player_id_of(member))  # the member's handle, as the club's answers show it
    return no_store(MemberRemoved())


def create_app() -> Api:
    app = Api()
    app.include_router(router)
    return app


app = create_app()
lambda_handler = app.lambda_handler
