"""What the API fuzzers share: the same examples on every run, the check of every answer, drawn requests."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.client import Answer

#: ``api.call``'s arguments, by name.
Request = dict[str, Any]


def fuzzed(examples: int) -> settings:
    """The same ``examples`` requests on every run (derandomized); each may take its time on a busy machine."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
    )


def check_answer(answer: Answer) -> None:
    """No 5xx; a refusal in the API's JSON error shape; a 304 with no body."""
    assert answer.status < 500, (answer.status, answer.text)
    if answer.status >= 400:
        assert answer.headers["content-type"] == "application/json"
        assert set(answer.body["error"]) - {"reason"} == {"code", "message"} and answer.body["error"]["message"]
    elif answer.status == 304:
        assert answer.text == ""


def _request(route: tuple[str, str], identifier: str, token: str | None, etag: str | None, query, body) -> Request:
    method, path = route
    headers = {}
    if token is not None:
        headers["authorization"] = f"Bearer {token}" if token.startswith("ubao_") else token
    if etag is not None:
        headers["if-none-match"] = etag
    path = path.replace("{id}", identifier.replace("/", "") or "x")
    return {"method": method, "path": path, "headers": headers, "query": query, "raw_body": body}


def drawn_requests(routes, ids, tokens, etags, queries, bodies) -> st.SearchStrategy[Request]:
    """``api.call``'s arguments for a request to one of ``routes``: ``{id}`` filled from ``ids`` (its slashes
    dropped, "x" for an empty one), a token sent as a bearer one when it looks like one and as the whole header
    when not, an etag as If-None-Match, the body raw."""
    return st.builds(_request, st.sampled_from(routes), ids, tokens, etags, queries, bodies)


def no_request_gets_a_5xx(api, clock, examples: int, requests: st.SearchStrategy[Request], days: int) -> None:
    """``examples`` of ``requests``, each some days (up to ``days``) after the one before: every answer passes
    ``check_answer``."""

    @fuzzed(examples)
    @given(request=requests, days=st.integers(0, days))
    def send(request, days):
        clock.advance(days=days)
        check_answer(api.call(**request))

    send()
