"""The live socket's entry points (template.yaml): ``lambda_handler`` (LiveTicketsFunction, ``POST
/v1/live/tickets`` on the HTTP API), ``socket_handler`` (LiveSocketFunction, the WebSocket API's ``$connect``,
``$disconnect``, ``subscribe`` and ``$default``) and ``stream_handler`` (LiveFanoutFunction, the games table's
stream and the tournaments table's). Thin: the events are read into models, the work is ``live.service``'s, each refusal is answered once
here with the status of its code (``common.web.errors.ERRORS``): the handshake's status for ``$connect``, an
``{"type": "error", "error": {"code", "message"}}`` message for a message.
"""

import json
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from common.errors import DomainError
from common.persistence.deadline import StoreUnavailable
from common.web.answers import no_store
from common.web.api import Api
from common.web.auth import OptionalPlayer, viewer_id
from common.web.depends import Clock, Limiter, Pace, clock, pace_clock
from common.web.edge import from_cloudfront
from common.web.errors import ERRORS
from common.web.models import route_errors
from common.web.routes import Routes
from pydantic import ValidationError

from live.domain import MAX_MESSAGE_BYTES, InvalidMessage
from live.games import StoredGameViews
from live.models import SOCKET_PATH, LiveTicket, SocketEvent, SubscribeMessage
from live.repository import ApiGatewaySockets, DynamoLive, LiveRepository
from live.service import LiveService, changed_games, error_message
from live.tournaments import StoredTournamentViews

logger = Logger(child=True)
router = Routes("live")

_errors = route_errors({429: "Too many tickets from this player or address; retry after `Retry-After` seconds."})


def live_repository() -> LiveRepository:
    return DynamoLive()


def ticket_service(repository: Annotated[LiveRepository, Depends(live_repository)], pace: Pace) -> LiveService:
    return LiveService(repository, StoredGameViews(), clock=pace)


@router.post(
    "/v1/live/tickets",
    summary="A ticket for the live socket",
    description="A single-use ticket, good for a minute, to open the live WebSocket at `url` (the site's "
    f"`{SOCKET_PATH}?ticket=...`): the token never travels in a URL. With a bearer token the connection is the "
    "player's (a private game's players may follow it); without one, a watcher's. A player holds at most 5 "
    "connections at once and an address 20.",
    responses={201: {"description": "The ticket."}, **_errors(401, 429, 503)},
)
def issue_ticket(
    viewer: OptionalPlayer,
    service: Annotated[LiveService, Depends(ticket_service)],
    limiter: Limiter,
) -> Response[LiveTicket]:
    limiter.charge("live_tickets")
    issued = service.issue_ticket(viewer_id(viewer), limiter.client.address)
    body = LiveTicket(ticket=issued.ticket, expires_in=issued.expires_in, url=f"{SOCKET_PATH}?ticket={issued.ticket}")
    return no_store(body, HTTPStatus.CREATED)


def create_app() -> Api:
    """The resolver with this function's routes (one per process on Lambda; tests may make more)."""
    return Api.with_routers(router)


app = create_app()
lambda_handler = app.lambda_handler


# -- the WebSocket API ------------------------------------------------------------------------------------
def _clock() -> Clock:
    """The clock the resolver's routes read: the system's, or the one a test or the local runner gives ``app``."""
    provider = app.dependency_overrides.get(clock, clock)
    found: Clock = provider()
    return found


def _pace(now: Clock) -> Clock:
    """The clock of tickets, connections and followers (``common.web.depends.pace_clock``): ``now`` unless given."""
    provider = app.dependency_overrides.get(pace_clock)
    return provider() if provider else now


def socket_service() -> LiveService:
    now = _clock()
    return LiveService(
        DynamoLive(), StoredGameViews(clock=now), clock=_pace(now), tournaments=StoredTournamentViews(clock=now)
    )


def socket_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle_socket(event, socket_service())


