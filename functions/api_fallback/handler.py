"""ApiFallbackFunction: API Gateway sends here every /v1 request that matches no other route.

It answers in the API's error shape: 405 (with ``Allow``) when another function serves the path with other
methods, 404 otherwise. Deployed, it reads the template's routes from ``routes.json``, which ``make package``
writes beside it from template.yaml (its package holds no other function's code); in the repository it
learns them from the handlers themselves. Either way there is no second route list to keep in step.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path

from common.api import Api

FUNCTIONS_DIR = Path(__file__).resolve().parent.parent
ROUTE_TABLE = Path(__file__).resolve().parent / "routes.json"


class FallbackApi(Api):
    """An Api with no routes of its own, deciding 404 against 405 from every function's routes."""

    def known_routes(self) -> tuple[tuple[str, str], ...]:
        return all_routes()


@cache
def all_routes() -> tuple[tuple[str, str], ...]:
    """(METHOD, path) of every route every function declares (imported once, on the first request)."""
    if ROUTE_TABLE.is_file():
        return tuple((method, path) for method, path in json.loads(ROUTE_TABLE.read_text(encoding="utf-8")))
    routes: list[tuple[str, str]] = []
    for handler in sorted(FUNCTIONS_DIR.glob("*/handler.py")):
        package = handler.parent.name
        if package == Path(__file__).parent.name:
            continue
        module = importlib.import_module(f"{package}.handler")
        app = getattr(module, "app", None)
        if isinstance(app, Api):
            routes.extend(app.declared_routes)
    return tuple(routes)


app = FallbackApi()
lambda_handler = app.lambda_handler
