"""Clubs through the clubs function on moto (the main path on dynalite too): made, joined by code, a wrong code,
a renewed code, leaving, removal by the owner, the members' leaderboards, the limits, and bad input refused
with nothing written."""

from __future__ import annotations

import pytest

from tests.games.client import Api, FunctionApi


class ClubsApi(FunctionApi):
    function_name = "ClubsFunction"

    def __init__(self, function):
        super().__init__(function.create_app())

    def make(self, token: str, name: str = "Simba wa Ubao", game: str = "all") -> dict:
        answer = self.call("POST", "/v1/clubs", {"name": name, "game": game}, token=token)
        assert answer.status == 201, answer.body
        return answer.body

    def join(self, token: str, invite: str):
        club_id, code = invite.split("-")
        return self.call("POST", f"/v1/clubs/{club_id}/join", {"code": code}, token=token)

    def mine(self, token: str) -> list[str]:
        answer = self.call("GET", "/v1/players/me/clubs", token=token)
        assert answer.status == 200, answer.body
        return [club["id"] for club in answer.body["clubs"]]


def rate(handle: str, name: str, game: str, value: float, games: int) -> None:
    """A stored rating of the player whose handle (what the API shows) is ``handle``."""
    from common.players.handles import player_id_of
    from common.ratings import glicko2
    from games.ratings.domain import GameRating
    from games.ratings.repository import RatingStore

    rating = GameRating(player_id_of(handle), game, name, glicko2.Rating(value, 60.0, 0.06), games, version=1)
    assert RatingStore().save(rating, 0)


def run_club(api: Api, clubs: ClubsApi) -> None:
    asha, baraka, chausiku = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Chausiku")
    made = clubs.make(asha["token"], game="chess")
    invite = made["invite"]
    assert made["members_count"] == 1 and made["owner_is_you"] and made["game"] == "chess"
    assert invite.startswith(made["id"] + "-") and len(invite) == 13
    # A stranger sees the name and the size, no invite, members or boards.
    seen = clubs.call("GET", f"/v1/clubs/{made['id']}", token=baraka["token"]).body
    assert seen["member"] is False and seen["invite"] is None and seen["members"] == [] and seen["boards"] == {}
    assert seen["name"] == "Simba wa Ubao" and seen["members_count"] == 1
    wrong = clubs.join(baraka["token"], made["id"] + "-" + ("ABCDEF" if invite[-6:] != "ABCDEF" else "ABCDEG"))
    assert wrong.status == 403 and wrong.code == "wrong_club_code"
    joined = clubs.join(baraka["token"], invite)
    assert joined.status == 201 and joined.body["member"] and joined.body["members_count"] == 2
    assert clubs.join(baraka["token"], invite).status == 200  # again: nothing changes
    assert [m["name"] for m in joined.body["members"]] == ["Asha", "Baraka"]
    # The owner renews the code: the old invite opens nothing, the new one does.
    refused = clubs.call("POST", f"/v1/clubs/{made['id']}/code", token=baraka["token"])
    assert refused.status == 403 and refused.code == "not_club_owner"
    renewed = clubs.call("POST", f"/v1/clubs/{made['id']}/code", token=asha["token"]).body
    assert renewed["invite"] != invite and renewed["members_count"] == 2
    stale = clubs.join(chausiku["token"], invite)
    assert stale.status == 403 and stale.code == "wrong_club_code"
    assert clubs.join(chausiku["token"], renewed["invite"]).status == 201
    # The members' leaderboard of the club's game, best first; only members with a rating in it.
    rate(baraka["player_id"], "Baraka", "chess", 1612.4, 12)
    rate(asha["player_id"], "Asha", "chess", 1540.0, 20)
    rate(asha["player_id"], "Asha", "english", 1700.0, 20)
    board = clubs.call("GET", f"/v1/clubs/{made['id']}", token=chausiku["token"]).body["boards"]
    assert list(board) == ["chess"]
    assert [(row["name"], row["rating"]) for row in board["chess"]] == [("Baraka", 1612), ("Asha", 1540)]
    # The owner removes Chausiku; Baraka leaves; the owner stays while others are in, then closes it.
    path = f"/v1/clubs/{made['id']}/members/{chausiku['player_id']}"
    assert clubs.call("DELETE", path, token=baraka["token"]).code == "not_club_owner"
    assert clubs.call("DELETE", path, token=asha["token"]).status == 200
    assert clubs.call("DELETE", path, token=asha["token"]).code == "not_club_member"
    assert clubs.mine(chausiku["token"]) == []
    assert clubs.call("GET", f"/v1/clubs/{made['id']}", token=chausiku["token"]).body["member"] is False
    stays = clubs.call("POST", f"/v1/clubs/{made['id']}/leave", token=asha["token"])
    assert stays.status == 409 and stays.code == "owner_stays_in_club"
    assert clubs.mine(baraka["token"]) == [made["id"]]
    assert clubs.call("POST", f"/v1/clubs/{made['id']}/leave", token=baraka["token"]).body == {
        "left": True,
        "closed": False,
    }
    assert clubs.mine(baraka["token"]) == []
    closed = clubs.call("POST", f"/v1/clubs/{made['id']}/leave", token=asha["token"])
    assert closed.status == 200 and closed.body["closed"] is True
    assert clubs.call("GET", f"/v1/clubs/{made['id']}").code == "club_not_found"
    assert clubs.mine(asha["token"]) == []


