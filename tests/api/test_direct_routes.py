"""``Api`` calls simple routes directly instead of through Powertools' middleware chain (``Api.direct_routes``).

The two ways must give the same answer to every request: each test here sends the same event both ways
and compares the whole response (status, headers, body). The routes cover what a route can be: a body
model, path parameters, an optional body, a list body, an embedded body, ``Response`` returns with and
without JSON, plain dicts, refusals and bugs; the requests cover good, bad and strange bodies.
"""

from __future__ import annotations

import base64
import io
import json
from http import HTTPStatus
from typing import Annotated

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query
from common.api import Api, _DirectRoute, bind_logs_to_request, logger
from common.errors import ApiError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field
from validate_move.handler import app as validate_app

from local.events import LambdaContext, http_api_event
from shared_rules import InvalidFen


class Item(BaseModel):
    name: str = Field(min_length=1, max_length=10)
    size: int = 1


class Receipt(BaseModel):
    id: str
    items: list[Item]


app = Api()


@app.post("/v1/items")
def add_item(request: Item) -> Item:
    if request.name == "refuse":
        raise ApiError("refused", status=409, code="conflict", headers={"Retry-After": "3"})
    if request.name == "rules":
        raise InvalidFen("FEN 'x' is malformed")
    if request.name == "bug":
        raise RuntimeError("a bug")
    if request.name == "shape":
        return {"name": 5}  # breaks the response model
    return request


@app.post("/v1/orders/{order_id}/items")
def add_items(order_id: str, items: list[Item]) -> Response[Receipt]:
    receipt = Receipt(id=order_id, items=items)
    return Response(HTTPStatus.CREATED, "application/json", receipt, headers={"Location": f"/v1/orders/{order_id}"})


@app.post("/v1/maybe")
def maybe(request: Item | None = None) -> dict:
    return {"got": request.name if request else None}


@app.post("/v1/embedded")
def embedded(item: Annotated[Item, Body(embed=True)]) -> Item:
    return item


@app.get("/v1/orders/{order_id}/text")
def order_text(order_id: str) -> Response[str]:
    return Response(HTTPStatus.OK, "text/plain", f"order {order_id}\n")


@app.get("/v1/orders/{order_id}")
def order(order_id: str):
    return {"id": order_id, "é": "ü"}


@app.get("/v1/search")
def search(q: Annotated[str, Query(max_length=5)] = "") -> dict:
    return {"q": q}


def both_ways(api: Api, event: dict) -> dict:
    """The response with direct routes and through Powertools' chain, which must be the same."""
    context = LambdaContext(function_name="test")
    answers = []
    for direct in (True, False):
        api.direct_routes = direct
        try:
            answers.append(api.lambda_handler(json.loads(json.dumps(event)), context))
        finally:
            api.direct_routes = True
    direct_answer, chain_answer = answers
    assert direct_answer == chain_answer
    return direct_answer


def event(method: str, path: str, body: str | None = None, content_type: str | None = "application/json", **extra):
    headers = {"content-type": content_type} if content_type else {}
    return http_api_event(method, path, headers=headers, body=body, request_id="req-1", **extra)


BODIES = [
    '{"name": "a", "size": 2}',
    '{"name": "a"}',
    '[{"name": "a"}]',
    '[{"name": "a"}, {"name": "b"}]',
    "[]",
    "{}",
    "null",
    '""',
    "5",
    '{"name": ""}',
    '{"name": "waytoolongname"}',
    '{"name": "a", "size": "big"}',
    '{"name": "a", "extra": true}',
    '{"name": "\u00fcml\u00e4ut"}',
    '{"name": "refuse"}',
    '{"name": "rules"}',
    '{"name": "bug"}',
    '{"name": "shape"}',
    '{"item": {"name": "a"}}',
    '{"name": ',
    "NaN",
    "",
    None,
]


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("path", ["/v1/items", "/v1/orders/o-1/items", "/v1/maybe", "/v1/embedded"])
def test_a_body_route_answers_the_same_both_ways(path, body):
    previous = logger.registered_handler.setStream(io.StringIO())  # the "bug" body logs a traceback
    try:
        both_ways(app, event("POST", path, body))
    finally:
        logger.registered_handler.setStream(previous)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "Application/JSON"])
