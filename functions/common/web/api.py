"""The HTTP API resolver every function uses: Powertools' ``APIGatewayHttpResolver`` with validation on,
ubao's error contract (``common.web.errors``) and structured logs keyed by the request id.

A function only declares its routes, spelled exactly as in ``template.yaml``::

    app = Api()

    @app.post("/v1/games/{id}/moves")
    def play(id: str, request: MoveRequest) -> GameState: ...

    lambda_handler = app.lambda_handler

Every failure becomes ``{"error": {"code", "message"}}`` with the status ``common.web.errors`` documents.
Before routing, the handler checks what the resolver cannot: that a body says it is JSON (415), its size
(413), its base64 and UTF-8 (400), and that it is a JSON object (422 ``invalid_body``), so no malformed input
reaches a route or the 500 handler. After validation, an integer query parameter must be plain digits (422).
``Api.route`` reads each route's function once (``common.web.declared``): its success model goes into the
OpenAPI description, its integer query parameters into that check.

Only Powertools' public API: every request goes through its own validation and middleware chain, so a
Powertools release cannot break a route by renaming an internal (``tests/api/test_no_private_names.py``).
"""

from __future__ import annotations

import base64
import binascii
import inspect
import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError, ServiceError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.shared.json_encoder import Encoder

from common.errors import DomainError
from common.persistence import deadline
from common.ratelimit.repository import MemoryBuckets, default_buckets
from common.web import depends, snapstart
from common.web.declared import digits_only, documented_responses, integer_query_names
from common.web.edge import around_requests
from common.web.errors import (
    ERRORS,
    MAX_BODY_BYTES,
    RULES_ERROR_STATUS,
    ApiError,
    ErrorSpec,
    InvalidBody,
    InvalidJson,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
    error_body,
)
from common.web.etag import NotModified
from shared_rules.errors import RulesError

if TYPE_CHECKING:
    from common.web.routing import RouteTable

logger = Logger()  # service name and level from POWERTOOLS_SERVICE_NAME / POWERTOOLS_LOG_LEVEL
snapstart.register()  # every function's hooks for a restore from a SnapStart snapshot (common.web.snapstart)

JSON = "application/json"
_TEMPLATE_PARAM = re.compile(r"\{(\w+)\+?\}")
#: The parameters of Powertools' ``route`` by name, so ``Api.route`` can complete the ones it is given.
_ROUTE_OPTIONS = inspect.signature(APIGatewayHttpResolver.route)
#: How many validation problems one error message lists (the rest are summarised).
_MAX_LISTED_PROBLEMS = 3


