"""A game is rated or casual: chosen at creation, kept by a rematch, shown in the game and the list; never
against the computer or from a set-up position. Through the handler on moto."""

from __future__ import annotations

import pytest

from tests.games.client import snapshot
from tests.games.test_games_api import assert_refused

SET_UP = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"


def test_a_game_is_casual_unless_asked(api):
    token = api.new_player()["token"]
    game = api.create(token, "chess").body["game"]
    assert game["rated"] is False and "rated" not in game["options"]
    rated = api.create(token, "tanzanian", rated=True).body["game"]
    assert rated["rated"] is True and "rated" not in rated["options"]
    assert api.get(rated["id"]).body["rated"] is True


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"opponent": {"type": "cpu", "level": 2}}, "rated_not_allowed"),
        ({"fen": SET_UP}, "rated_not_allowed"),
        ({"options": {"rated": True}}, "invalid_option"),  # a field of the request, not an option
        ({"rated": "yes"}, "invalid_request"),
    ],
)
def test_a_rated_game_that_cannot_be_is_refused_and_writes_nothing(api, extra, code):
    token = api.new_player()["token"]
    before = snapshot()
    answer = api.call("POST", "/v1/games", {"game": "chess", "rated": True, **extra}, token=token)
    assert_refused(answer, 422, code)
    assert snapshot() == before


def test_the_usual_start_given_as_a_fen_may_be_rated(api):
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    game = api.create(api.new_player()["token"], "chess", fen=start, rated=True).body["game"]
    assert game["rated"] is True


def rematch(api, game_id: str, offerer: str, accepter: str) -> dict:
    """A rematch by consent: one player offers, the other accepts; the new game."""
    assert api.call("POST", f"/v1/games/{game_id}/rematch", token=offerer).status == 200
    accepted = api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "accept"}, token=accepter)
    assert accepted.status == 201, accepted.body
    return accepted.body["game"]


def test_a_rematch_keeps_rated_and_the_list_shows_it(api):
    game_id, seats = api.start_game("english")
    created = api.call("POST", "/v1/games", {"game": "english", "rated": True}, token=seats["white"])
    rated_id = created.body["game"]["id"]
    api.join(seats["black"], rated_id, created.body["invite"]["code"])
    for ident in (game_id, rated_id):
        assert api.call("POST", f"/v1/games/{ident}/resign", token=seats["white"]).status == 200
    casual_rematch = rematch(api, game_id, offerer=seats["white"], accepter=seats["black"])
    rated_rematch = rematch(api, rated_id, offerer=seats["black"], accepter=seats["white"])
    assert casual_rematch["rated"] is False and rated_rematch["rated"] is True
    listed = api.call("GET", "/v1/players/me/games", token=seats["white"], query={"status": "active"}).body["games"]
    assert {game["id"]: game["rated"] for game in listed} == {casual_rematch["id"]: False, rated_rematch["id"]: True}
