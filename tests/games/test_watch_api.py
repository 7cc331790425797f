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
    # A live table carries its players' ratings when it started (nobody here has one yet: the starting 1500).
    players = {"white": {"name": "Asha", "rating": 1500}, "black": {"name": "Baraka", "rating": 1500}}
    assert first["live"] and first["players"] == players
    assert answer.body["games"][1]["players"]["white"] == {"name": "Asha", "rating": None}
    assert "token" not in answer.text and seats["white"] not in answer.text and live_seats["black"] not in answer.text
    assert listed(api, "english") == []


def test_live_tables_come_top_rated_first_with_no_read_of_the_ratings(api, clock, count_calls):
    from common.players.handles import player_id_of
    from common.ratings import glicko2
    from games.ratings.domain import GameRating
    from games.ratings.repository import RatingStore

    def table(white: float | None, black: float | None) -> str:
        creator, friend = api.new_player("Asha"), api.new_player("Baraka")
        for player, rating in ((creator, white), (friend, black)):
            if rating is not None:
                player_id = player_id_of(player["player_id"])  # the API shows handles
                rated = GameRating(player_id, "chess", None, glicko2.Rating(rating, 80.0, 0.06), 12, version=1)
                assert RatingStore().save(rated, int(clock() * 1000))
        created = api.create(creator["token"], "chess", "white", options={"turn_seconds": 30})
        game_id = created.body["game"]["id"]
        count_calls.calls.clear()
        assert api.join(friend["token"], game_id, created.body["invite"]["code"]).status == 200
        assert "BatchGetItem" in count_calls.calls  # the two ratings, read once as the table starts
        clock.advance(5)
        return game_id

    strong = table(2100.4, 1900.0)  # the mean, 2000, tops the list though it started first
    fresh = table(None, None)  # no ratings yet: 1500 each
    middling = table(1700.0, 1650.0)
    correspondence, _ = api.start_game()
    count_calls.calls.clear()
    answer = api.call("GET", "/v1/games/live", query={"game": "chess"})
    assert count_calls.calls == ["Query"]
    assert [item["id"] for item in answer.body["games"]] == [strong, middling, fresh, correspondence]
    assert answer.body["games"][0]["players"]["white"] == {"name": "Asha", "rating": 2100}


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
