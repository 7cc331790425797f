"""The history's routes on moto: your games (private ones too) for two DynamoDB calls, another player's public
games for one, cacheable; filters, refusals as JSON, and nothing private or secret to a stranger."""

from __future__ import annotations

from tests.games.client import Api


def finished(api: Api, options: dict | None = None) -> tuple[str, dict, dict]:
    """A game Asha (White) won by Baraka's resignation: (game id, Asha, Baraka)."""
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(asha["token"], options=options or {})
    game_id = created.body["game"]["id"]
    assert api.join(baraka["token"], game_id, created.body["invite"]["code"]).status == 200
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=baraka["token"]).status == 200
    return game_id, asha, baraka


def test_your_history_is_the_token_and_one_query(api, count_calls):
    game_id, asha, _ = finished(api)
    count_calls.calls.clear()
    answer = api.call("GET", "/v1/players/me/history", token=asha["token"], query={"result": "win"})
    assert answer.status == 200 and [row["id"] for row in answer.body["games"]] == [game_id]
    assert count_calls.calls == ["GetItem", "Query"]
    assert answer.headers["cache-control"] == "private, no-store"
    assert answer.body["games"][0]["opponent"]["name"] == "Baraka"
    assert answer.body["cursor"] is None


def test_another_players_public_games_are_one_cacheable_query(api, count_calls):
    game_id, asha, baraka = finished(api)
    count_calls.calls.clear()
    answer = api.call("GET", f"/v1/players/{baraka['player_id']}/games")
    assert count_calls.calls == ["Query"]
    assert answer.status == 200 and answer.headers["cache-control"].startswith("public, max-age=")
    (row,) = answer.body["games"]
    assert row["id"] == game_id and row["result"] == "loss" and row["reason"] == "resignation"
    assert asha["token"] not in answer.text and baraka["token"] not in answer.text


def test_a_private_game_is_never_shown_to_anyone_but_its_players(api):
    game_id, asha, baraka = finished(api, {"private": True})
    for player in (asha, baraka):
        assert api.call("GET", f"/v1/players/{player['player_id']}/games").body["games"] == []
        mine = api.call("GET", "/v1/players/me/history", token=player["token"]).body["games"]
        assert [(row["id"], row["private"]) for row in mine] == [(game_id, True)]


def test_bad_filters_and_forged_cursors_are_refused_as_json(api):
    asha = api.new_player("Asha")
    for query, code in (
        ({"result": "won"}, "request_validation_failed"),
        ({"kind": "blitz"}, "request_validation_failed"),
        ({"game": "go"}, "request_validation_failed"),
        ({"limit": "51"}, "request_validation_failed"),
        ({"cursor": "bm90IGEgY3Vyc29y"}, "invalid_cursor"),
    ):
        answer = api.call("GET", "/v1/players/me/history", token=asha["token"], query=query)
        assert 400 <= answer.status < 500 and answer.body["error"]["code"], (query, answer.body)
        if code == "invalid_cursor":
            assert answer.code == code
    assert api.call("GET", "/v1/players/me/history").code == "unauthorized"
    assert api.call("GET", "/v1/players/not%20an%20id/games").status in (404, 422)


def test_a_profile_is_two_queries_public_and_never_private(api, count_calls):
    public, asha, baraka = finished(api)
    created = api.create(asha["token"], rated=True)
    rated = created.body["game"]["id"]
    assert api.join(baraka["token"], rated, created.body["invite"]["code"]).status == 200
    api.play(rated, {"white": asha["token"], "black": baraka["token"]}, ["e4", "e5", "Nf3", "Nc6"])  # fair play
    assert api.call("POST", f"/v1/games/{rated}/resign", token=baraka["token"]).status == 200
    friends = api.create(asha["token"], options={"private": True})
    api.join(baraka["token"], friends.body["game"]["id"], friends.body["invite"]["code"])
    count_calls.calls.clear()
    answer = api.call("GET", f"/v1/players/{baraka['player_id']}")
    assert sorted(count_calls.calls) == ["Query", "Query"]  # the public games, the ratings
    assert answer.status == 200 and answer.headers["cache-control"].startswith("public, max-age=")
    profile = answer.body
    assert profile["name"] == "Baraka" and profile["results"] == {"chess": {"win": 0, "draw": 0, "loss": 2}}
    assert sorted(row["id"] for row in profile["recent"]) == sorted([rated, public])  # not the private game
    assert friends.body["game"]["id"] not in answer.text
    chess = profile["ratings"]["chess"]
    assert chess["games"] == 1 and chess["rating"] < 1500 and len(chess["points"]) == 1
    assert asha["token"] not in answer.text and baraka["token"] not in answer.text
    nobody = api.call("GET", "/v1/players/nobody-at-all")  # no game, no rating: nobody's (or deleted) profile
    assert nobody.status == 404 and nobody.body["error"]["code"] == "player_not_found"
