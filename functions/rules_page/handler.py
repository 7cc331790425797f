"""GET /v1/rules/{game}?lang= (RulesPageFunction in template.yaml): a Sheria page rendered on request.

The same page as the static site's /{lang}/sheria/{game}/, in the language ``lang`` names or, without it,
the best one of Accept-Language (sw, tl, en; Swahili by default). Cacheable: a page changes only with a
deployment, and ``If-None-Match`` answers 304.
"""

from __future__ import annotations

import os
import re
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from common.web.api import Api
from common.web.etag import refuse_if_current
from common.web.models import error_responses
from common.web.routes import Routes

from rules_page.service import choose_language, rules_page

HTML = "text/html; charset=utf-8"
# Browsers may keep a page an hour; CloudFront a day. Vary: the language may come from Accept-Language.
CACHE_HEADERS = {"Cache-Control": "public, max-age=3600, s-maxage=86400", "Vary": "Accept-Language"}

router = Routes("rules")


def _base_url(headers: dict[str, Any]) -> str:
    site = os.environ.get("SITE_URL", "")
    if site:
        return site.rstrip("/")
    host = headers.get("host", "")
    if not re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host):
        return ""
    local = host.startswith(("127.0.0.1", "localhost", "[::1]"))
    return f"{'http' if local else 'https'}://{host}"


@router.get(
    "/v1/rules/{game}",
    summary="A rules page",
    description="The rules of `game` (chess, english, tanzanian) as an HTML page in `lang` (sw, tl, en), or in "
    "the best language of Accept-Language; Swahili by default.",
    operation_id="rulesPage",
    responses={
        200: {"description": "The page.", "content": {"text/html": {"schema": {"type": "string"}}}},
        304: {"description": "Your copy is current."},
        **error_responses({404: "No such game.", 422: "`lang` is not sw, tl or en."}, 404, 422),
    },
)
def get_rules_page(game: str, lang: Annotated[str | None, Query(max_length=20)] = None) -> Response[str]:
    headers = router.current_event.headers or {}
    page = rules_page(game, choose_language(lang, headers.get("accept-language")), _base_url(headers))
    response_headers = {**CACHE_HEADERS, "ETag": page.etag, "Content-Language": page.lang}
    refuse_if_current(headers, response_headers)
    return Response(HTTPStatus.OK, HTML, page.html, headers=response_headers)


def create_app() -> Api:
    """The resolver with this function's routes (one per process on Lambda; tests may make more)."""
    return Api.with_routers(router)


app = create_app()
lambda_handler = app.lambda_handler
