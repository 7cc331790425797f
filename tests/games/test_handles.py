"""Public handles (issue 39, docs/games.md "Public handles"): a player's id never leaves the server; every answer
shows the player's handle, and every route that takes a player takes the handle. Pure, then through the games
and community functions on moto: the id, read from the players table, is in no answer of a game played, the
leaderboard, a profile, a history or the follows."""

from __future__ import annotations

import secrets

import pytest
from common.players.handles import KEY_VARIABLE, handle_of, player_id_of
from common.players.repository import PlayerStore
from common.players.service import PLAYER_ID_BYTES, hash_token
from hypothesis import given
from hypothesis import strategies as st

from tests.community.test_follows_api import FOLLOWS, Community
from tests.games.test_fair_play import post
from tests.games.test_ratings_api import rated_game

ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@given(st.text(ID_LETTERS, min_size=12, max_size=12))
def test_a_handle_turns_back_into_its_id_and_is_not_it(player_id):
    handle = handle_of(player_id)
    assert len(handle) == 12 and set(handle) <= set(ID_LETTERS)
    assert player_id_of(handle) == player_id and handle_of(player_id_of(player_id)) == player_id


def test_handles_differ_from_ids_and_depend_on_the_deployments_key(monkeypatch):
    ids = [secrets.token_urlsafe(PLAYER_ID_BYTES) for _ in range(200)]
    handles = [handle_of(player_id) for player_id in ids]
    assert len(set(handles)) == len(ids) and not set(handles) & set(ids)
    monkeypatch.setenv(KEY_VARIABLE, "another deployment's key")
    assert all(handle_of(player_id) != handle for player_id, handle in zip(ids, handles, strict=True))
    assert handle_of("cpu") == "cpu" == player_id_of("cpu")  # the computer's seat is shown as it is


def stored_id(token: str) -> str:
    record = PlayerStore().get(hash_token(token))
    assert record is not None
    return record.player_id


@pytest.fixture
def community(moto_tables, clock):
    from community import handler

    from tests.fixtures import Function, on_clock

    return Community(Function(handler, on_clock(clock)))


def test_no_answer_carries_a_players_id(api, community):
    game_id, tokens, handles = rated_game(api)
    ids = {color: stored_id(token) for color, token in tokens.items()}
    assert all(handles[color] == handle_of(ids[color]) != ids[color] for color in ids)
    seen = [
        post(api, game_id, "resign", tokens["black"]),
        api.move(tokens["white"], game_id, "a3", 4),  # a 409 carries the game as it stands
        api.get(game_id),
        api.call("GET", "/v1/players/me", token=tokens["white"]),
        api.call("GET", "/v1/players/me/games", token=tokens["white"]),
        api.call("GET", "/v1/players/me/history", token=tokens["white"]),
        api.call("GET", f"/v1/players/{handles['black']}/games"),
        api.call("GET", "/v1/leaderboard", query={"game": "chess"}),
        community.call("POST", FOLLOWS, {"game": game_id}, token=tokens["white"]),
        community.call("GET", FOLLOWS, token=tokens["white"]),
    ]
    profile = api.call("GET", f"/v1/players/{handles['black']}")
    seen.append(profile)
    assert seen[1].status == 409 and seen[1].body["game"]["players"]["white"]["player_id"] == handles["white"]
    assert all(answer.status in (200, 201) for answer in seen[:1] + seen[2:]), [answer.body for answer in seen]
    texts = "\n".join(answer.text for answer in seen)
    assert ids["white"] not in texts and ids["black"] not in texts
    # "Download my data" is the owner's: their own id is in it, the opponent's never (nor a follow's).
    export = community.call("GET", "/v1/players/me/export", token=tokens["white"])
    assert ids["white"] in export.text and ids["black"] not in export.text and handles["black"] in export.text
    # The routes that take a player take the handle: the profile, the games, the history's opponent, a follow.
    assert profile.body["id"] == handles["black"] and profile.body["name"] == "Baraka"
    assert [game["id"] for game in profile.body["recent"]] == [game_id]
    assert api.call("GET", f"/v1/players/{ids['black']}").status == 404  # an id names nobody
    mine = api.call("GET", "/v1/players/me/history", query={"opponent": handles["black"]}, token=tokens["white"])
    assert [game["opponent"]["id"] for game in mine.body["games"]] == [handles["black"]]
    baraka_follows = community.follows(tokens["black"])
    assert baraka_follows["player_id"] == handles["black"]
    made = community.call("POST", FOLLOWS, {"player": handles["white"]}, token=tokens["black"])
    assert made.status == 201 and made.body["player_id"] == handles["white"] and made.body["friend"] is True
    gone = community.call("DELETE", FOLLOWS, {"player": handles["white"]}, token=tokens["black"])
    assert gone.status == 200