def handle_socket(event: dict[str, Any], service: LiveService) -> dict[str, Any]:
    """One WebSocket event: ``$connect`` answers the handshake's status (200 opens it), the others a message."""
    try:
        parsed = SocketEvent.model_validate(event)
    except ValidationError:
        return _status(HTTPStatus.BAD_REQUEST)
    route, connection_id = parsed.requestContext.routeKey, parsed.requestContext.connectionId
    try:
        if route == "$connect":
            if not from_cloudfront({"headers": {k.lower(): v for k, v in (parsed.headers or {}).items()}}):
                return _status(HTTPStatus.FORBIDDEN)  # straight to execute-api, past CloudFront and its WAF
            service.connect(connection_id, (parsed.queryStringParameters or {}).get("ticket"))
            return _status(HTTPStatus.OK)
        if route == "$disconnect":
            service.disconnect(connection_id)
            return _status(HTTPStatus.OK)
        subscription = _subscription(parsed)
        if subscription.tournament is not None:
            return _reply(service.subscribe_tournament(connection_id, subscription.tournament))
        assert subscription.game is not None
        return _reply(service.subscribe(connection_id, subscription.game, subscription.ply))
    except DomainError as error:
        if route == "$connect":
            return _status(ERRORS[error.code].status)
        return _reply(error_message(error))
    except StoreUnavailable as error:
        if route == "$connect":
            return _status(HTTPStatus.SERVICE_UNAVAILABLE)
        return _reply(error_message(DomainError(str(error) or "the store is busy", code="store_unavailable")))


def _subscription(event: SocketEvent) -> SubscribeMessage:
    text = event.body or ""
    if event.isBase64Encoded:
        raise InvalidMessage("the live socket takes text messages")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise InvalidMessage(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = SubscribeMessage.model_validate_json(text)
    except ValidationError:
        raise InvalidMessage(
            'send {"action": "subscribe", "game": "<game id>", "ply": <your last ply>} or '
            '{"action": "subscribe", "tournament": "<tournament id>"}'
        ) from None
    return message


def _status(status: int) -> dict[str, Any]:
    return {"statusCode": int(status)}


def _reply(body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": 200, "body": json.dumps(body, separators=(",", ":"))}


# -- the fan-out ----------------------------------------------------------------------------------------------
def stream_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    now = _clock()
    tournaments = StoredTournamentViews(clock=now)
    return handle_stream(
        event, LiveService(DynamoLive(), StoredGameViews(clock=now), ApiGatewaySockets(), _pace(now), tournaments)
    )


def handle_stream(event: dict[str, Any], service: LiveService) -> dict[str, Any]:
    """The games and tournaments changed by a batch of the streams' records, each sent once to its followers.
    When the store cannot answer, every record is reported failed and the stream sends the batch again."""
    records = event.get("Records") or []
    try:
        service.fan_out(changed_games(filter(None, map(_game_event, records))))
        changed = dict.fromkeys(filter(None, map(tournament_changed, records)))  # once each, in order
        if changed:
            service.fan_out_tournaments(changed)
    except StoreUnavailable:
        logger.warning("live fan-out: store unavailable", extra={"records": len(records)})
        return {"batchItemFailures": [{"itemIdentifier": _sequence(record)} for record in records]}
    return {"batchItemFailures": []}


def _game_event(record: dict[str, Any]) -> tuple[str, int | None] | None:
    """(game id, the ply of a move or None) of a record that inserted an event item; None for any other."""
    data = record.get("dynamodb") or {}
    image = data.get("NewImage") or {}
    sort_key = str((image.get("sk") or {}).get("S", ""))
    if record.get("eventName") != "INSERT" or not sort_key.startswith("E") or "pk" not in image:
        return None
    kind = (image.get("kind") or {}).get("S")
    ply = (image.get("ply") or {}).get("N")
    return str(image["pk"]["S"]), int(ply) if kind == "move" and ply is not None else None


#: What a tournament's item may change without its view changing: the pairing wave's claim, the layout.
_UNSEEN = frozenset({"wave_at", "schema_version"})


def tournament_changed(record: dict[str, Any]) -> str | None:
    """The tournament whose view a record of the tournaments table changes (docs/tournaments.md's layout: the
    tournament item ``A``, a result ``R#<game>``, a game's link ``L`` when a pairing is made); None for any other
    record, and for a pairing wave's claim alone."""
    data = record.get("dynamodb") or {}
    image, old = data.get("NewImage") or {}, data.get("OldImage")
    pk, sk = (str((image.get(key) or {}).get("S", "")) for key in ("pk", "sk"))
    if record.get("eventName") not in ("INSERT", "MODIFY"):
        return None
    if pk.startswith("t#") and (sk == "A" or sk.startswith("R#")):
        if sk == "A" and old is not None and _without(old) == _without(image):
            return None
        return pk[2:]
    if pk.startswith("g#") and sk == "L":
        return str((image.get("tournament_id") or {}).get("S", "")) or None
    return None


def _without(image: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in image.items() if name not in _UNSEEN}


def _sequence(record: dict[str, Any]) -> str:
    return str((record.get("dynamodb") or {}).get("SequenceNumber", ""))
