"""The error contract every function shares (functions/common): each kind of failure, its status and code.

A small Api declared here exercises what validate_move does not (path and query parameters, handler
refusals, a real bug); the fallback function is tested against the real handlers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_fallback.handler import all_routes
from api_fallback.handler import lambda_handler as fallback_handler
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from common.web.api import Api, logger, normalized_event, parse_json
from common.web.errors import ApiError
from common.web.routing import RouteTable
from pydantic import BaseModel

from shared_rules import InvalidFen, UnknownGame
from tests.api.helpers import assert_error, call, logged_lines

app = Api()


class Thing(BaseModel):
    id: str
    size: int


@app.get("/v1/things/{thing_id}")
def get_thing(thing_id: str, size: int = 1) -> Thing:
    if thing_id == "locked":
        raise ApiError("this thing is locked", status=409, code="conflict", headers={"Retry-After": "5"})
    if thing_id == "unknown-game":
        raise UnknownGame("unknown game 'go'")
    if thing_id == "bad-fen":
        raise InvalidFen("FEN 'x' is malformed")
    if thing_id == "powertools":
        raise BadRequestError("a Powertools error")
    if thing_id == "bug":
        raise RuntimeError("an unexpected bug")
    if thing_id == "wrong-shape":
        return {"id": thing_id}  # type: ignore[return-value]  # breaks the response model on purpose: a bug of ours
    return Thing(id=thing_id, size=size)


@app.delete("/v1/things/{thing_id}")
def delete_thing(thing_id: str) -> dict:
    return {"deleted": thing_id}


handler = app.lambda_handler


def test_routes_are_declared_in_the_template_spelling():
    assert app.declared_routes == [("GET", "/v1/things/{thing_id}"), ("DELETE", "/v1/things/{thing_id}")]


def test_path_and_query_parameters_reach_the_route():
    from local.events import LambdaContext, http_api_event

    result = handler(http_api_event("GET", "/v1/things/abc", query="size=3"), LambdaContext(function_name="test"))
    assert (result["statusCode"], json.loads(result["body"])) == (200, {"id": "abc", "size": 3})
    assert call(handler, "GET", "/v1/things/abc").body == {"id": "abc", "size": 1}


def test_a_bad_query_parameter_names_the_parameter():
    from local.events import LambdaContext, http_api_event

    event = http_api_event("GET", "/v1/things/abc", query="size=big")
    result = handler(event, LambdaContext(function_name="test"))
    body = json.loads(result["body"])
    assert result["statusCode"] == 422
    assert body["error"]["code"] == "invalid_request" and "query parameter size" in body["error"]["message"]


def test_a_handler_refusal_keeps_its_status_code_and_headers():
    answer = call(handler, "GET", "/v1/things/locked")
    assert assert_error(answer, 409, "conflict") == "this thing is locked"
    assert answer.headers["retry-after"] == "5"


@pytest.mark.parametrize(("thing", "code"), [("unknown-game", "unknown_game"), ("bad-fen", "invalid_fen")])
def test_rules_errors_are_422_with_their_code(thing, code):
    assert_error(call(handler, "GET", f"/v1/things/{thing}"), 422, code)


def test_a_powertools_service_error_keeps_its_status():
    assert assert_error(call(handler, "GET", "/v1/things/powertools"), 400, "bad_request") == "a Powertools error"


@pytest.mark.parametrize("thing", ["bug", "wrong-shape"])
def test_a_bug_is_a_500_in_the_same_shape_without_a_traceback(thing):
    with logged_lines() as stream:
        answer = call(handler, "GET", f"/v1/things/{thing}", request_id="req-bug-1")
    message = assert_error(answer, 500, "internal_error")
    assert "req-bug-1" in message and "bug" not in message.replace("req-bug-1", "")
    logged = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert any(line["level"] == "ERROR" and line.get("exception") for line in logged), "the bug is logged in full"


def test_405_lists_every_method_of_the_path_and_404_otherwise():
    answer = call(handler, "POST", "/v1/things/abc", "{}")
    assert_error(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "DELETE, GET"
    assert_error(call(handler, "GET", "/v1/things"), 404, "not_found")
    assert_error(call(handler, "GET", "/v1/things/a/b"), 404, "not_found")


# ------------------------------------------------------------------------------- the fallback function
def test_the_fallback_knows_every_other_functions_routes():
    assert ("POST", "/v1/validate") in all_routes()
    assert all(path.startswith("/v1/") for _, path in all_routes())


def test_the_fallback_imports_no_other_function():
    """In the repository as in its package, the fallback learns the routes without the other functions' code."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; sys.path[:0] = ['functions', '.']; import api_fallback.handler as f; routes = f.all_routes();"
        "functions = {p.parent.name for p in __import__('pathlib').Path('functions').glob('*/handler.py')};"
        "print(len(routes), sorted(m for m in sys.modules if m.split('.')[0] in functions - {'api_fallback'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    count, imported = result.stdout.split(" ", 1)
    assert int(count) > 10 and imported.strip() == "[]"


