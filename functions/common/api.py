"""The HTTP API resolver every function uses: Powertools' ``APIGatewayHttpResolver`` with validation on,
ubao's error contract (``common.errors``) and structured logs keyed by the request id.

A function only declares its routes, spelled exactly as in ``template.yaml``::

    app = Api()

    @app.post("/v1/games/{id}/moves")
    def play(id: str, request: MoveRequest) -> GameState: ...

    lambda_handler = app.lambda_handler

Every failure becomes ``{"error": {"code", "message"}}`` with the status ``common.errors`` documents.
Before routing, the handler checks what the resolver cannot: the body's size (413), its base64 and
UTF-8 (400), so no malformed input reaches a route or the 500 handler.

Speed: a route whose parameters are only path parameters and a JSON body (most of ours) skips Powertools'
middleware chain and runs the same validation steps directly (``Api._call_route``); see ``Api.direct_routes``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.api_gateway import ResponseBuilder, Route, _find_request_param_name
from aws_lambda_powertools.event_handler.exceptions import NotFoundError, ServiceError
from aws_lambda_powertools.event_handler.middlewares import openapi_validation as validation
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.shared.json_encoder import Encoder

from common import deadline
from common.deadline import StoreUnavailable
from common.errors import (
    MAX_BODY_BYTES,
    RULES_ERROR_STATUS,
    ApiError,
    InvalidJson,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    error_body,
)
from shared_rules.errors import RulesError

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.openapi.compat import ModelField

logger = Logger()  # service name and level from POWERTOOLS_SERVICE_NAME / POWERTOOLS_LOG_LEVEL

JSON = "application/json"
_TEMPLATE_PARAM = re.compile(r"\{(\w+)\+?\}")
#: How many validation problems one error message lists (the rest are summarised).
_MAX_LISTED_PROBLEMS = 3


class Api(APIGatewayHttpResolver):
    """A resolver whose routes use the template's ``{param}`` syntax and whose errors follow ubao's contract."""

    #: Call a route that takes only path parameters and a JSON body directly (``_call_route``) rather than
    #: through Powertools' middleware chain. Same validation, same answers (tests/api/test_direct_routes.py
    #: compares the two ways); 0.1 to 0.2 ms less per request, more than the rules work of a draughts move.
    direct_routes: bool = True

    def __init__(self) -> None:
        super().__init__(
            debug=False,  # never a traceback in a response, whatever POWERTOOLS_DEV says
            enable_validation=True,
            # A response that breaks its own model is our bug: 500, not the 422 Powertools uses by default.
            response_validation_error_http_code=HTTPStatus.INTERNAL_SERVER_ERROR,
            json_body_deserializer=parse_json,
        )
        # Powertools' own serializer (json.dumps with its Encoder) builds a new encoder on every call.
        self._serializer = _encode_json
        # The same responses, without parsing every request header to decide on compression we never enable.
        self._response_builder_class = _ResponseBuilder
        #: (METHOD, "/v1/path/{param}") for every route, as template.yaml spells them.
        self.declared_routes: list[tuple[str, str]] = []
        self._register_error_handlers()
        self.lambda_handler: Callable[[dict, Any], dict] = self._handle_event

    # -- routes -----------------------------------------------------------------------------------------
    def route(self, rule: str, method: str | list[str] | tuple[str], *args: Any, **kwargs: Any):
        methods = (method,) if isinstance(method, str) else tuple(method)
        self.declared_routes.extend((item.upper(), rule) for item in methods)
        # Powertools spells path parameters <id>; the template (and API Gateway) spell them {id}.
        return super().route(_TEMPLATE_PARAM.sub(r"<\1>", rule), method, *args, **kwargs)

    def known_routes(self) -> Iterable[tuple[str, str]]:
        """The routes that decide between 404 and 405 (the fallback function widens this to every function's)."""
        return self.declared_routes

    # -- the event, before routing ----------------------------------------------------------------------
    def _handle_event(self, event: dict, context: Any) -> dict:
        bind_logs_to_request(event, context)
        try:
            event = normalized_event(event)
        except ApiError as error:
            _log_refusal(error)
            return raw_error_response(error)
        with deadline.request_clock(context):  # every store call of this request fits in the time it has
            return self.resolve(event, context)

    # -- calling a route --------------------------------------------------------------------------------
    def _call_route(self, route: Route, route_arguments: dict[str, str]) -> ResponseBuilder:
        """Powertools' ``_call_route``, without its middleware chain for a route ``_DirectRoute`` can serve.

        With validation on, Powertools runs every route through three middleware frames: request
        validation, response validation and an adapter. The request frame builds case-insensitive copies
        of the headers, query string and cookies for every request, and inspects the body parameter's
        type on every request; the adapter formats the validated request into a debug message that is
        never logged. For a route without query, header or cookie parameters those steps add nothing, so
        here the same steps run directly: path parameters and body validated by the ``ModelField`` of
        Powertools' dependant, errors raised as the same ``RequestValidationError``, the response
        validated and serialized by Powertools' own response middleware, every exception through the
        same exception handlers. Anything else (query or header parameters, ``Depends``, an injected
        ``Request``, middlewares, debug mode) takes Powertools' path unchanged.
        """
        direct = None
        if self.direct_routes and not (self._debug or self._router_middlewares):
            direct = _DirectRoute.of(route)
        if direct is None:
            return super()._call_route(route, route_arguments)
        try:
            self._reset_processed_stack()
            arguments = direct.validated_arguments(self, route_arguments)
            self.append_context(_route_args=arguments)
            response = self._to_response(route.func(**arguments))
            response = self._response_validation_middleware._handle_response(route=route, response=response)
            return self._response_builder_class(response=response, serializer=self._serializer, route=route)
        except Exception as error:
            handled = self._call_exception_handler(error, route)
            if handled is not None:
                return handled
            raise

    # -- errors -----------------------------------------------------------------------------------------
    def _register_error_handlers(self) -> None:
        self.exception_handler(ApiError)(self._api_error)
        self.exception_handler(StoreUnavailable)(self._store_unavailable)
        self.exception_handler(RulesError)(self._rules_error)
        self.exception_handler(RequestValidationError)(self._request_validation_error)
        self.exception_handler(RequestUnsupportedContentType)(self._unsupported_content_type)
        self.exception_handler(ServiceError)(self._service_error)
        self.exception_handler(ResponseValidationError)(self._bug)
        self.exception_handler(Exception)(self._bug)
        self.not_found(self._not_found)

    def _api_error(self, error: ApiError) -> Response:
        _log_refusal(error)
        return error_response(error.status, error.code, error.message, error.headers)

    def _store_unavailable(self, error: StoreUnavailable) -> Response:
        return self._api_error(
            ApiError(
                error.message,
                status=HTTPStatus.SERVICE_UNAVAILABLE,
                code="store_unavailable",
                headers={"Retry-After": str(error.retry_after)},
            )
        )

    def _rules_error(self, error: RulesError) -> Response:
        logger.info("rules refused the request", extra={"code": error.code})
        return error_response(RULES_ERROR_STATUS, error.code, str(error), reason=getattr(error, "reason", None))

    def _request_validation_error(self, error: RequestValidationError) -> Response:
        return self._api_error(api_error_from_validation(error.errors()))

    def _unsupported_content_type(self, error: RequestUnsupportedContentType) -> Response:
        # Unreachable while normalized_event() labels every body as JSON; kept so a change there fails safe.
        return self._api_error(
            ApiError("send the body as JSON", status=HTTPStatus.UNSUPPORTED_MEDIA_TYPE, code="unsupported_media_type")
        )

    def _service_error(self, error: ServiceError) -> Response:
        status = HTTPStatus(error.status_code)
        code = status.phrase.lower().replace(" ", "_").replace("-", "_")
        return self._api_error(ApiError(str(error.msg), status=status, code=code))

    def _not_found(self, _: NotFoundError) -> Response:
        method, path = self.current_event.http_method.upper(), self.current_event.path
        allowed = sorted({verb for verb, rule in self.known_routes() if rule_matches(rule, path)})
        if allowed:
            refusal: ApiError = MethodNotAllowed(
                f"{method} is not allowed on {path}; use {', '.join(allowed)}", headers={"Allow": ", ".join(allowed)}
            )
        else:
            refusal = NotFound(f"there is no {path} in this API")
        return self._api_error(refusal)

    def _bug(self, error: Exception) -> Response:
        request_id = self.current_event.request_context.request_id
        logger.exception("unexpected error", extra={"error_type": type(error).__name__})
        return error_response(
            HTTPStatus.INTERNAL_SERVER_ERROR,
            "internal_error",
            f"something went wrong on our side; it has been logged (request {request_id})",
        )


class _DirectRoute:
    """What ``Api._call_route`` needs to validate a route's arguments itself, worked out once per route."""

    __slots__ = ("path_params", "body_params", "body", "body_takes_a_list")

    def __init__(self, route: Route) -> None:
        dependant = route.dependant
        self.path_params: list[ModelField] = dependant.path_params
        self.body_params: list[ModelField] = dependant.body_params
        single = self.body_params[0] if len(self.body_params) == 1 else None
        #: The one body parameter, which Powertools feeds the whole body (not embedded under its name).
        self.body: ModelField | None = None if single is None or getattr(single.field_info, "embed", None) else single
        # Powertools asks this of the body's type on every request (it decides whether a list body is
        # unwrapped to its first item); the answer depends on the type alone.
        self.body_takes_a_list = self.body is not None and validation._is_or_contains_sequence(
            self.body.field_info.annotation
        )

    @staticmethod
    def of(route: Route) -> _DirectRoute | None:
        """The plan for ``route``, or None when only Powertools' middleware chain does what the route needs."""
        try:
            return route.__dict__["_ubao_direct"]
        except KeyError:
            pass
        direct = None
        if route.enable_validation is not False and not route.middlewares and not route.has_dependencies:
            dependant = route.dependant
            if not (dependant.query_params or dependant.header_params or dependant.cookie_params) and (
                _find_request_param_name(route.func) is None
            ):
                direct = _DirectRoute(route)
        route.__dict__["_ubao_direct"] = direct  # kept on the route: the 404 route is new on every request
        return direct

    def validated_arguments(self, app: Api, route_arguments: dict[str, str]) -> dict[str, Any]:
        """The route's keyword arguments, validated as Powertools' request validation middleware does."""
        values, errors = validation._request_params_to_args(self.path_params, route_arguments)
        if self.body_params:
            received = _request_body(app)
            if self.body is None:
                body_values, body_errors = validation._request_body_to_args(
                    required_params=self.body_params, received_body=received
                )
                values.update(body_values)
                errors.extend(body_errors)
            elif received is None:
                validation._handle_missing_field_value(self.body, values, errors, ("body",))
            else:
                if isinstance(received, list) and received and not self.body_takes_a_list:
                    received = received[0]
                values[self.body.name] = validation._validate_field(
                    field=self.body, value=received, loc=("body",), existing_errors=errors
                )
        if errors:
            raise RequestValidationError(validation._normalize_errors(errors))
        return values


def _request_body(app: Api) -> Any:
    """The parsed body, as Powertools' request validation reads it, without copying every header to find one."""
    content_type = ""
    for name, value in (app.current_event.get("headers") or {}).items():
        if name.lower() == "content-type":  # the last one wins, as in Powertools' case-insensitive dict
            content_type = value
    content_type = content_type.strip()
    middleware = app._request_validation_middleware
    if not content_type or content_type.startswith(JSON):
        text = app.current_event.get("body")
        if not text or app.current_event.get("isBase64Encoded"):
            return middleware._parse_json_data(app)
        # What _parse_json_data does through the event's cached properties, straight from the event.
        try:
            return app._json_body_deserializer(text)
        except json.JSONDecodeError as error:
            problem = {"type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error", "input": {}}
            raise RequestValidationError([{**problem, "ctx": {"error": error.msg}}], body=error.doc) from error
    return middleware._get_body(app)


class _ResponseBuilder(ResponseBuilder):
    @staticmethod
    def _has_compression_enabled(route_compression: bool, response_compression: bool | None, event: Any) -> bool:
        # Powertools reads Accept-Encoding first (a case-insensitive copy of every header); the answer is
        # no whatever it says unless the route or the response asks for compression.
        if not (response_compression or (response_compression is None and route_compression)):
            return False
        return ResponseBuilder._has_compression_enabled(route_compression, response_compression, event)


#: Powertools' serializer (``json.dumps(..., separators=(",", ":"), cls=Encoder)``) with one encoder for all.
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


def normalized_event(event: dict) -> dict:
    """The event with its body as checked UTF-8 text, at most 64 KiB, labelled JSON; raises ``ApiError``."""
    body = event.get("body")
    if body is None:
        return event
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
    # The API speaks only JSON, so a body sent as text/plain or form-encoded (curl -d) is read as JSON
    # too, and a mistake in it gets a JSON error instead of a confusing form-field one.
    headers = {**(event.get("headers") or {}), "content-type": JSON}
    return {**event, "body": text, "isBase64Encoded": False, "headers": headers}


def _too_large() -> PayloadTooLarge:
    return PayloadTooLarge(f"the body is over {MAX_BODY_BYTES // 1024} KiB")


def api_error_from_validation(problems: list[dict]) -> ApiError:
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


def _describe(problem: dict) -> str:
    loc = tuple(problem.get("loc") or ("body",))
    if loc == ("body",):  # the body as a whole
        if problem.get("type") == "missing":
            return "the body is empty; send a JSON object"
        return "the body must be a JSON object"
    return f"{_field_name(loc)}: {problem.get('msg', 'invalid')}"


def _field_name(loc: tuple | list) -> str:
    """("body", "moves", 3) -> "moves[3]"; ("query", "game") -> "query parameter game"."""
    source, *path = loc or ("body",)
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    if source == "body":
        return name or "body"
    return f"{source} parameter {name}" if name else str(source)


def rule_matches(rule: str, path: str) -> bool:
    """Whether ``path`` matches a template route such as ``/v1/games/{id}`` (``{proxy+}`` spans segments)."""
    return _rule_regex(rule).fullmatch(path) is not None


_RULE_CACHE: dict[str, re.Pattern] = {}


def _rule_regex(rule: str) -> re.Pattern:
    pattern = _RULE_CACHE.get(rule)
    if pattern is None:
        parts = re.split(r"(\{\w+\+?\})", rule)
        regex = "".join(
            (".+" if part.endswith("+}") else "[^/]+") if part.startswith("{") else re.escape(part) for part in parts
        )
        pattern = _RULE_CACHE[rule] = re.compile(regex)
    return pattern


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, reason: str | None = None
) -> Response:
    body = error_body(code, message, reason)
    return Response(status_code=int(status), content_type=JSON, body=body, headers=headers)


