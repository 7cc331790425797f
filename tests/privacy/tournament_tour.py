"""The tournaments' part of the privacy tour (issue 40): a private league of 3 made, joined and started (its
games made), one game ended and counted, one player withdrawn; a public arena listed."""

from __future__ import annotations

from tests.clocks import ManualClock
from tests.fixtures import Function, on_clock
from tests.games.client import Api, invoke


def walk_tournaments(games_handler, white: dict, black: dict, third: dict) -> None:
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog
    from tournaments import handler
    from tournaments.repository import DynamoTournaments
    from tournaments.seated import TournamentGames
    from tournaments.stream import count_result

    app = Function(handler, on_clock(ManualClock())).create_app()

    def call(method: str, path: str, body=None, token: str | None = None):
        return invoke(app, "TournamentsFunction", method, path, body=body, token=token, host="127.0.0.1:3000")

    made = call("POST", "/v1/tournaments", {"format": "league", "game": "chess", "players": 3}, white["token"])
    assert made.status == 201, made.body
    tournament_id, code = made.body["tournament"]["id"], made.body["invite"]["code"]
    fourth = Api(games_handler).new_player("Daudi")
    for who in (white, black, fourth, third):
        answer = call("POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, who["token"])
        if who is black:  # Baraka blocked Asha: a league cannot seat them both
            assert (answer.status, answer.code) == (409, "blocked_entrant")
        else:
            assert answer.status == 200, answer.body
    view = call("GET", f"/v1/tournaments/{tournament_id}", token=white["token"]).body
    first = view["your_games"][0]
    assert Api(games_handler).call("POST", f"/v1/games/{first}/resign", token=white["token"]).status == 200
    store = dynamodb_games()
    assert count_result(first, DynamoTournaments(), TournamentGames(GameLog(store), store), 1_750_000_100.0)
    assert call("POST", f"/v1/tournaments/{tournament_id}/withdraw", token=third["token"]).status == 200
    arena = {"format": "arena", "game": "english", "public": True, "options": {"turn_seconds": 30}, "minutes": 30}
    arena["starts"] = "2025-06-15T17:00:00Z"
    made = call("POST", "/v1/tournaments", arena, black["token"])
    assert made.status == 201
    arena_path = f"/v1/tournaments/{made.body['tournament']['id']}"
    assert call("POST", f"{arena_path}/join", {}, black["token"]).status == 200
    assert call("POST", f"{arena_path}/presence", {"present": True}, black["token"]).status == 200  # his seat item
