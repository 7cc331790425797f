"""Rematches by consent and blocks, through the games handler on moto: an offer creates nothing until the
opponent accepts; declines, withdrawals, retries; blocks refuse offers and joins; nothing is written on a
refusal."""

from __future__ import annotations

import os

from tests.games.client import snapshot
from tests.games.test_games_api import assert_refused


def rematch(api, game_id: str, token: str, action: str | None = None):
    return api.call("POST", f"/v1/games/{game_id}/rematch", {"action": action} if action else None, token=token)


def finished_game(api, **options):
    game_id, seats = api.start_game(**options)
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"]).status == 200
    return game_id, seats


def games_in_store() -> set[str]:
    return {item["pk"] for item in snapshot()[os.environ["GAMES_TABLE"]] if item["sk"] == "H"}


def test_an_offer_creates_nothing_until_the_opponent_accepts(api):
    game_id, seats = api.start_game()
    white_id = api.get(game_id).body["players"]["white"]["player_id"]
    assert_refused(rematch(api, game_id, seats["white"]), 409, "game_not_finished")
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
    assert_refused(rematch(api, game_id, api.new_player()["token"]), 403, "not_a_player")
    before = games_in_store()
    offered = rematch(api, game_id, seats["white"])
    assert offered.status == 200 and offered.body["game"]["id"] == game_id and offered.body["seat"] == "white"
    assert offered.body["game"]["rematch_offer"] == "white" and offered.body["game"]["rematch"] is None
    assert games_in_store() == before  # no game until the opponent says yes
    assert rematch(api, game_id, seats["white"]).body["game"]["rematch_offer"] == "white"  # a retry: the same
    assert_refused(rematch(api, game_id, seats["white"], "accept"), 409, "no_rematch_offer")  # not one's own
    made = rematch(api, game_id, seats["black"], "accept")
    assert made.status == 201 and made.body["seat"] == "white"  # colours swapped
    new = made.body["game"]
    assert new["state"] == "active" and new["rematch_of"] == game_id
    assert new["players"]["black"]["player_id"] == white_id and new["deadline"] is not None
    assert new["options"] == api.get(game_id).body["options"]  # the old game's options
    old = api.get(game_id).body
    assert old["rematch"] == new["id"] and old["rematch_offer"] is None
    again = rematch(api, game_id, seats["black"], "accept")
    assert again.status == 200 and again.body["game"]["id"] == new["id"]
    assert rematch(api, game_id, seats["white"]).body["game"]["id"] == new["id"]
    assert games_in_store() == before | {new["id"]}


def test_offering_while_the_opponents_offer_stands_accepts_it(api):
    game_id, seats = finished_game(api)
    rematch(api, game_id, seats["black"])
    made = rematch(api, game_id, seats["white"])
    assert made.status == 201 and made.body["game"]["rematch_of"] == game_id


def test_a_declined_offer_is_told_to_the_offerer_and_may_be_made_again(api):
    game_id, seats = finished_game(api)
    assert_refused(rematch(api, game_id, seats["black"], "decline"), 409, "no_rematch_offer")
    rematch(api, game_id, seats["white"])
    declined = rematch(api, game_id, seats["black"], "decline")
    assert declined.status == 200 and declined.body["game"]["id"] == game_id
    seen = api.get(game_id).body  # what the offerer's page shows
    assert seen["rematch_offer"] is None and seen["rematch_declined"] == "white" and seen["rematch"] is None
    assert rematch(api, game_id, seats["black"], "decline").status == 200  # a retry
    assert_refused(rematch(api, game_id, seats["black"], "accept"), 409, "no_rematch_offer")
    again = rematch(api, game_id, seats["white"]).body["game"]
    assert again["rematch_offer"] == "white" and again["rematch_declined"] is None


def test_the_offerer_may_withdraw(api):
    game_id, seats = finished_game(api)
    before = games_in_store()
    rematch(api, game_id, seats["white"])
    withdrawn = rematch(api, game_id, seats["white"], "withdraw")
    assert withdrawn.status == 200 and withdrawn.body["game"]["rematch_offer"] is None
    assert rematch(api, game_id, seats["white"], "withdraw").status == 200  # nothing stands: nothing to do
    assert_refused(rematch(api, game_id, seats["black"], "accept"), 409, "no_rematch_offer")
    assert games_in_store() == before


def test_a_bad_action_is_refused_and_writes_nothing(api):
    game_id, seats = finished_game(api)
    before = snapshot()
    assert_refused(rematch(api, game_id, seats["white"], "insist"), 422, "invalid_request")
    assert snapshot() == before


