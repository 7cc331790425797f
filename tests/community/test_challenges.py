"""Direct challenges through the community function on moto (and the main path on dynalite): a friend accepts
(the game is made, once, with both seats) or declines; a challenge lapses after 24 h; only friends; a block
either way overrides it; limits; bad input refused with nothing written. The friends strip shows who plays."""

from __future__ import annotations

import pytest

from tests.community.test_follows_api import FOLLOWS, Community
from tests.games.client import Api

CHALLENGES = "/v1/players/me/challenges"


def friends(api: Api, community: Community, *names: str) -> list[dict]:
    """Players who follow the first and whom the first follows (each opened the community page first)."""
    players = [api.new_player(name) for name in names]
    for player in players:
        community.follows(player["token"])
    for player in players:
        for other in players:
            if other is not player and players[0] in (player, other):
                made = community.call("POST", FOLLOWS, {"player": other["player_id"]}, token=player["token"])
                assert made.status == 201, made.body
    return players


def challenge(community: Community, sender: dict, receiver: dict, **extra):
    body = {"player": receiver["player_id"], "game": "chess", "color": "white", **extra}
    return community.call("POST", CHALLENGES, body, token=sender["token"])


def answer(community: Community, player: dict, challenge_id: str, action: str):
    return community.call("POST", f"{CHALLENGES}/{challenge_id}", {"action": action}, token=player["token"])


def listing(community: Community, player: dict) -> dict:
    found = community.call("GET", CHALLENGES, token=player["token"])
    assert found.status == 200, found.body
    return found.body


def run_accept(api: Api, community: Community) -> None:
    asha, baraka = friends(api, community, "Asha", "Baraka")
    sent = challenge(community, asha, baraka, game="english", options={"days_per_move": 2})
    assert sent.status == 201, sent.body
    assert sent.body["status"] == "open" and sent.body["game_id"] is None
    assert sent.body["options"]["days_per_move"] == 2 and sent.body["lapses"] - sent.body["at"] == 24 * 3_600_000
    [waiting] = listing(community, baraka)["received"]
    assert waiting["id"] == sent.body["id"] and waiting["sender"] == {"player_id": asha["player_id"], "name": "Asha"}
    accepted = answer(community, baraka, sent.body["id"], "accept")
    assert accepted.status == 200 and accepted.body["status"] == "accepted"
    game_id = accepted.body["game_id"]
    again = answer(community, baraka, sent.body["id"], "accept")
    assert again.status == 200 and again.body["game_id"] == game_id  # a retry: the same game, made once
    game = api.get(game_id).body
    assert game["state"] == "active" and game["game"] == "english" and game["options"]["days_per_move"] == 2
    assert game["players"]["white"]["player_id"] == asha["player_id"]  # she asked for white
    assert game["players"]["black"]["player_id"] == baraka["player_id"]
    assert listing(community, baraka)["received"] == []
    [mine] = listing(community, asha)["sent"]
    assert mine["status"] == "accepted" and mine["game_id"] == game_id
    moved = api.move(baraka["token"], game_id, "11-15", 0)  # black moves first in English draughts
    assert moved.status == 200, moved.body
    strip = community.call("GET", "/v1/players/me/friends", token=baraka["token"])
    assert strip.status == 200 and strip.body["friends"] == [
        {"player_id": asha["player_id"], "name": "Asha", "playing": game_id}
    ]


def test_a_friend_accepts_and_they_play(api_on_each_store, community):
    run_accept(api_on_each_store, Community(community))


def test_a_declined_or_withdrawn_challenge_makes_no_game(api, community):
    community = Community(community)
    asha, baraka = friends(api, community, "Asha", "Baraka")
    first = challenge(community, asha, baraka).body
    assert challenge(community, asha, baraka).code == "already_challenged"
    declined = answer(community, baraka, first["id"], "decline")
    assert declined.status == 200 and declined.body["status"] == "declined" and declined.body["game_id"] is None
    assert answer(community, baraka, first["id"], "decline").status == 200  # the same answer again
    late = answer(community, baraka, first["id"], "accept")
    assert late.status == 409 and late.code == "challenge_closed"
    assert listing(community, asha)["sent"][0]["status"] == "declined"
    second = challenge(community, asha, baraka).body  # declined: she may ask again
    assert answer(community, baraka, second["id"], "withdraw").code == "challenge_not_found"  # not his to withdraw
    assert answer(community, asha, second["id"], "accept").code == "challenge_not_found"  # not hers to accept
    assert answer(community, asha, second["id"], "withdraw").body["status"] == "withdrawn"
    assert answer(community, baraka, second["id"], "accept").code == "challenge_closed"
    assert listing(community, baraka)["received"] == []


def test_a_challenge_lapses_after_24_hours(api, community, clock):
    community = Community(community)
    asha, baraka = friends(api, community, "Asha", "Baraka")
    sent = challenge(community, asha, baraka).body
    clock.advance(23.9 * 3600)
    assert [item["id"] for item in listing(community, baraka)["received"]] == [sent["id"]]
    clock.advance(0.1 * 3600)
    assert listing(community, baraka)["received"] == []
    assert listing(community, asha)["sent"][0]["status"] == "lapsed"
    late = answer(community, baraka, sent["id"], "accept")
    assert late.status == 409 and late.code == "challenge_closed"
    assert challenge(community, asha, baraka).status == 201  # lapsed: she may ask again


def test_only_friends_and_never_across_a_block(api, community):
    community = Community(community)
    asha, baraka = friends(api, community, "Asha", "Baraka")
    stranger = api.new_player("Chausiku")
    community.follows(stranger["token"])
    assert community.call("POST", FOLLOWS, {"player": asha["player_id"]}, token=stranger["token"]).status == 201
    one_way = challenge(community, stranger, asha)  # she follows Asha, Asha does not follow her
    assert one_way.status == 403 and one_way.code == "not_a_friend"
    assert challenge(community, asha, asha).code == "not_a_friend"
    sent = challenge(community, asha, baraka).body
    created = api.create(asha["token"], "chess", "white").body
    assert api.join(baraka["token"], created["game"]["id"], created["invite"]["code"]).status == 200
    assert api.call("POST", "/v1/players/me/blocks", {"game": created["game"]["id"]}, token=asha["token"]).status == 201
    # Asha blocked Baraka: her open challenge can no longer be accepted, nor can he challenge her; she cannot
    # challenge him (she is told: it is her own block).
    assert listing(community, baraka)["received"] == []
    assert answer(community, baraka, sent["id"], "accept").code == "challenge_not_found"
    assert challenge(community, baraka, asha).code == "not_a_friend"
    assert challenge(community, asha, baraka).code == "you_blocked_player"  # her own block: she is told


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "go"}, None),
        ({"color": "red"}, None),
        ({"options": {"days_per_move": 99}}, None),
        ({"rated": "yes"}, None),
        ({"surprise": 1}, None),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(api, community, body, code):
    community = Community(community)
    asha, baraka = friends(api, community, "Asha", "Baraka")
    refused = challenge(community, asha, baraka, **body)
    assert refused.status == 422, refused.body
    assert listing(community, asha)["sent"] == [] and listing(community, baraka)["received"] == []
    assert answer(community, baraka, "nothing-here", "accept").status == 404
    assert answer(community, baraka, "nothing-here", "maybe").status == 422


def test_challenges_are_limited(api, community):
    community = Community(community)
    asha, *others = friends(api, community, "Asha", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11")
    statuses = [challenge(community, asha, other).status for other in others]
    assert statuses == [201] * 10 + [429]  # ten at once, then one a minute
