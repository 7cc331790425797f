"""Which route of a route table serves a request, as Powertools' resolver chooses it: the local runner (which
function the template routes a request to) and the 404-or-405 answer of every function ask this, so no code
of ours matches paths.

The table's routes are template routes, ``(METHOD or "ANY", "/v1/games/{id}", value)``. API Gateway picks the
most specific route: a path without parameters, then the one with the most literal segments, a greedy
``{proxy+}`` last. Powertools tries paths without parameters first, then the others in the order they were
added; the table adds them in API Gateway's order and keeps the greedy ones in a second resolver asked last,
so both choose alike.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar
from urllib.parse import unquote

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.event_handler.api_gateway import BaseRouter

T = TypeVar("T")

#: The methods an ``ANY`` route accepts, and those a 405 can list.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
_PARAMETER = re.compile(r"\{(\w+)\}")
#: What Powertools' ``resolve`` sets on ``BaseRouter`` itself, for every resolver of the process at once.
_PROCESS_WIDE = ("current_event", "lambda_context")
_UNSET = object()


class RouteTable(Generic[T]):
    """``find(method, path)``: the value of the route API Gateway would pick, and its path parameters."""

    def __init__(self, routes: Iterable[tuple[str, str, T]]):
        self._specific = APIGatewayHttpResolver()
        self._greedy = APIGatewayHttpResolver()
        self._found: threading.local = threading.local()
        self._methods: set[str] = set()
        for method, path, value in sorted(routes, key=lambda route: _specificity(route[1]), reverse=True):
            methods = list(METHODS) if method == "ANY" else [method]
            self._methods.update(methods)
            resolver = self._greedy if _greedy_prefix(path) is not None else self._specific
            resolver.route(_powertools_rule(path), methods)(self._recorder(path, value))

    def find(self, method: str, path: str) -> tuple[T, dict[str, str]] | None:
        event = {
            "version": "2.0",
            "rawPath": path,
            "rawQueryString": "",
            "headers": {},
            "requestContext": {
                "http": {"method": method.upper(), "path": path},
                "requestId": "route",
                "stage": "$default",
            },
            "isBase64Encoded": False,
        }
        # Resolving sets the event every resolver of the process reads (``BaseRouter.current_event``, one per
        # process): a function that asks during its own request (a 404 or 405) gets its own event back after.
        saved = {name: getattr(BaseRouter, name, _UNSET) for name in _PROCESS_WIDE}
        try:
            for resolver in (self._specific, self._greedy):
                self._found.value = None
                resolver.resolve(event, None)  # type: ignore[arg-type]  # a lookup has no Lambda context
                found: tuple[T, dict[str, str]] | None = self._found.value
                if found is not None:
                    return found
            return None
        finally:
            for name, value in saved.items():
                if value is not _UNSET:
                    setattr(BaseRouter, name, value)
                elif name in vars(BaseRouter):
                    delattr(BaseRouter, name)

    def methods_at(self, path: str) -> list[str]:
        """The methods some route serves at ``path`` (for a 405's ``Allow``)."""
        return [method for method in METHODS if method in self._methods and self.find(method, path) is not None]

    def _recorder(self, path: str, value: T) -> Callable[..., dict[str, Any]]:
        greedy = _greedy_prefix(path)

        def found(**parameters: str) -> dict[str, Any]:
            if greedy is not None:
                name, prefix = greedy
                parameters = {name: self._current_path()[len(prefix) :]}
            # API Gateway passes path parameters decoded.
            self._found.value = (value, {name: unquote(text) for name, text in parameters.items()})
            return {}

        return found

    def _current_path(self) -> str:
        return str(self._greedy.current_event.path)


def _specificity(path: str) -> tuple[bool, int]:
    literal = sum(1 for part in path.split("/") if part and not part.startswith("{"))
    return (_greedy_prefix(path) is None, literal)


def _greedy_prefix(path: str) -> tuple[str, str] | None:
    """("proxy", "/v1/") for "/v1/{proxy+}"; None for a path without a greedy parameter."""
    match = re.fullmatch(r"(.*/)\{(\w+)\+\}", path)
    return (match.group(2), match.group(1)) if match else None


def _powertools_rule(path: str) -> str:
    """The template's ``{id}`` as Powertools spells it (``<id>``); a greedy ``{proxy+}`` as a regex."""
    greedy = _greedy_prefix(path)
    if greedy is not None:
        return re.escape(greedy[1]) + ".+"
    return _PARAMETER.sub(r"<\1>", path)