def raw_error_response(error: ApiError) -> dict:
    """The payload-2.0 response for an error found before the resolver runs."""
    return {
        "statusCode": int(error.status),
        "headers": {"Content-Type": JSON, **error.headers},
        "body": json.dumps(error_body(error.code, error.message), separators=(",", ":")),
        "isBase64Encoded": False,
        "cookies": [],
    }


_cold_start = True


def bind_logs_to_request(event: dict, context: Any) -> None:
    """Every log line of this request carries its API request id as correlation id, and nothing of the last.

    What ``Logger.inject_lambda_context(correlation_id_path=API_GATEWAY_HTTP, clear_state=True)`` does,
    without its JMESPath query and context model. The keys are those ``logger.clear_state()`` then
    ``logger.append_keys(...)`` leave (a test checks it), set in one step on the formatter: ``clear_state``
    clears the formatter twice and looks its handler up four times, half the cost of this function.
    """
    global _cold_start
    formatter = logger.registered_formatter
    formatter.clear_state()
    formatter.thread_safe_clear_keys()
    formatter.append_keys(
        **logger._default_log_keys,  # service and sampling rate, as Logger.clear_state() puts them back
        correlation_id=(event.get("requestContext") or {}).get("requestId"),
        function_request_id=getattr(context, "aws_request_id", None),
        function_name=getattr(context, "function_name", None),
        cold_start=_cold_start,
    )
    _cold_start = False


def _log_refusal(error: ApiError) -> None:
    logger.info("request refused", extra={"status": int(error.status), "code": error.code})
