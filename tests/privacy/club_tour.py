"""The clubs' part of the privacy tour (issue 42): a club made, joined by its code, a tournament for its members,
its page read with its members' leaderboard."""

from __future__ import annotations

from tests.fixtures import Function
from tests.games.client import invoke


def walk_clubs(overrides: dict, white: dict, third: dict) -> None:
    from clubs import handler as module

    app = Function(module, overrides).create_app()

    def call(method: str, path: str, body=None, token=None):
        return invoke(app, "ClubsFunction", method, path, body=body, token=token)

    made = call("POST", "/v1/clubs", {"name": "Simba", "game": "all"}, token=white["token"])
    assert made.status == 201, made.body
    club_id, code = made.body["invite"].split("-")
    assert call("POST", f"/v1/clubs/{club_id}/join", {"code": code}, token=third["token"]).status == 201
    assert call("GET", f"/v1/clubs/{club_id}", token=third["token"]).status == 200
    from tournaments import handler as tournaments

    league = {"format": "league", "game": "chess", "players": 3, "name": "Kombe", "club": club_id}
    app = Function(tournaments, overrides).create_app()
    made = invoke(app, "TournamentsFunction", "POST", "/v1/tournaments", body=league, token=white["token"])
    assert made.status == 201, made.body
