"""The direct challenges' routes (``/v1/players/me/challenges``) and the friends strip (``/v1/players/me/friends``),
on the community function (``community.handler`` includes this router); routes in template.yaml."""

from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from common.players.handles import player_id_of
from common.web.answers import no_store
from common.web.auth import CurrentPlayer
from common.web.depends import Limiter, Now, PlayerStorage
from common.web.models import route_errors
from common.web.routes import Routes
from games.handler.dependencies import Games

from community.challenges.models import (
    ChallengeAnswer,
    ChallengeList,
    ChallengeRequest,
    ChallengeView,
    FriendsStrip,
    FriendView,
)
from community.challenges.pushes import ChallengePush
from community.challenges.repository import ChallengeRepository, DynamoChallenges
from community.challenges.seated import ChallengeGames
from community.challenges.service import Announcer, Challenges
from community.games import StoredPlaying
from community.repository import CommunityRepository, DynamoCommunity

CHALLENGES = "/v1/players/me/challenges"
#: The friends strip shows at most this many friends (two Queries each: whether they have a game going).
STRIP_FRIENDS = 30


def challenge_repository() -> ChallengeRepository:
    return DynamoChallenges()


def community_repository() -> CommunityRepository:
    return DynamoCommunity()


def announcer() -> Announcer:
    from functools import cache

    from notify.handler import pushes_from_environment

    return ChallengePush(cache(pushes_from_environment))


def playing() -> StoredPlaying:
    return StoredPlaying()


def challenges(
    repository: Annotated[ChallengeRepository, Depends(challenge_repository)],
    community: Annotated[CommunityRepository, Depends(community_repository)],
    players: PlayerStorage,
    games: Games,
    pushes: Annotated[Announcer, Depends(announcer)],
    now: Now,
) -> Challenges:
    return Challenges(repository, community, players, ChallengeGames(games.log), pushes, now)


Service = Annotated[Challenges, Depends(challenges)]

_errors = route_errors(
    {
        403: "That player is not your friend (you follow each other), or one of you blocked the other.",
        404: "You have no challenge with this id.",
        409: "You blocked that player, you challenged them already, you have the most challenges out, or the "
        "challenge was answered, withdrawn or lapsed.",
        429: "Too many challenges from your network or by you; try again after `Retry-After` seconds.",
    }
)

router = Routes("community")


@router.post(
    CHALLENGES,
    summary="Challenge a friend",
    description="A direct challenge: a game with its options offered to a friend (a player you follow who follows "
    "you), who accepts (the game is made then) or declines; it lapses after 24 hours. The friend gets a push. "
    "One open challenge to a friend at a time; a block either way refuses it.",
    responses={201: {"description": "The challenge, open."}, **_errors(401, 403, 409, 422, 429, 503)},
)
def send_challenge(
    request: ChallengeRequest, player: CurrentPlayer, service: Service, limiter: Limiter
) -> Response[ChallengeView]:
    limiter.charge("challenges")
    made = service.send(
        player, player_id_of(request.player), request.game, request.options, request.rated, request.color
    )
    return no_store(ChallengeView.of(made, service.now_ms()), HTTPStatus.CREATED)


@router.get(
    CHALLENGES,
    summary="Your challenges",
    description="Those waiting for your answer, and those you sent in the last days with their answers (an accepted "
    "one carries its game).",
    responses=_errors(401, 503),
)
def list_challenges(player: CurrentPlayer, service: Service) -> Response[ChallengeList]:
    received, sent = service.listing(player)
    now = service.now_ms()
    body = ChallengeList(
        received=[ChallengeView.of(item, now) for item in received], sent=[ChallengeView.of(item, now) for item in sent]
    )
    return no_store(body)


@router.post(
    CHALLENGES + "/{id}",
    summary="Answer a challenge",
    description='`{"action": "accept"}` makes the game (its id in `game_id`), `decline` refuses it, and `withdraw` '
    "takes back one you sent. Sending the same answer again answers the same.",
    responses=_errors(401, 404, 409, 422, 429, 503),
)
def answer_challenge(
    id: str, request: ChallengeAnswer, player: CurrentPlayer, service: Service, limiter: Limiter
) -> Response[ChallengeView]:
    limiter.charge("challenges")
    answered = service.answer(player, id, request.action)
    return no_store(ChallengeView.of(answered, service.now_ms()))


@router.get(
    "/v1/players/me/friends",
    summary="The friends strip",
    description="Your friends (players you follow who follow you), each with a game of theirs going on now, those "
    f"playing first; up to {STRIP_FRIENDS}.",
    responses=_errors(401, 503),
)
def friends_strip(
    player: CurrentPlayer,
    community: Annotated[CommunityRepository, Depends(community_repository)],
    players: PlayerStorage,
    games: Annotated[StoredPlaying, Depends(playing)],
    now: Now,
) -> Response[FriendsStrip]:
    from community.service import Community

    friends = [item.follow for item in Community(community, players, now).follows(player) if item.friend]
    shown = [
        FriendView(
            player_id=friend.player_id, name=friend.name, playing=games.playing(friend.player_id, player.player_id)
        )
        for friend in friends[:STRIP_FRIENDS]
    ]
    shown.sort(key=lambda friend: friend.playing is None)
    return no_store(FriendsStrip(friends=shown))
