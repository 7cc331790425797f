"""A tournament for a club's members: made by a member with ``club``, listed on the club's page, joined by
members without an invite and refused to everyone else (on moto)."""

from __future__ import annotations

from tests.clubs.test_clubs_api import ClubsApi
from tests.games.client import invoke


def test_a_members_only_league(api, clubs, clock):
    from tournaments import handler as module

    from tests.fixtures import Function, on_clock

    tournaments = Function(module, on_clock(clock)).create_app()

    def call(method, path, body=None, token=None):
        return invoke(tournaments, "TournamentsFunction", method, path, body=body, token=token)

    clubs = ClubsApi(clubs)
    asha, baraka, outsider = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Juma")
    club = clubs.make(asha["token"], game="english")
    assert clubs.join(baraka["token"], club["invite"]).status == 201
    terms = {"format": "league", "game": "english", "players": 3, "name": "Kombe la Simba", "club": club["id"]}
    refused = call("POST", "/v1/tournaments", terms, token=outsider["token"])
    assert refused.status == 403 and refused.code == "club_members_only"
    nowhere = call("POST", "/v1/tournaments", {**terms, "club": "AAAAAA"}, token=asha["token"])
    assert nowhere.status == 404 and nowhere.code == "club_not_found"
    made = call("POST", "/v1/tournaments", terms, token=asha["token"])
    assert made.status == 201 and made.body["invite"] is None and made.body["tournament"]["club"] == club["id"]
    league = made.body["tournament"]["id"]
    shut = call("POST", f"/v1/tournaments/{league}/join", {}, token=outsider["token"])
    assert shut.status == 403 and shut.code == "club_members_only"
    assert call("POST", f"/v1/tournaments/{league}/join", {}, token=baraka["token"]).status == 200
    page = clubs.call("GET", f"/v1/clubs/{club['id']}", token=baraka["token"]).body
    assert [(t["id"], t["name"], t["format"]) for t in page["tournaments"]] == [(league, "Kombe la Simba", "league")]
    assert clubs.call("GET", f"/v1/clubs/{club['id']}", token=outsider["token"]).body["tournaments"] == []