class Api(APIGatewayHttpResolver):
    """A resolver whose routes use the template's ``{param}`` syntax and whose errors follow ubao's contract."""

    def __init__(self) -> None:
        super().__init__(
            debug=False,  # never a traceback in a response, whatever POWERTOOLS_DEV says
            enable_validation=True,
            # A response that breaks its own model is our bug: 500, not the 422 Powertools uses by default.
            response_validation_error_http_code=HTTPStatus.INTERNAL_SERVER_ERROR,
            json_body_deserializer=parse_json,
            serializer=_encode_json,
        )
        #: (METHOD, "/v1/path/{param}") for every route, as template.yaml spells them.
        self.declared_routes: list[tuple[str, str]] = []
        self._route_table: RouteTable[None] | None = None  # built on the first 404 or 405
        #: (METHOD, rule) -> the route's integer query parameters, accepted in digits only.
        self._integer_queries: dict[tuple[str, str], frozenset[str]] = {}
        self.use([self._strict_integers])
        self._register_error_handlers()
        # The rate limits' buckets when no table is named (the in-memory tier): this resolver's own, as a Lambda
        # instance keeps them for its process (``common.ratelimit.repository.default_buckets``).
        self.dependency_overrides[depends.rate_buckets] = partial(default_buckets, MemoryBuckets())
        # Every log line of a request carries its Lambda context and its API request id as correlation id, and
        # nothing of the last request (Powertools' own decorator around the whole handler).
        self.lambda_handler: Callable[[dict[str, Any], Any], dict[str, Any]] = logger.inject_lambda_context(
            correlation_id_path=correlation_paths.API_GATEWAY_HTTP, clear_state=True
        )(around_requests(self._handle_event))

    @classmethod
    def with_routers(cls, *routers: Any) -> Api:
        """A resolver with these routers' routes: a function's ``create_app()`` when it needs nothing more."""
        app = cls()
        for router in routers:
            app.include_router(router)
        return app

    # -- routes -----------------------------------------------------------------------------------------
    def route(self, rule: str, method: str | list[str] | tuple[str], *args: Any, **kwargs: Any) -> Any:
        methods = (method,) if isinstance(method, str) else tuple(method)
        self.declared_routes.extend((item.upper(), rule) for item in methods)
        self._route_table = None
        options = _ROUTE_OPTIONS.bind(self, rule, method, *args, **kwargs).arguments
        options.pop("self")

        def register(func: Callable[..., Any]) -> Any:
            # What the function declares: its success model for the OpenAPI description, its integer queries.
            options["responses"] = documented_responses(
                func,
                options.get("responses"),
                options.get("status_code", HTTPStatus.OK),
                options.get("response_description"),
            )
            for item in methods:
                self._integer_queries[(item.upper(), rule)] = integer_query_names(func, rule)
            # Powertools spells path parameters <id>; the template (and API Gateway) spell them {id}.
            options["rule"] = _TEMPLATE_PARAM.sub(r"<\1>", rule)
            return APIGatewayHttpResolver.route(self, **options)(func)

        return register

    def known_routes(self) -> Iterable[tuple[str, str]]:
        """The routes that decide between 404 and 405 (the fallback function widens this to every function's)."""
        return self.declared_routes

    # -- the event, before routing ----------------------------------------------------------------------
    def _handle_event(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        try:
            event = normalized_event(event)
        except ApiError as error:
            logger.info("request refused", extra={"status": error.status, "code": error.code})
            return raw_error_response(error)
        with deadline.request_clock(context):  # every store call of this request fits in the time it has
            return self.resolve(event, context)

    def _strict_integers(self, app: Any, next_middleware: Callable[[Any], Response[Any]]) -> Response[Any]:
        """Refuse an integer query parameter that is not plain digits (after validation, before the route)."""
        request = app.request
        names = self._integer_queries.get((request.method, request.route), frozenset())
        values = request.query_parameters or {}
        wrong = sorted(name for name in names if name in values and not digits_only(values[name]))
        if wrong:
            raise InvalidRequest("; ".join(f"query parameter {name}: give a whole number in digits" for name in wrong))
        return next_middleware(app)

    # -- errors -----------------------------------------------------------------------------------------
    def add_error_details(self, kind: type[Exception], details: Callable[[Any], dict[str, Any]]) -> None:
        """Add ``details(error)``'s fields beside ``error`` in the answer to a refusal of ``kind`` (a conflict's
        current game, say): the view of a domain value belongs to the function's edge, not to the domain."""
        self._error_details.append((kind, details))

    def _register_error_handlers(self) -> None:
        self._error_details: list[tuple[type[Exception], Callable[[Any], dict[str, Any]]]] = []
        self.exception_handler([DomainError, RulesError])(self._refusal)
        self.exception_handler(NotModified)(_not_modified)
        self.exception_handler(RequestValidationError)(self._request_validation_error)
        self.exception_handler(RequestUnsupportedContentType)(self._unsupported_content_type)
        self.exception_handler(ServiceError)(self._service_error)
        self.exception_handler(ResponseValidationError)(self._bug)
        self.exception_handler(Exception)(self._bug)
        self.not_found(self._not_found)

    def _refusal(self, error: DomainError | RulesError) -> Response[Any]:
        """The one answer to every refusal: the status ``ERRORS`` gives its code, the body, the headers."""
        spec = ERRORS.get(error.code)
        if spec is None:  # a code missing from the table is our bug (tests/api/test_error_table.py)
            return self._bug(error)
        status, headers = refusal_status_and_headers(error, spec)
        message, reason = getattr(error, "message", str(error)), getattr(error, "reason", None)
        body: dict[str, Any] = error_body(error.code, message, reason)
        for kind, details in self._error_details:
            if isinstance(error, kind):
                body.update(details(error))
        logger.info("request refused", extra={"status": status, "code": error.code})
        return Response(status_code=status, content_type=JSON, body=body, headers=headers or None)

    def _request_validation_error(self, error: RequestValidationError) -> Response[Any]:
        return self._refusal(api_error_from_validation(error.errors()))

    def _unsupported_content_type(self, error: RequestUnsupportedContentType) -> Response[Any]:
        # Unreachable while normalized_event() refuses every other type; kept so a change there fails safe.
        return self._refusal(UnsupportedMediaType(f"send the body with Content-Type: {JSON}"))

    def _service_error(self, error: ServiceError) -> Response[Any]:
        # Powertools' own HTTP errors (BadRequestError...): none of ours raises one; named by the status phrase.
        status = HTTPStatus(error.status_code)
        code = status.phrase.lower().replace(" ", "_").replace("-", "_")
        logger.info("request refused", extra={"status": int(status), "code": code})
        return error_response(status, code, str(error.msg))

    def _not_found(self, _: NotFoundError) -> Response[Any]:
        method, path = self.current_event.http_method.upper(), self.current_event.path
        if self._route_table is None:  # built on the first miss, from every route known by then
            try:
                from common.web.routing import RouteTable
            except ImportError:  # werkzeug ships with the fallback only: no other function is sent a path it lacks
                return self._refusal(NotFound(f"there is no {path} in this API"))
            self._route_table = RouteTable((verb, rule, None) for verb, rule in self.known_routes())
        allowed = sorted(self._route_table.methods_at(path))
        if allowed:
            refusal: ApiError = MethodNotAllowed(
                f"{method} is not allowed on {path}; use {', '.join(allowed)}", headers={"Allow": ", ".join(allowed)}
            )
        else:
            refusal = NotFound(f"there is no {path} in this API")
        return self._refusal(refusal)

    def _bug(self, error: Exception) -> Response[Any]:
        request_id = self.current_event.request_context.request_id
        logger.exception("unexpected error", extra={"error_type": type(error).__name__})
        return error_response(
            HTTPStatus.INTERNAL_SERVER_ERROR,
            "internal_error",
            f"something went wrong on our side; it has been logged (request {request_id})",
        )


def _not_modified(answer: NotModified) -> Response[str]:
    return Response(HTTPStatus.NOT_MODIFIED, None, "", headers=answer.headers)


def refusal_status_and_headers(error: DomainError | RulesError, spec: ErrorSpec) -> tuple[int, dict[str, str]]:
    """A refusal's status (the table's; 422 for a refused move; an edge error's own) and response headers."""
    if isinstance(error, ApiError):
        status = error.status
    elif isinstance(error, RulesError) or getattr(error, "refused_move", False):
        status = RULES_ERROR_STATUS
    else:
        status = int(spec.status)
    headers = dict(spec.headers)
    if isinstance(error, ApiError):
        headers.update(error.headers)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return int(status), headers


#: Powertools' serializer (``json.dumps(..., separators=(",", ":"), cls=Encoder)``) with one encoder for all,
#: passed through the resolver's public ``serializer`` argument.
_encode_json = Encoder(separators=(",", ":")).encode


# -- pieces also used by the local runner and the fallback function -----------------------------------------
def parse_json(text: str) -> Any:
    """Strict JSON: every failure (including NaN, huge integers, deep nesting) is a ``JSONDecodeError``."""
    try:
        if isinstance(text, str) and not text.startswith("\ufeff"):
            return _JSON_DECODER.decode(text)  # what json.loads does, without a new decoder per call
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("the JSON is nested too deeply", text, 0) from None
    except ValueError as error:  # int too long for Python, or a NaN/Infinity we refused
        raise json.JSONDecodeError(str(error), text, 0) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_JSON_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def normalized_event(event: dict[str, Any]) -> dict[str, Any]:
    """The event with its body as checked UTF-8 text, at most 64 KiB, sent as JSON, holding a JSON object;
    raises ``ApiError``. An empty body is no body."""
    body = event.get("body")
    if not body:
        return event
    headers = event.get("headers") or {}
    _require_json_media_type(headers)
    if event.get("isBase64Encoded"):
        # Base64 is 4/3 the size of its bytes: refuse clearly oversized bodies before decoding them.
        if len(body) > (MAX_BODY_BYTES + 2) // 3 * 4 + 4:
            raise _too_large()
        try:
            raw = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidJson("the body is marked base64 but is not valid base64") from None
        if len(raw) > MAX_BODY_BYTES:
            raise _too_large()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidJson("the body is not UTF-8 text") from None
    else:
        text = body
        # A character is at least one byte: the cheap length test settles most bodies before encoding.
        if len(text) > MAX_BODY_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BODY_BYTES:
            raise _too_large()
    _require_object(text)
    return {**event, "body": text, "isBase64Encoded": False, "headers": {**headers, "content-type": JSON}}


def _require_json_media_type(headers: dict[str, str]) -> None:
    """A body must say it is JSON. A browser sends a cross-site ``text/plain`` or form POST without asking the
    server first (no CORS preflight); refusing every other type keeps such a page from acting for a visitor."""
    declared = next((value for name, value in headers.items() if name.lower() == "content-type"), "")
    if declared.split(";", 1)[0].strip().lower() != JSON:
        shown = declared.split(";", 1)[0].strip()[:60] or "none"
        raise UnsupportedMediaType(f"send the body with Content-Type: {JSON} (it says {shown})")


def _require_object(text: str) -> None:
    """Every request body of the API is a JSON object. Powertools would read the first element of a top-level
    array as the body (the rest ignored), so anything else is refused here: 422 when it is JSON, 400 when not.
    Only a body that does not start like an object is parsed here; the resolver parses the others."""
    if text.lstrip(" \t\n\r").startswith("{"):
        return
    try:
        value = parse_json(text)
    except json.JSONDecodeError as error:
        raise InvalidJson(f"the body is not valid JSON: {error.msg}") from None
    raise InvalidBody(f"the body must be a JSON object, not {_json_kind(value)}")


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    return "null" if value is None else "a number"


def _too_large() -> PayloadTooLarge:
    return PayloadTooLarge(f"the body is over {MAX_BODY_BYTES // 1024} KiB")


def api_error_from_validation(problems: Sequence[Any]) -> ApiError:
    """One clear error from Powertools/pydantic validation problems: which field, what is wrong."""
    for problem in problems:
        if problem.get("type") == "json_invalid":
            detail = (problem.get("ctx") or {}).get("error") or "JSON decode error"
            return InvalidJson(f"the body is not valid JSON: {detail}")
    described = [_describe(problem) for problem in problems]
    message = "; ".join(described[:_MAX_LISTED_PROBLEMS])
    if len(described) > _MAX_LISTED_PROBLEMS:
        message += f" (and {len(described) - _MAX_LISTED_PROBLEMS} more)"
    return InvalidRequest(message or "the request does not match the API")


def _describe(problem: dict[str, Any]) -> str:
    loc = tuple(problem.get("loc") or ("body",))
    if loc == ("body",):  # the body as a whole
        if problem.get("type") == "missing":
            return "the body is empty; send a JSON object"
        return "the body must be a JSON object"
    return f"{_field_name(loc)}: {problem.get('msg', 'invalid')}"


def _field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    """("body", "moves", 3) -> "moves[3]"; ("query", "game") -> "query parameter game"."""
    source, *path = loc or ("body",)
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    if source == "body":
        return name or "body"
    return f"{source} parameter {name}" if name else str(source)


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, reason: str | None = None
) -> Response[Any]:
    body = error_body(code, message, reason)
    return Response(status_code=int(status), content_type=JSON, body=body, headers=headers)


def raw_error_response(error: ApiError) -> dict[str, Any]:
    """The payload-2.0 response for an error found before the resolver runs."""
    return {
        "statusCode": int(error.status),
        "headers": {"Content-Type": JSON, **error.headers},
        "body": json.dumps(error_body(error.code, error.message), separators=(",", ":")),
        "isBase64Encoded": False,
        "cookies": [],
    }