@pytest.mark.parametrize("body", ['{"name": "a"}', None])
def test_any_content_type_answers_the_same_both_ways(content_type, body):
    for path in ("/v1/items", "/v1/maybe"):
        both_ways(app, event("POST", path, body, content_type))


def test_a_base64_body_answers_the_same_both_ways():
    request = event("POST", "/v1/items", None)
    request["body"], request["isBase64Encoded"] = base64.b64encode(b'{"name": "b64"}').decode(), True
    assert json.loads(both_ways(app, request)["body"]) == {"name": "b64", "size": 1}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/orders/o-1/text"),
        ("GET", "/v1/orders/o-1"),
        ("GET", "/v1/search"),
        ("DELETE", "/v1/items"),
        ("GET", "/v1/nothing/here"),
    ],
)
def test_routes_without_a_body_answer_the_same_both_ways(method, path):
    both_ways(app, event(method, path, None, None))


@pytest.mark.parametrize("query", ["q=abc", "q=toolong", "q=a&q=b"])
def test_a_query_route_answers_the_same_both_ways(query):
    both_ways(app, event("GET", "/v1/search", None, None, query=query))


def test_the_answers_compared_are_the_routes_answers():
    created = both_ways(app, event("POST", "/v1/orders/o-9/items", '[{"name": "x"}]'))
    assert created["statusCode"] == 201 and created["headers"]["Location"] == "/v1/orders/o-9"
    assert json.loads(created["body"]) == {"id": "o-9", "items": [{"name": "x", "size": 1}]}
    text = both_ways(app, event("GET", "/v1/orders/o-9/text", None, None))
    assert (text["statusCode"], text["body"]) == (200, "order o-9\n")
    refused = both_ways(app, event("POST", "/v1/items", '{"name": "refuse"}'))
    assert refused["statusCode"] == 409 and json.loads(refused["body"])["error"]["code"] == "conflict"


def test_routes_with_only_path_and_body_parameters_are_called_directly():
    by_path = {route.path: route for route in app._static_routes + app._dynamic_routes}
    for path in ("/v1/items", "/v1/orders/<order_id>/items", "/v1/maybe", "/v1/embedded", "/v1/orders/<order_id>"):
        assert _DirectRoute.of(by_path[path]) is not None, path
    assert _DirectRoute.of(by_path["/v1/search"]) is None  # query parameters: Powertools' chain
    (validate_route,) = validate_app._static_routes
    assert _DirectRoute.of(validate_route) is not None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=12,
)
validate_bodies = st.fixed_dictionaries(
    {"game": st.sampled_from(["chess", "english", "tanzanian", "go"]), "move": st.sampled_from(["e4", "9-13", "zz"])},
    optional={
        "moves": st.lists(st.sampled_from(["e4", "e5", "11-15", "22-18", "a3-b4"]), max_size=3),
        "fen": st.sampled_from(["W:WK1:BK32", "8/8/8/8/8/8/8/8 w - - 0 1", "bad"]),
        "options": st.dictionaries(st.sampled_from(["mandatory_capture", "x"]), st.booleans(), max_size=1),
        "extra": json_values,
    },
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(validate_bodies, json_values))
def test_validate_move_answers_the_same_both_ways(body):
    both_ways(validate_app, event("POST", "/v1/validate", json.dumps(body)))


def test_logs_are_bound_to_the_request_as_logger_clear_state_would():
    class Context:
        aws_request_id, function_name = "fn-req", "Fn"

    logger.append_keys(leftover="from the last request")
    bind_logs_to_request({"requestContext": {"requestId": "api-req"}}, Context())
    bound = dict(logger.get_current_keys())
    logger.clear_state()
    logger.append_keys(
        correlation_id="api-req", function_request_id="fn-req", function_name="Fn", cold_start=bound["cold_start"]
    )
    assert bound == logger.get_current_keys()
    assert "leftover" not in bound
