"""GamesFunction's role allows every DynamoDB call its routes make (moto checks no IAM: ``tests.iam``): players
made with a country and hiding it, games by invite and from the lobby, rated and casual, against the computer,
ended by resignation and by agreement (the ratings, their country copies and the players' wins, draws and
losses), the history, a profile, the rating lists."""

from __future__ import annotations

from common.persistence import store
from common.players.handles import player_id_of
from common.ratings import glicko2
from games.ratings.domain import GameRating
from games.ratings.repository import RatingStore

from tests.games.client import Api
from tests.iam import DynamoCalls, denied, grants

KENYAN = {"CloudFront-Viewer-Country": "KE"}


def _listed_in_kenya(api: Api, clock) -> dict:
    """A player on the chess rating list of Kenya (written as settles write it): a hide rewrites that copy."""
    listed = api.call("POST", "/v1/players", {"name": "Baraka"}, headers=KENYAN).body
    now, day = int(clock() * 1000), 86_400_000
    history = tuple((now - n * day, 1600) for n in range(10, 0, -1))
    rating = GameRating(
        player_id_of(listed["player_id"]),
        "chess",
        "Baraka",
        glicko2.Rating(1600, 80, 0.06),
        10,
        history=history,
        earned=tuple((at, f"o{n}") for n, (at, _) in enumerate(history)),
        version=1,
        country="KE",
    )
    assert RatingStore().save(rating, now) and RatingStore().board("chess", now, 5, "KE")
    return listed


def _a_day_of_play(api: Api, baraka: dict) -> None:
    asha = api.call("POST", "/v1/players", {"name": "Asha"}, headers=KENYAN).body
    tokens = {"white": asha["token"], "black": baraka["token"]}
    for rated, end in ((True, "resign"), (False, "draw")):
        created = api.create(asha["token"], rated=rated).body
        game_id = created["game"]["id"]
        assert api.join(baraka["token"], game_id, created["invite"]["code"]).status == 200
        api.open_moves(game_id, tokens)
        if end == "draw":
            api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=tokens["white"])
            answer = api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=tokens["black"])
        else:
            answer = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["black"])
        assert answer.status == 200 and answer.body["state"] == "finished", answer.body
        assert api.call("GET", f"/v1/games/{game_id}").status == 200
        assert api.call("GET", f"/v1/games/{game_id}/export").status == 200
    seek = api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": True}, token=asha["token"]).body["seek"]
    assert api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).status == 200
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).status == 201
    computer = api.create(asha["token"], opponent={"type": "cpu", "level": 1}).body["game"]["id"]
    assert api.move(asha["token"], computer, "e4", 0).status == 200
    assert api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=baraka["token"]).status == 200
    for path, token in (
        ("/v1/players/me", asha["token"]),
        ("/v1/players/me/history", asha["token"]),
        ("/v1/players/me/games", asha["token"]),
        (f"/v1/players/{baraka['player_id']}", None),
        (f"/v1/players/{baraka['player_id']}/games", None),
        ("/v1/leaderboard?game=chess", None),
        ("/v1/leaderboard?game=chess&country=KE", None),
        ("/v1/games/live?game=chess", None),
    ):
        path, _, query = path.partition("?")
        asked = dict(part.split("=") for part in query.split("&")) if query else None
        answer = api.call("GET", path, token=token, query=asked)
        assert answer.status == 200, (path, answer.body)


def test_every_call_of_a_day_of_play_is_allowed_by_the_games_functions_role(api, clock):
    baraka = _listed_in_kenya(api, clock)
    with DynamoCalls(store.client(), {}) as recorded:
        _a_day_of_play(api, baraka)
    assert {table for _, table, _ in recorded.calls} >= {"GamesTable", "PlayersTable", "RatingsTable", "SeeksTable"}
    assert ("UpdateItem", "RatingsTable", None) in recorded.calls  # the hidden country taken off the list
    assert denied(recorded.calls, grants("GamesFunction")) == set()
