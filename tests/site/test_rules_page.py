"""The rules-page function (GET /v1/rules/{game}?lang=) serves the static build's Sheria page, in the chosen language."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from rules_page import handler
from rules_page.service import choose_language

from local.events import LambdaContext, http_api_event


def call(game: str, query: dict | None = None, headers: dict | None = None) -> dict:
    event = http_api_event(
        "GET",
        f"/v1/rules/{game}",
        route_key="GET /v1/rules/{game}",
        path_parameters={"game": game},
        query=urlencode(query or {}),
        headers={"host": "ubao.test", **(headers or {})},
    )
    return handler.lambda_handler(event, LambdaContext(function_name="RulesPageFunction"))


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://ubao.test")


@pytest.mark.parametrize("game", ["chess", "english", "tanzanian"])
@pytest.mark.parametrize("lang", ["sw", "tl", "en"])
def test_the_function_serves_the_same_page_as_the_static_build(built, game, lang):
    response = call(game, {"lang": lang})
    assert response["statusCode"] == 200
    assert response["headers"]["Content-Type"] == "text/html; charset=utf-8"
    assert response["headers"]["Content-Language"] == lang
    assert response["body"] == built.pages[f"/{lang}/sheria/{game}/"].html


def test_language_from_accept_language_and_swahili_by_default(built):
    assert call("chess", headers={"accept-language": "en-GB,en;q=0.9,sw;q=0.5"})["headers"]["Content-Language"] == "en"
    assert (
        call("chess", headers={"accept-language": "fr-FR, tl;q=0.8, en;q=0.7"})["headers"]["Content-Language"] == "tl"
    )
    assert call("chess", headers={"accept-language": "fil-PH"})["headers"]["Content-Language"] == "tl"
    assert call("chess", headers={"accept-language": "de, fr;q=0.5"})["headers"]["Content-Language"] == "sw"
    assert call("chess")["headers"]["Content-Language"] == "sw"
    # An explicit lang wins over the header.
    assert call("chess", {"lang": "en"}, {"accept-language": "sw"})["headers"]["Content-Language"] == "en"


def test_choose_language_weights_and_ignores_refusals():
    assert choose_language(None, "sw;q=0.2, tl;q=0.9") == "tl"
    assert choose_language(None, "en;q=0, sw;q=0.1") == "sw"
    assert choose_language(None, "tl;q=bad, en") == "en"
    assert choose_language(" TL ", None) == "tl"


def test_cache_headers_and_conditional_requests():
    first = call("tanzanian", {"lang": "tl"})
    headers = first["headers"]
    assert "max-age=" in headers["Cache-Control"] and headers["Vary"] == "Accept-Language"
    again = call("tanzanian", {"lang": "tl"}, {"if-none-match": headers["ETag"]})
    assert again["statusCode"] == 304 and again["body"] == ""
    other = call("tanzanian", {"lang": "sw"}, {"if-none-match": headers["ETag"]})
    assert other["statusCode"] == 200 and other["headers"]["ETag"] != headers["ETag"]


def test_unknown_game_and_language_are_clear_errors():
    missing = call("go", {"lang": "en"})
    assert missing["statusCode"] == 404
    assert json.loads(missing["body"])["error"]["code"] == "not_found"
    wrong = call("chess", {"lang": "fr"})
    assert wrong["statusCode"] == 422
    error = json.loads(wrong["body"])["error"]
    assert error["code"] == "unsupported_language" and "sw, tl, en" in error["message"]


def test_canonical_points_to_the_static_page():
    body = call("english", {"lang": "en"})["body"]
    assert '<link rel="canonical" href="https://ubao.test/en/sheria/english/">' in body
