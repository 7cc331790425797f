"""A finished rated game is sent for review by itself: the notify function reads the ending event from the
stream and stores the review pending, once, as a player's request would (notify/service/reviews.py)."""

from __future__ import annotations

import pytest

from tests.push.test_notify import Stream
from tests.review.conftest import RecordingQueue


@pytest.fixture
def reviewing(notify):
    from common.reviews.repository import DynamoReviews
    from notify.handler import stream

    queue = RecordingQueue()
    reviews = DynamoReviews()
    pushes = notify.parts.pushes
    handler = stream.create_handler(sender=pushes.sender, clock=pushes.clock, reviews=reviews, review_queue=queue)
    return reviews, queue, handler


def finished_game(games_api, rated: bool) -> tuple[str, dict[str, str]]:
    asha, baraka = games_api.new_player("Asha"), games_api.new_player("Baraka")
    created = games_api.create(asha["token"], "chess", "white", rated=rated)
    game_id = created.body["game"]["id"]
    assert games_api.join(baraka["token"], game_id, created.body["invite"]["code"]).status == 200
    seats = {"white": asha["token"], "black": baraka["token"]}
    games_api.play(game_id, seats, ["f3", "e5", "g4", "Qh4#"])
    return game_id, seats


def test_a_rated_game_that_ends_is_reviewed_by_itself_once(games_api, notify, reviewing):
    reviews, queue, handler = reviewing
    stream = Stream(handler)
    game_id, seats = finished_game(games_api, rated=True)
    # A rematch offered before the stream reads the mate: the mate is still the event that ended the game.
    offered = games_api.call("POST", f"/v1/games/{game_id}/rematch", token=seats["white"])
    assert offered.status == 200, offered.body
    records = stream.records()
    stream.deliver(records)
    stored = reviews.get(game_id)
    assert stored is not None and stored.status == "pending"
    assert queue.sent == [game_id]
    stream.deliver(records)  # the stream delivers again: nothing more is asked
    assert queue.sent == [game_id]


def test_a_casual_game_is_reviewed_only_when_a_player_asks(games_api, notify, reviewing):
    reviews, queue, handler = reviewing
    stream = Stream(handler)
    game_id, _ = finished_game(games_api, rated=False)
    stream.flush()
    assert reviews.get(game_id) is None and queue.sent == []
