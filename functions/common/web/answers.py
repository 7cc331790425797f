"""A JSON route's answer in one spelling: its body, its status, and what a cache may do with it.

A player's own data and every write's answer are kept by no cache (``no_store``); a public read says how long a
shared cache keeps it (``answer(body, "public, max-age=60")``). A write that finds what it would make (a retry, a
second join) answers 200 where the one that made it answered 201 (``created_if``).
"""

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any, TypeVar

from aws_lambda_powertools.event_handler import Response

from common.web.etag import etag_of, refuse_if_current

JSON = "application/json"
NO_STORE = "no-store"

BodyT = TypeVar("BodyT")


def answer(
    body: BodyT, cache: str, status: int = HTTPStatus.OK, headers: Mapping[str, str] | None = None
) -> Response[BodyT]:
    """``body`` as JSON with ``Cache-Control: <cache>`` and any other ``headers``."""
    return Response(status, JSON, body, headers={"Cache-Control": cache, **(headers or {})})


def no_store(body: BodyT, status: int = HTTPStatus.OK, headers: Mapping[str, str] | None = None) -> Response[BodyT]:
    """``body`` as JSON that no cache keeps."""
    return answer(body, NO_STORE, status, headers)


def tagged(
    body: BodyT, view: Any, representation: str, cache: str, request_headers: Mapping[str, str]
) -> Response[BodyT]:
    """``body`` with a strong ETag of its JSON ``view`` (``common.web.etag``), or a 304 when the request's
    ``If-None-Match`` names that ETag."""
    headers = {"ETag": etag_of(view, representation), "Cache-Control": cache}
    refuse_if_current(request_headers, headers)
    return Response(HTTPStatus.OK, JSON, body, headers=headers)


def created_if(new: bool) -> HTTPStatus:
    """201 to the request that made the thing, 200 to one that found it made."""
    return HTTPStatus.CREATED if new else HTTPStatus.OK
