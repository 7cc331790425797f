"""Follows and friends through the community function on moto (and the main path on dynalite): follow from a game
or by id, friends are mutual, a block overrides everything, limits, and bad input refused with nothing written."""

from __future__ import annotations

import pytest
from common.players.handles import handle_of

from tests.games.client import Api, FunctionApi

FOLLOWS = "/v1/players/me/follows"


class Community(FunctionApi):
    function_name = "CommunityFunction"

    def __init__(self, function):
        super().__init__(function.create_app())

    def follows(self, token: str) -> dict:
        answer = self.call("GET", FOLLOWS, token=token)
        assert answer.status == 200, answer.body
        return answer.body


def two_players_in_a_game(api: Api):
    """Asha and Baraka seated in one chess game: (game id, asha, baraka) with tokens and ids."""
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(asha["token"], "chess", "white").body
    assert api.join(baraka["token"], created["game"]["id"], created["invite"]["code"]).status == 200
    return created["game"]["id"], asha, baraka


def run_friends(api: Api, community: Community) -> None:
    game_id, asha, baraka = two_players_in_a_game(api)
    made = community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"])
    assert made.status == 201 and made.body["player_id"] == baraka["player_id"]
    assert made.body["name"] == "Baraka" and made.body["friend"] is False
    again = community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"])
    assert again.status == 200 and again.body["since"] == made.body["since"]
    newcomer = api.new_player("Chausiku")
    unknown = community.call("POST", FOLLOWS, {"player": newcomer["player_id"]}, token=baraka["token"])
    assert unknown.status == 404  # no game and never on the community page: not followable by id yet
    assert community.follows(newcomer["token"])["player_id"] == newcomer["player_id"]  # now she is
    assert community.call("POST", FOLLOWS, {"player": newcomer["player_id"]}, token=baraka["token"]).status == 201
    assert community.call("DELETE", FOLLOWS, {"player": newcomer["player_id"]}, token=baraka["token"]).status == 200
    # Asha never opened the community page, but she has played: her profile's "follow" finds her by her game.
    back = community.call("POST", FOLLOWS, {"player": asha["player_id"]}, token=baraka["token"])
    assert back.status == 201 and back.body["friend"] is True
    for token, other in ((asha["token"], baraka), (baraka["token"], asha)):
        [listed] = community.follows(token)["follows"]
        assert listed["player_id"] == other["player_id"] and listed["friend"] is True
    gone = community.call("DELETE", FOLLOWS, {"player": baraka["player_id"]}, token=asha["token"])
    assert gone.status == 200
    assert community.call("DELETE", FOLLOWS, {"player": baraka["player_id"]}, token=asha["token"]).status == 404
    assert community.follows(asha["token"])["follows"] == []
    assert [item["friend"] for item in community.follows(baraka["token"])["follows"]] == [False]


def test_follow_from_a_game_and_by_id_makes_friends(api_on_each_store, community):
    run_friends(api_on_each_store, Community(community))


def test_a_block_overrides_every_follow(api, community):
    community = Community(community)
    game_id, asha, baraka = two_players_in_a_game(api)
    community.follows(asha["token"])
    assert community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"]).status == 201
    assert community.call("POST", FOLLOWS, {"player": asha["player_id"]}, token=baraka["token"]).status == 201
    assert api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=baraka["token"]).status == 201
    # Baraka blocked Asha: he no longer lists her; she no longer sees him, as a friend or at all.
    assert community.follows(baraka["token"])["follows"] == []
    assert community.follows(asha["token"])["follows"] == []
    refused = community.call("POST", FOLLOWS, {"player": asha["player_id"]}, token=baraka["token"])
    assert refused.status == 409 and refused.code == "you_blocked_player"
    again = community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"])
    assert again.status == 404 and again.code == "player_not_found"  # his block is not told


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 422, None),
        ({"player": "abc"}, 422, None),
        ({"player": "x" * 12, "game": "y" * 12}, 422, None),
        ({"game": "A" * 12}, 404, "game_not_found"),
        ({"player": "nobody12345"}, 404, "player_not_found"),
    ],
)
def test_bad_follows_are_refused_and_change_nothing(api, community, body, status, code):
    community = Community(community)
    asha = api.new_player("Asha")
    answer = community.call("POST", FOLLOWS, body, token=asha["token"])
    assert answer.status == status, answer.body
    assert code is None or answer.code == code
    assert community.follows(asha["token"])["follows"] == []


