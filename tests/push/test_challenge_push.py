"""A direct challenge reaches its receiver as a push in the language of their subscription, opening the
community page where it waits; a challenge to a player without a subscription is stored all the same. End to end:
the community function sends, the local push service receives and decrypts."""

from __future__ import annotations

import pytest

from tests.push.test_notify import stream, subscribe  # noqa: F401 - the stream fixture


@pytest.fixture
def community(aws, clock):
    from community import handler

    from tests.community.test_follows_api import Community
    from tests.fixtures import Function, on_clock

    return Community(Function(handler, on_clock(clock)))


def test_a_challenge_is_pushed_to_the_friend_in_their_language(games_api, push_api, push_service, community, catalogs):
    from notify.domain.texts import MESSAGES, translations

    from tests.community.test_challenges import challenge, friends

    asha, baraka = friends(games_api, community, "Asha", "Baraka")
    assert challenge(community, baraka, asha).status == 201  # Asha has no subscription: stored, no push
    phone = subscribe(push_api, push_service, baraka["token"], lang="tl")
    sent = challenge(community, asha, baraka, game="tanzanian")
    assert sent.status == 201
    push_service.wait_for(1)
    [delivery] = push_service.deliveries(phone.endpoint)
    tagalog = translations("tl").gettext
    assert delivery.json["title"] == tagalog("A challenge from a friend")
    assert delivery.json["body"] == tagalog(MESSAGES["challenged"][1]) % {
        "opponent": "Asha",
        "game": tagalog("Tanzanian draughts"),
    }
    assert delivery.json["url"] == f"/tl/jamii/#challenge={sent.body['id']}"
    assert delivery.json["tag"] == f"challenge:{sent.body['id']}"


def test_a_reaction_is_never_pushed(games_api, push_api, push_service, stream):  # noqa: F811
    game_id, seats = games_api.start_game()
    stream.flush()
    black = subscribe(push_api, push_service, seats["black"], lang="sw")
    sent = games_api.call("POST", f"/v1/games/{game_id}/reactions", {"reaction": "good_game"}, token=seats["white"])
    assert sent.status == 200
    assert stream.flush() == {"batchItemFailures": []}
    games_api.play(game_id, seats, ["e4"])  # a move after it is pushed: the stream works, the reaction was skipped
    stream.flush()
    push_service.wait_for(1)
    assert [delivery.json["kind"] for delivery in push_service.deliveries(black.endpoint)] == ["your_move"]