def test_the_fallback_answers_405_for_a_known_path_and_404_for_the_rest():
    answer = call(fallback_handler, "GET", "/v1/validate")
    assert_error(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"
    assert_error(call(fallback_handler, "POST", "/v1/no/such/thing", "{}"), 404, "not_found")


# ------------------------------------------------------------------------------------------- pieces
ROUTES = RouteTable(
    [
        ("GET", "/v1/games/{id}", "game"),
        ("POST", "/v1/games/{id}/moves", "move"),
        ("GET", "/v1/puzzles/daily", "daily"),
        ("GET", "/v1/puzzles/{id}", "puzzle"),
        ("POST", "/v1/validate", "validate"),
        ("ANY", "/v1/{proxy+}", "fallback"),
    ]
)


@pytest.mark.parametrize(
    ("method", "path", "found"),
    [
        ("GET", "/v1/games/abc", ("game", {"id": "abc"})),
        ("GET", "/v1/games/a%20b", ("game", {"id": "a b"})),  # decoded, as API Gateway passes them
        ("POST", "/v1/games/abc/moves", ("move", {"id": "abc"})),
        ("GET", "/v1/puzzles/daily", ("daily", {})),  # the literal path before the parameter
        ("GET", "/v1/puzzles/p1", ("puzzle", {"id": "p1"})),
        ("POST", "/v1/games/abc", ("fallback", {"proxy": "games/abc"})),  # no POST there: the greedy route
        ("GET", "/v1/games/abc/moves/x", ("fallback", {"proxy": "games/abc/moves/x"})),
        ("GET", "/v1/validatex", ("fallback", {"proxy": "validatex"})),
        ("GET", "/v1/", None),
        ("GET", "/elsewhere", None),
    ],
)
def test_the_route_table_picks_as_api_gateway_does(method, path, found):
    assert ROUTES.find(method, path) == found


def test_the_methods_at_a_path():
    table = RouteTable([("GET", "/v1/things/{id}", None), ("DELETE", "/v1/things/{id}", None)])
    assert table.methods_at("/v1/things/abc") == ["GET", "DELETE"]
    assert table.methods_at("/v1/things/") == [] and table.methods_at("/v1/things/a/b") == []


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "-Infinity", "1" * 5000, "[" * 100_000, "{"])
def test_parse_json_refuses_what_is_not_json(text):
    with pytest.raises(json.JSONDecodeError):
        parse_json(text)


def test_parse_json_reads_json():
    assert parse_json('{"a": [1, 2.5, "\u00e9", null, true]}') == {"a": [1, 2.5, "\u00e9", None, True]}


def test_an_event_without_a_body_is_left_alone():
    event = {"rawPath": "/v1/x", "headers": {"content-type": "text/plain"}}
    assert normalized_event(event) is event


def test_an_api_error_defaults():
    error = ApiError("nope")
    assert (error.status, error.code, error.message, error.headers) == (400, "bad_request", "nope", {})


def test_logs_are_bound_to_the_request_and_keep_nothing_of_the_last():
    """Powertools' ``inject_lambda_context`` around every function: the Lambda context and the API request id
    (as correlation id) on every log line of the request, nothing left of the last one."""
    from local.events import LambdaContext, http_api_event

    app = Api()
    seen: dict = {}

    @app.get("/v1/keys")
    def keys() -> dict:
        seen.update(logger.get_current_keys())
        return {}

    logger.append_keys(leftover="from the last request")
    event = http_api_event("GET", "/v1/keys", request_id="api-req")
    assert app.lambda_handler(event, LambdaContext(function_name="Fn", aws_request_id="fn-req"))["statusCode"] == 200
    assert seen["correlation_id"] == "api-req" and seen["function_request_id"] == "fn-req"
    assert seen["function_name"] == "Fn" and "cold_start" in seen and "leftover" not in seen


def test_no_code_imports_a_private_name_of_a_dependency():
    """Powertools, pydantic, boto3 ... are used through their public API only: a release cannot break a route
    by renaming an internal. A private name is ``_x`` after a dependency's module or object."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    dependencies = (
        r"(aws_lambda_powertools|pydantic|pydantic_core|boto3|botocore|moto|chess|draughts|jinja2|babel|yaml)"
    )
    private_import = re.compile(rf"^\s*from\s+{dependencies}[\w.]*\s+import\s+[^#\n]*\b_[A-Za-z]\w*", re.M)
    private_module = re.compile(rf"^\s*(from|import)\s+{dependencies}(\.\w+)*\._\w+", re.M)
    private_attribute = re.compile(r"\b(validation|middleware|logger|formatter|powertools|board|state)\._[a-z]\w*")
    found: list[Any] = []
    for path in [*root.glob("functions/**/*.py"), *root.glob("shared_rules/**/*.py"), *root.glob("local/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        for pattern in (private_import, private_module, private_attribute):
            found.extend(f"{path.relative_to(root)}: {match.group(0).strip()}" for match in pattern.finditer(text))
    assert not found, found


def test_finding_a_route_inside_a_request_leaves_the_request_its_own_event():
    # Powertools keeps the event being resolved on BaseRouter, one for the whole process; a 404 or 405
    # asks the route table (which resolves a lookup event) in the middle of the request it answers.
    import json

    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

    from local.events import LambdaContext, http_api_event

    resolver = APIGatewayHttpResolver()

    @resolver.get("/v1/things/<thing_id>")
    def thing(thing_id: str) -> dict:
        assert ROUTES.find("GET", "/v1/games/abc") == ("game", {"id": "abc"})
        return {"path": resolver.current_event.path, "auth": resolver.current_event.headers.get("authorization")}

    event = http_api_event("GET", "/v1/things/x", headers={"authorization": "Bearer t"})
    answer = resolver(event, LambdaContext(function_name="test"))  # as Lambda calls it
    assert json.loads(answer["body"]) == {"path": "/v1/things/x", "auth": "Bearer t"}