def test_a_club_from_making_to_closing(api, clubs):
    run_club(api, ClubsApi(clubs))


def test_the_same_on_dynalite(dynalite_tables, handler, clubs):
    run_club(Api(handler), ClubsApi(clubs))


def test_a_player_is_in_at_most_twenty_clubs(api, clubs, clock):
    clubs = ClubsApi(clubs)
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    invites = []
    for number in range(20):
        invites.append(clubs.make(asha["token"], name=f"Klabu {number}")["invite"])
        clock.advance(30)
    refused = clubs.call("POST", "/v1/clubs", {"name": "Ya 21", "game": "chess"}, token=asha["token"])
    assert refused.status == 409 and refused.code == "too_many_clubs"
    for invite in invites:
        assert clubs.join(baraka["token"], invite).status == 201
        clock.advance(30)
    other = clubs.make(api.new_player("Chausiku")["token"])
    full = clubs.join(baraka["token"], other["invite"])
    assert full.status == 409 and full.code == "too_many_clubs"
    assert len(clubs.mine(baraka["token"])) == 20 and len(clubs.mine(asha["token"])) == 20
    clubs.call("POST", f"/v1/clubs/{invites[0].split('-')[0]}/leave", token=baraka["token"])
    clock.advance(30)
    assert clubs.join(baraka["token"], other["invite"]).status == 201


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Simba", "game": "checkers"}, "game"),
        ({"name": "", "game": "chess"}, "name"),
        ({"name": "Simba", "game": "chess", "owner": "x"}, "owner"),
        ({"name": 5, "game": "chess"}, "name"),
        ({"game": "chess"}, "name"),
    ],
)
def test_bad_clubs_are_refused_and_nothing_is_stored(api, clubs, body, field):
    clubs = ClubsApi(clubs)
    asha = api.new_player("Asha")
    answer = clubs.call("POST", "/v1/clubs", body, token=asha["token"])
    assert answer.status == 422 and field in answer.body["error"]["message"]
    assert clubs.mine(asha["token"]) == []


def test_bad_names_codes_and_ids_are_refused(api, clubs):
    clubs = ClubsApi(clubs)
    asha = api.new_player("Asha")
    answer = clubs.call("POST", "/v1/clubs", {"name": "Аsha club", "game": "chess"}, token=asha["token"])
    assert answer.status == 422 and answer.code == "invalid_name"  # a Cyrillic А among Latin letters
    made = clubs.make(asha["token"])
    bad_code = clubs.call("POST", f"/v1/clubs/{made['id']}/join", {"code": "abc"}, token=asha["token"])
    assert bad_code.status == 422
    assert clubs.call("GET", "/v1/clubs/nope").code == "club_not_found"
    assert clubs.call("POST", "/v1/clubs", {"name": "Simba", "game": "chess"}).status == 401
