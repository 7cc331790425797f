"""ApiFallbackFunction: API Gateway sends here every /v1 request that matches no other route.

It answers in the API's error shape: 405 (with ``Allow``) when another function serves the path with other
methods, 404 otherwise, the route chosen by Powertools' resolver over the template's routes
(``common.web.routing``). Deployed, it reads those routes from ``routes.json``, which ``make package`` writes
beside it from template.yaml; in the repository (``make run``, the tests) it reads template.yaml itself
through ``local.template``. Either way it imports no other function, and there is no second route list.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from common.web.api import Api

ROUTE_TABLE = Path(__file__).resolve().parent / "routes.json"
HANDLER = f"{__name__}.lambda_handler"


class FallbackApi(Api):
    """An Api with no routes of its own, deciding 404 against 405 from every function's routes."""

    def known_routes(self) -> tuple[tuple[str, str], ...]:
        return all_routes()


@cache
def all_routes() -> tuple[tuple[str, str], ...]:
    """(METHOD, path) of every route of the template but this function's own (read once)."""
    if ROUTE_TABLE.is_file():
        return tuple((method, path) for method, path in json.loads(ROUTE_TABLE.read_text(encoding="utf-8")))
    from local.template import Template  # the repository's template.yaml (never deployed: routes.json is)

    template = Template()
    own = {name for name, function in template.functions.items() if function.handler == HANDLER}
    return tuple(sorted({(route.method, route.path) for route in template.routes if route.function not in own}))


app = FallbackApi()
lambda_handler = app.lambda_handler