def test_the_rematch_keeps_colours_options_and_start_when_asked(api):
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    game_id, seats = api.start_game("chess", fen=fen, options={"swap_colors": False, "days_per_move": 7})
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])
    rematch(api, game_id, seats["black"])
    made = rematch(api, game_id, seats["white"], "accept")
    assert made.body["seat"] == "white"
    new = api.get(made.body["game"]["id"]).body
    assert new["start_fen"] == fen and new["options"]["days_per_move"] == 7 and new["options"]["swap_colors"] is False


# ------------------------------------------------------------------------------------------- blocks
def block(api, token: str, game_id: str):
    return api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=token)


def test_a_block_refuses_rematch_offers_both_ways_and_joins(api):
    game_id, seats = finished_game(api)
    made = block(api, seats["black"], game_id)
    assert made.status == 201 and made.body["game"] == game_id and made.body["name"] == "Asha"
    assert "player_id" not in made.body and api.get(game_id).body["players"]["white"]["player_id"] not in made.text
    assert block(api, seats["black"], game_id).body["id"] == made.body["id"]  # the same block again
    before = snapshot()
    assert_refused(rematch(api, game_id, seats["white"]), 403, "player_blocked")
    assert_refused(rematch(api, game_id, seats["black"]), 403, "player_blocked")
    assert snapshot() == before
    # A new game of the blocker's own: the blocked player cannot take its seat.
    created = api.create(seats["black"], "chess", "white")
    invite = created.body["invite"]["code"]
    new_id = created.body["game"]["id"]
    before = snapshot()
    assert_refused(api.join(seats["white"], new_id, invite), 403, "player_blocked")
    assert snapshot() == before
    assert api.join(api.new_player()["token"], new_id, invite).status == 200  # anyone else may


def test_blocks_are_listed_without_player_ids_and_removed_by_id(api):
    game_id, seats = finished_game(api)
    white_id = api.get(game_id).body["players"]["white"]["player_id"]
    made = block(api, seats["black"], game_id).body
    listed = api.call("GET", "/v1/players/me/blocks", token=seats["black"])
    assert listed.status == 200 and [item["id"] for item in listed.body["blocks"]] == [made["id"]]
    assert white_id not in listed.text and set(listed.body["blocks"][0]) == {"id", "name", "game", "created_at"}
    assert api.call("GET", "/v1/players/me/blocks", token=seats["white"]).body == {"blocks": []}
    assert_refused(
        api.call("DELETE", f"/v1/players/me/blocks/{made['id']}", token=seats["white"]), 404, "block_not_found"
    )
    removed = api.call("DELETE", f"/v1/players/me/blocks/{made['id']}", token=seats["black"])
    assert removed.status == 204
    assert_refused(
        api.call("DELETE", f"/v1/players/me/blocks/{made['id']}", token=seats["black"]), 404, "block_not_found"
    )
    assert rematch(api, game_id, seats["white"]).status == 200  # offers are possible again


def test_a_block_needs_a_seat_and_a_person_opposite(api):
    game_id, seats = finished_game(api)
    stranger = api.new_player()["token"]
    before = snapshot()
    assert_refused(block(api, stranger, game_id), 403, "not_a_player")
    assert_refused(block(api, seats["white"], "nosuchgame00"), 404, "game_not_found")
    assert_refused(block(api, seats["white"], "not an id"), 422, "invalid_request")
    waiting = api.create(stranger, "chess", "white").body["game"]["id"]
    cpu = api.call("POST", "/v1/games", {"game": "chess", "opponent": {"type": "cpu", "level": 1}}, token=stranger)
    assert_refused(block(api, stranger, waiting), 409, "no_opponent")
    assert_refused(block(api, stranger, cpu.body["game"]["id"]), 409, "no_opponent")
    assert api.call("POST", "/v1/players/me/blocks", {"game": game_id}).status == 401
    players = os.environ["PLAYERS_TABLE"]
    assert snapshot()[players] == before[players]


def test_a_rematch_against_the_computer_needs_no_consent(api):
    token = api.new_player()["token"]
    created = api.call("POST", "/v1/games", {"game": "chess", "opponent": {"type": "cpu", "level": 1}}, token=token)
    game_id = created.body["game"]["id"]
    api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    made = rematch(api, game_id, token)
    assert made.status == 201 and made.body["game"]["rematch_of"] == game_id
