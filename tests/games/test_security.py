"""Tokens and invite codes: a missing, wrong or other player's token is refused with nothing written, and no
response ever shows a token, a token hash or an invite code to anyone but their owner."""

from __future__ import annotations

import base64
import hashlib

import pytest

from tests.games.client import snapshot

ACTIONS = [
    ("POST", "moves", {"move": "e5", "ply": 1}),
    ("POST", "resign", None),
    ("POST", "draw", {"action": "offer"}),
    ("POST", "claim-timeout", None),
    ("POST", "rematch", None),
]


@pytest.fixture
def started(api):
    game_id, seats = api.start_game()
    api.move(seats["white"], game_id, "e4", 0)
    return game_id, seats


@pytest.mark.parametrize(("method", "action", "body"), ACTIONS)
def test_no_token_or_a_malformed_one_is_401(api, started, method, action, body):
    game_id, _ = started
    before = snapshot()
    for headers in (
        {},
        {"authorization": "Bearer"},
        {"authorization": "Bearer nonsense"},
        {"authorization": "Token ubao_" + "A" * 43},
    ):
        answer = api.call(method, f"/v1/games/{game_id}/{action}", body, headers=headers)
        assert answer.status == 401 and answer.code == "unauthorized", (headers, answer.body)
    assert snapshot() == before


@pytest.mark.parametrize(("method", "action", "body"), ACTIONS)
def test_a_token_without_a_seat_is_403(api, started, method, action, body):
    game_id, seats = started
    outsider = api.new_player()["token"]
    unknown = "ubao_" + "B" * 43  # well formed, belongs to no one
    before = snapshot()
    for token in (outsider, unknown):
        answer = api.call(method, f"/v1/games/{game_id}/{action}", body, token=token)
        assert answer.status == 403 and answer.code == "not_a_player", answer.body
    assert snapshot() == before


def test_the_other_players_token_cannot_move_for_them(api, started):
    game_id, seats = started
    before = snapshot()
    answer = api.move(seats["white"], game_id, "e5", 1)  # Black's move, White's token
    assert answer.status == 403 and answer.code == "not_your_turn"
    assert snapshot() == before


def test_join_and_create_with_an_unknown_token_are_401(api):
    creator = api.new_player()
    created = api.create(creator["token"], "english")
    before = snapshot()
    unknown = "ubao_" + "C" * 43
    answer = api.join(unknown, created.body["game"]["id"], created.body["invite"]["code"])
    assert answer.status == 401 and answer.code == "unauthorized"
    assert api.call("POST", "/v1/games", {"game": "chess"}, token=unknown).status == 401
    assert api.call("GET", "/v1/players/me/games", token=unknown).status == 401
    assert snapshot() == before


def test_no_response_shows_a_secret_to_anyone_else(api, clock):
    creator, friend, spectator = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Chiku")
    created = api.create(creator["token"], "chess", "white")
    game_id, invite = created.body["game"]["id"], created.body["invite"]["code"]
    secrets = {creator["token"], friend["token"], spectator["token"], invite}
    for token in (creator["token"], friend["token"]):
        digest = hashlib.sha256(token.encode()).digest()
        secrets |= {digest.hex(), base64.b64encode(digest).decode(), base64.urlsafe_b64encode(digest).decode()}
    secrets |= {
        hashlib.sha256(invite.encode()).hexdigest(),
        base64.b64encode(hashlib.sha256(invite.encode()).digest()).decode(),
    }
    secrets |= {secret[5:] for secret in secrets if secret.startswith("ubao_")}

    seen = []
    seen.append(api.get(game_id))  # a spectator before the join
    seen.append(api.join(spectator["token"], game_id, "guess"))
    seen.append(api.join(friend["token"], game_id, invite))
    seen.append(api.join(spectator["token"], game_id, invite))
    seen.append(api.move(creator["token"], game_id, "e4", 0))
    seen.append(api.move(friend["token"], game_id, "e4", 1))
    seen.append(api.move(spectator["token"], game_id, "e5", 1))
    seen.append(api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=friend["token"]))
    seen.append(api.get(game_id))
    seen.append(api.call("GET", f"/v1/games/{game_id}/export"))
    seen.append(api.call("GET", "/v1/players/me/games", token=creator["token"]))
    seen.append(api.call("GET", "/v1/players/me/games", token=friend["token"]))
    clock.advance(days=5)
    seen.append(api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=creator["token"]))
    seen.append(api.call("POST", f"/v1/games/{game_id}/rematch", token=friend["token"]))
    seen.append(api.get(seen[-1].body["game"]["id"]))
    for answer in seen:
        text = answer.text + repr(answer.headers)
        leaked = [secret for secret in secrets if secret in text]
        assert not leaked, (answer.status, answer.text)
