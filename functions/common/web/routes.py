"""A unit's routes: Powertools' router (``APIGatewayHttpRouter``) with the unit's OpenAPI tag given once.

Each route module makes one, ``router = Routes("clubs")``; a route names ``tags`` only when it belongs under
another tag (a games route listed with the players'). The function's ``create_app()`` includes it as any router.
"""

import inspect
from typing import Any

from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

#: The parameters of Powertools' ``route`` by name: ``get``, ``post``... pass every one of them by position.
_ROUTE_OPTIONS = inspect.signature(APIGatewayHttpRouter.route)


class Routes(APIGatewayHttpRouter):
    """A router whose routes are listed under ``tag`` unless they name their own ``tags``."""

    def __init__(self, tag: str) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # Powertools' Router.__init__ is unannotated
        self.tag = tag

    def route(self, rule: str, method: str | list[str] | tuple[str], *args: Any, **kwargs: Any) -> Any:
        options = _ROUTE_OPTIONS.bind(self, rule, method, *args, **kwargs).arguments
        options.pop("self")
        options["tags"] = options.get("tags") or [self.tag]
        return super().route(**options)
