"""What keeps pushes wanted: none from a blocked player, a cap per sender with the rest folded into one, no
push sent before a rematch is accepted, and a sender that follows no redirect. End to end as in
test_notify: the games function writes, the stream feeds the notify function, the local push service
receives."""

from __future__ import annotations

from notify.service.gate import SENDER_CAP

from tests.push.test_notify import listed, stream, subscribe  # noqa: F401 - the stream fixture

#: Nine moves for each side, none repeating a position, none ending the game.
OPENING = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6", "Be3", "Be6", "Qd2", "Qd7", "a3", "a6"]
OPENING += ["h3", "h6"]


def test_a_blocked_player_sends_no_push(games_api, push_api, push_service, stream):  # noqa: F811
    game_id, seats = games_api.start_game()
    stream.flush()
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    blocked = games_api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=seats["black"])
    assert blocked.status == 201
    games_api.play(game_id, seats, ["e4", "e5", "Nf3"])
    assert stream.flush() == {"batchItemFailures": []}
    assert push_service.deliveries(black.endpoint) == []
    games_api.call("DELETE", f"/v1/players/me/blocks/{blocked.body['id']}", token=seats["black"])
    games_api.play(game_id, seats, ["Nc6", "Bc4"])
    stream.flush()
    push_service.wait_for(1)
    assert len(push_service.deliveries(black.endpoint)) == 1  # unblocked: heard again


def test_pushes_from_one_player_are_capped_then_folded_into_one(games_api, push_api, push_service, stream):  # noqa: F811
    game_id, seats = games_api.start_game()
    stream.flush()
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    white_id = games_api.get(game_id).body["players"]["white"]["player_id"]
    for white, black_reply in zip(OPENING[::2], OPENING[1::2], strict=True):  # nine notices in one minute
        games_api.play(game_id, seats, [white])
        stream.flush()  # before Black answers: a notice already answered is never sent
        games_api.play(game_id, seats, [black_reply])
    capacity = int(SENDER_CAP.capacity)
    push_service.wait_for(capacity + 1)
    tags = [delivery.json["tag"] for delivery in push_service.deliveries(black.endpoint)]
    assert tags == [f"game:{game_id}"] * capacity + [f"player:{white_id}"]


def test_a_rematch_offer_pushes_nothing_until_it_is_accepted(games_api, push_api, push_service, stream):  # noqa: F811
    game_id, seats = games_api.start_game()
    games_api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
    stream.flush()
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    for _ in range(3):
        games_api.call("POST", f"/v1/games/{game_id}/rematch", token=seats["white"])
        games_api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "withdraw"}, token=seats["white"])
    games_api.call("POST", f"/v1/games/{game_id}/rematch", token=seats["white"])
    games_api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "decline"}, token=seats["black"])
    assert stream.flush() == {"batchItemFailures": []}
    assert push_service.deliveries(white.endpoint) == push_service.deliveries(black.endpoint) == []


def test_a_redirect_is_never_followed(games_api, push_api, push_service, stream):  # noqa: F811
    game_id, seats = games_api.start_game()
    stream.flush()
    black = subscribe(push_api, push_service, seats["black"])
    elsewhere = push_service.subscribe()
    push_service.answer_with(black.endpoint, 307, location=elsewhere.endpoint)
    games_api.play(game_id, seats, ["e4"])
    assert stream.flush() == {"batchItemFailures": []}
    assert push_service.attempts[black.endpoint] == 1  # refused at once, not retried
    assert elsewhere.endpoint not in push_service.attempts and push_service.deliveries() == []
    assert len(listed(push_api, seats["black"])) == 1  # a refusal, not a gone subscription
