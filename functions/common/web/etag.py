"""Conditional GETs, one way for every function: a representation's ``ETag``, and 304 when the client's
``If-None-Match`` names it (weak comparison, and ``*``, as RFC 9110 section 13.1.2 asks of a GET).

A route calls ``refuse_if_current`` before it builds its answer; the ``NotModified`` it raises is answered by
the resolver (``common.web.api.Api``) with 304, no body and the headers the 200 would have had: an exception,
so the route's response model does not apply to the empty body.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


class NotModified(Exception):
    """The client's copy is current: 304 with no body and these headers (the ``ETag`` among them)."""

    def __init__(self, headers: dict[str, str]):
        super().__init__(headers.get("ETag"))
        self.headers = headers


def etag_of(body: Any, representation: str) -> str:
    """A strong ETag for a JSON body: ``representation`` (bumped when the body's shape changes) and its digest."""
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:20]
    return f'"{representation}-{digest}"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (or is ``*``)."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == etag:
            return True
    return False


def refuse_if_current(request_headers: Mapping[str, str], headers: dict[str, str]) -> None:
    """Raise ``NotModified`` with ``headers`` when the request's ``If-None-Match`` names ``headers["ETag"]``."""
    if matches(request_headers.get("if-none-match"), headers["ETag"]):
        raise NotModified(headers)
