"""Tazama on moto: the games being played now, one Query, cached; live tables first; never a private game, a
game against the computer, a game waiting for its opponent or a finished one."""

from __future__ import annotations

import pytest

from tests.games.client import Api


def listed(api: Api, game: str = "chess") -> list[str]:
    answer = api.call("GET", "/v1/games/live", query={"game": game})
    assert answer.status == 200, answer.body
    return [item["id"] for item in answer.body["games"]]


@pytest.fixture(params=["moto", "dynalite"])
def any_api(request):
    return request.getfixturevalue("api" if request.param == "moto" else "dynalite_api")


def test_the_list_is_one_cached_query_live_tables_first(any_api, count_calls, clock):
    api = any_api
    correspondence, seats = api.start_game()
    clock.advance(5)
    live, live_seats = api.start_game(options={"turn_seconds": 60})
    clock.advance(5)
    later, _ = api.start_game()
    count_calls.calls.clear()
    answer = api.call("GET", "/v1/games/live", query={"game": "chess"})
    assert count_calls.calls == ["Query"]
    assert answer.headers["cache-control"] == "public, max-age=15"
    assert [item["id"] for item in answer.body["games"]] == [live, later, correspondence]
    first = answer.body["games"][0]
    assert first["live"] and first["players"] == {"white": {"name": "Asha"}, "black": {"name": "Baraka"}}
    assert "token" not in answer.text and seats["white"] not in answer.text and live_seats["black"] not in answer.text
    assert listed(api, "english") == []


def test_what_is_never_listed(api, clock):
    private, _ = api.start_game(options={"private": True})
    asha = api.new_player("Asha")
    waiting = api.create(asha["token"]).body["game"]["id"]
    computer = api.create(asha["token"], opponent={"type": "cpu", "level": 1}).body["game"]["id"]
    ended, seats = api.start_game()
    assert ended in listed(api)
    assert api.call("POST", f"/v1/games/{ended}/resign", token=seats["white"]).status == 200
    shown = listed(api)
    assert not {private, waiting, computer, ended} & set(shown)


def test_a_correspondence_game_leaves_the_list_an_hour_after_its_last_move(any_api, clock):
    api = any_api
    game_id, seats = api.start_game()
    api.play(game_id, seats, ["e4"])
    clock.advance(3_500)
    assert listed(api) == [game_id]
    clock.advance(200)
    assert listed(api) == []
    api.play(game_id, seats, ["e5"])  # a move puts it back
    assert listed(api) == [game_id]


@pytest.mark.parametrize("query", [{}, {"game": "go"}])
def test_a_missing_or_unknown_game_is_refused(api, query):
    answer = api.call("GET", "/v1/games/live", query=query)
    assert answer.status == 422 and answer.body["error"]["code"]
