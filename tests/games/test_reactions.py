"""Reactions, not chat: in a game a player sends one of the fixed set (any other text is refused with 422 and
writes nothing); the other player sees it with the game's view and its ETag changes; mute per game; a block
either way keeps them out; rate-limited; never pushed. On moto, and the main path on dynalite; the fold on
memory."""

from __future__ import annotations

import pytest

from tests.games.client import Api, snapshot


def react(api: Api, token: str, game_id: str, reaction, path: str = "reactions"):
    return api.call("POST", f"/v1/games/{game_id}/{path}", {"reaction": reaction}, token=token)


def run_reactions(api: Api) -> None:
    game_id, seats = api.start_game()
    before = api.get(game_id)
    sent = react(api, seats["white"], game_id, "good_game")
    assert sent.status == 200 and sent.body == {"sent": True}
    assert react(api, seats["black"], game_id, "thanks").status == 200
    after = api.get(game_id, headers={"If-None-Match": before.headers["etag"]})
    assert after.status == 200 and after.headers["etag"] != before.headers["etag"]  # a poll brings them
    shown = [(item["by"], item["reaction"]) for item in after.body["reactions"]]
    assert shown == [("white", "good_game"), ("black", "thanks")]
    assert after.body["ply"] == 0 and after.body["turn"] == "white"  # a reaction is no move
    muted = api.call("POST", f"/v1/games/{game_id}/reactions/mute", {"muted": True}, token=seats["white"])
    assert muted.status == 200 and muted.body == {"muted": True}
    state = api.get(game_id).body
    assert state["reactions_muted"] == ["white"]
    assert [item["by"] for item in state["reactions"]] == ["white"]  # Black's are hidden from a muted White
    assert react(api, seats["black"], game_id, "wow").status == 200  # answered the same, and not written
    assert [item["reaction"] for item in api.get(game_id).body["reactions"]] == ["good_game"]
    api.call("POST", f"/v1/games/{game_id}/reactions/mute", {"muted": False}, token=seats["white"])
    assert [item["reaction"] for item in api.get(game_id).body["reactions"]] == ["good_game", "thanks"]


def test_reactions_reach_the_other_player_with_the_game(api):
    run_reactions(api)


def test_the_same_on_dynalite(dynalite_api):
    run_reactions(dynalite_api)


@pytest.mark.parametrize("reaction", ["Hello, call me on 0712 000 000", "Good game", "", 7, None, ["clap"]])
def test_free_text_is_refused_and_writes_nothing(api, reaction):
    game_id, seats = api.start_game()
    before = snapshot()
    refused = react(api, seats["white"], game_id, reaction)
    assert refused.status == 422, refused.body
    assert snapshot() == before


def test_only_the_players_react_and_never_across_a_block(api):
    game_id, seats = api.start_game()
    stranger = api.new_player("Chausiku")
    assert react(api, stranger["token"], game_id, "clap").status == 403
    assert react(api, seats["white"], "nosuchgame00", "clap").status == 404
    blocked = api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=seats["black"])
    assert blocked.status == 201
    refused = react(api, seats["black"], game_id, "clap")  # his own block: he is told
    assert refused.status == 409 and refused.body["error"]["code"] == "you_blocked_player"
    assert react(api, seats["white"], game_id, "clap").status == 200  # hers: answered, never shown to him
    assert api.get(game_id).body["reactions"] == []


def test_no_reaction_to_the_computer(api):
    me = api.new_player("Asha")
    created = api.create(me["token"], "chess", "white", opponent={"type": "cpu", "level": 1}).body
    refused = react(api, me["token"], created["game"]["id"], "thanks")
    assert refused.status == 409 and refused.body["error"]["code"] == "no_opponent"


def test_reactions_are_rate_limited(api):
    game_id, seats = api.start_game()
    statuses = [react(api, seats["white"], game_id, "clap").status for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    assert len(api.get(game_id).body["reactions"]) == 5