def test_following_yourself_or_a_game_not_yours_is_refused(api, community):
    community = Community(community)
    game_id, asha, _ = two_players_in_a_game(api)
    stranger = api.new_player("Chausiku")
    community.follows(asha["token"])
    me = community.call("POST", FOLLOWS, {"player": asha["player_id"]}, token=asha["token"])
    assert me.status == 409 and me.code == "cannot_follow_yourself"
    other = community.call("POST", FOLLOWS, {"game": game_id}, token=stranger["token"])
    assert other.status == 403 and other.code == "not_a_player"
    assert community.call("GET", FOLLOWS).status == 401


def test_follows_are_rate_limited(api, community):
    community = Community(community)
    game_id, asha, _ = two_players_in_a_game(api)
    statuses = [community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"]).status for _ in range(31)]
    assert statuses[:2] == [201, 200] and statuses[-1] == 429 and set(statuses[2:30]) == {200}


def test_feedback_is_kept_for_180_days_tied_to_no_player_and_limited(api, community, clock):
    from common.persistence import store
    from common.persistence.attributes import from_item

    community = Community(community)
    asha = api.new_player("Asha")
    body = {"category": "words", "text": "Neno 'kingi' ni zuri", "lang": "sw"}
    sent = community.call("POST", "/v1/feedback", body, token=asha["token"])
    assert sent.status == 201 and sent.body == {"received": True, "kept_days": 180}
    for bad in (
        {**body, "text": "x" * 1001},
        {**body, "text": "   "},
        {**body, "category": "spam"},
        {**body, "lang": "fr"},
    ):
        assert community.call("POST", "/v1/feedback", bad).status == 422
    items = [from_item(item) for item in store.client().scan(TableName="CommunityTable")["Items"]]
    [kept] = [item for item in items if item["pk"].startswith("feedback#")]
    assert kept["text"] == body["text"] and kept["expires"] == int(clock.now) + 180 * 86_400
    assert asha["player_id"] not in str(kept) and "token_hash" not in kept
    statuses = [community.call("POST", "/v1/feedback", body, token=asha["token"]).status for _ in range(5)]
    assert statuses == [201] * 4 + [429]  # five at once per player, then one every 10 minutes


def run_export(api: Api, community: Community) -> None:
    game_id, asha, baraka = two_players_in_a_game(api)
    community.follows(baraka["token"])
    assert community.call("POST", FOLLOWS, {"game": game_id}, token=asha["token"]).status == 201
    assert community.call("POST", FOLLOWS, {"game": game_id}, token=baraka["token"]).status == 201
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=baraka["token"]).status == 200
    answer = community.call("GET", "/v1/players/me/export", token=asha["token"])
    assert answer.status == 200 and "attachment" in answer.headers["content-disposition"]
    data = answer.body
    # The player's own stored item holds their id (their data, to them alone); every other player is a handle.
    assert handle_of(data["player"]["player_id"]) == asha["player_id"] and data["player"]["name"] == "Asha"
    assert "token_hash" not in answer.text and asha["token"] not in answer.text
    assert [(f["player_id"], f["name"]) for f in data["follows"]] == [(baraka["player_id"], "Baraka")]
    assert data["followers"] == [baraka["player_id"]]
    assert data["ratings"] == [] and data["push_subscriptions"] == []  # a casual game; no notifications asked
    [results] = data["results"]  # the casual game's win, as Asha's profile counts it
    assert (results["game"], results["wins"], results["draws"], results["losses"]) == ("chess", 1, 0, 0)
    assert results["counted"] == [[game_id, "win"]]
    assert community.call("GET", "/v1/players/me/export").status == 401


def test_download_my_data_has_what_is_stored_about_the_player(api, community):
    run_export(api, Community(community))


def test_download_my_data_on_dynalite(dynalite_tables, handler, community):
    run_export(Api(handler), Community(community))
