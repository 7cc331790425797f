"""The edge reads a request one strict way for every route (``common.web.api``): a body is a JSON object sent
as ``application/json``, an integer query parameter is digits. Each refusal changes nothing."""

from __future__ import annotations

import json

import pytest

from tests.games.client import Api
from tests.unit.test_games_api_in_memory import InMemoryFunction


@pytest.fixture
def api(monkeypatch) -> Api:
    for name in ("GAMES_TABLE", "PLAYERS_TABLE", "RATE_LIMIT_TABLE", "DYNAMODB_ENDPOINT", "SITE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    return Api(InMemoryFunction())


def test_a_top_level_array_is_refused_not_read_as_its_first_element(api):
    game_id, seats = api.start_game("chess")
    body = json.dumps([{"move": "e4", "ply": 0}, {"junk": 1}])
    answer = api.call("POST", f"/v1/games/{game_id}/moves", raw_body=body, token=seats["white"])
    assert (answer.status, answer.code) == (422, "invalid_body")
    assert "array" in answer.body["error"]["message"]
    assert api.get(game_id).body["ply"] == 0  # nothing was played


@pytest.mark.parametrize("body", ["5", '"e4"', "true", "null", " \n[]"])
def test_any_json_that_is_not_an_object_is_422(api, body):
    answer = api.call("POST", "/v1/players", raw_body=body)
    assert (answer.status, answer.code) == (422, "invalid_body")


def test_a_body_that_is_neither_an_object_nor_json_is_400(api):
    answer = api.call("POST", "/v1/players", raw_body="[1,")
    assert (answer.status, answer.code) == (400, "invalid_json")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "text/json"])
def test_a_body_not_sent_as_json_is_415_and_creates_nothing(api, content_type):
    answer = api.call("POST", "/v1/players", {"name": "Asha"}, headers={"content-type": content_type})
    assert (answer.status, answer.code) == (415, "unsupported_media_type")
    player = api.new_player()  # the first player this store has: the refused request made none
    game_id = api.create(player["token"]).body["game"]["id"]
    moved = api.call(
        "POST", f"/v1/games/{game_id}/moves", {"move": "e4", "ply": 0},
        token=player["token"], headers={"content-type": content_type},
    )  # fmt: skip
    assert (moved.status, moved.code) == (415, "unsupported_media_type")


def test_a_request_without_a_body_needs_no_content_type(api):
    game_id, seats = api.start_game("chess")
    answer = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"], headers={"content-type": ""})
    assert answer.status == 200 and answer.body["status"]["result"] == "black"


@pytest.mark.parametrize("value", ["1.0", "+1", "1e0", " 1", "1_0", "\u0661", "1,2", "-1"])
def test_an_integer_query_parameter_is_digits_only(api, value):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["e4", "e5"])
    answer = api.get(game_id, query={"moves_after": value})
    assert (answer.status, answer.code) == (422, "invalid_request"), answer.body
    assert "moves_after" in answer.body["error"]["message"]
    listing = api.call("GET", "/v1/players/me/games", token=seats["white"], query={"limit": "20.0"})
    assert (listing.status, listing.code) == (422, "invalid_request")


def test_digits_are_read_as_the_integer(api):
    game_id, seats = api.start_game("chess")
    api.play(game_id, seats, ["e4", "e5"])
    answer = api.get(game_id, query={"moves_after": "01"})
    assert answer.status == 200 and answer.body["moves"] == ["e5"]
