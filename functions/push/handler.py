"""PushFunction: players' Web Push subscriptions and the VAPID public key (routes in template.yaml).

Thin: the request models check the subscription (``push.domain``), ``common.players.service`` finds the
player from the bearer token, the repository stores it. Routes get the subscriptions, the players and the
clock with Powertools' ``Depends``; tests replace them through ``app.dependency_overrides``.
"""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from common.web.answers import answer, created_if, no_store
from common.web.api import Api
from common.web.auth import CurrentPlayer
from common.web.depends import Limiter, Now
from common.web.models import route_errors
from common.web.routes import Routes

from push.models import (
    PushKey,
    SubscriptionList,
    SubscriptionRequest,
    SubscriptionView,
    Unsubscribed,
    UnsubscribeRequest,
)
from push.repository import SubscriptionRepository
from push.service import Subscriptions
from push.vapid import vapid_key

PATH = "/v1/players/me/push-subscriptions"


def subscription_repository() -> SubscriptionRepository:
    from push.repository import DynamoSubscriptions

    return DynamoSubscriptions()


def subscriptions(repository: Annotated[SubscriptionRepository, Depends(subscription_repository)]) -> Subscriptions:
    return Subscriptions(repository)


_errors = route_errors(
    {
        422: "Not a subscription this API can use: the field and the reason are in the message. Nothing was stored.",
        503: "The store is busy (retry after `Retry-After` seconds), or push is not configured here.",
    }
)


router = Routes("push")


@router.post(
    PATH,
    summary="Subscribe to notifications",
    description="Stores the browser's `PushSubscription.toJSON()` with `lang` and `kinds` (default `your_move`, "
    "`game_over`, `reminder`). The same endpoint again replaces it; a player keeps the 10 newest.",
    responses={
        201: {"description": "Stored (new)."},
        200: {"description": "Stored (replaced)."},
        **_errors(401, 422, 503),
    },
)
def subscribe(
    request: SubscriptionRequest,
    player: CurrentPlayer,
    subscriptions: Annotated[Subscriptions, Depends(subscriptions)],
    now: Now,
    limiter: Limiter,
) -> Response[SubscriptionView]:
    limiter.charge("push")  # per player and address (docs/limits.md); a refusal stores nothing
    subscription = request.subscription(int(now() * 1000))
    new = subscriptions.subscribe(player.player_id, subscription)
    return no_store(SubscriptionView.of(subscription), created_if(new))


@router.get(
    PATH,
    summary="List your subscriptions",
    description="The player's subscriptions, newest first, without their keys.",
    responses={**_errors(401, 503)},
)
def list_subscriptions(
    player: CurrentPlayer,
    subscriptions: Annotated[Subscriptions, Depends(subscriptions)],
) -> Response[SubscriptionList]:
    body = SubscriptionList(subscriptions=[SubscriptionView.of(item) for item in subscriptions.list(player.player_id)])
    return no_store(body)


@router.delete(
    PATH,
    summary="Unsubscribe",
    description='Removes the subscription with this `endpoint` (sent as `{"endpoint": ...}`).',
    responses={**_errors(401, 422, 503)},
)
def unsubscribe(
    request: UnsubscribeRequest,
    player: CurrentPlayer,
    subscriptions: Annotated[Subscriptions, Depends(subscriptions)],
) -> Response[Unsubscribed]:
    body = Unsubscribed(deleted=subscriptions.unsubscribe(player.player_id, request.endpoint))
    return no_store(body)


@router.get(
    "/v1/push/key",
    summary="The VAPID public key",
    description="What `PushManager.subscribe` takes as `applicationServerKey` (base64url).",
    responses={**_errors(503)},
)
def push_key() -> Response[PushKey]:
    body = PushKey(public_key=vapid_key().public_key)  # VapidNotConfigured without a key: 503, not 500
    return answer(body, "public, max-age=3600")


def create_app() -> Api:
    """The resolver with this function's routes (one per process on Lambda; tests may make more)."""
    return Api.with_routers(router)


app = create_app()
lambda_handler = app.lambda_handler
