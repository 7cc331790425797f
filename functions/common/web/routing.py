"""Which route of a route table serves a request, as API Gateway chooses it, with werkzeug's routing: the local
runner (which function the template routes a request to) and the 404-or-405 answer of every function ask this,
so no code of ours matches paths, and no lookup touches Powertools' resolvers (whose ``current_event`` is one
per process: a lookup made during a request would replace that request's event).

The table's routes are template routes, ``(METHOD or "ANY", "/v1/games/{id}", value)``. API Gateway picks the
most specific route: a path without parameters, then the one with the most literal segments, a greedy
``{proxy+}`` last; werkzeug's matcher prefers literal segments to parameters and a ``path`` parameter last,
so both choose alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Generic, TypeVar
from urllib.parse import unquote

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, RequestRedirect, Rule

T = TypeVar("T")

#: The methods an ``ANY`` route accepts, and those a 405 can list.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
_PARAMETER = re.compile(r"\{(\w+)\}")
_GREEDY = re.compile(r"\{(\w+)\+\}")
#: werkzeug lets every GET rule answer HEAD too; API Gateway routes HEAD only where a route declares it. Methods
#: are given to werkzeug under this prefix, which it does not know, so each rule matches exactly its own.
_VERB = "ROUTE-"


class RouteTable(Generic[T]):
    """``find(method, path)``: the value of the route API Gateway would pick, and its path parameters."""

    def __init__(self, routes: Iterable[tuple[str, str, T]]):
        self._values: list[T] = []
        rules = []
        for method, path, value in routes:
            methods = METHODS if method == "ANY" else (method.upper(),)
            rules.append(Rule(_werkzeug_rule(path), methods=[_VERB + m for m in methods], endpoint=len(self._values)))
            self._values.append(value)
        # merge_slashes off: "/v1//games" is not "/v1/games" to API Gateway either.
        self._routes = Map(rules, merge_slashes=False).bind("api")

    def find(self, method: str, path: str) -> tuple[T, dict[str, str]] | None:
        try:
            index, parameters = self._routes.match(path, method=_VERB + method.upper())
        except (NotFound, MethodNotAllowed, RequestRedirect):
            return None
        # API Gateway passes path parameters decoded.
        return self._values[index], {name: unquote(text) for name, text in parameters.items()}

    def methods_at(self, path: str) -> list[str]:
        """The methods some route serves at ``path`` (for a 405's ``Allow``)."""
        return [method for method in METHODS if self.find(method, path) is not None]


def _werkzeug_rule(path: str) -> str:
    """The template's ``{id}`` as werkzeug spells it (``<id>``); a greedy ``{proxy+}`` as ``<path:proxy>``."""
    return _PARAMETER.sub(r"<\1>", _GREEDY.sub(r"<path:\1>", path))
