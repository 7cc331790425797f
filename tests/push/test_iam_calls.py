"""NotifyFunction's role allows every DynamoDB call it makes on the games table's stream (moto checks no IAM:
``tests.iam``): the moves, a mate, a draw offer, a resignation and a takeover of ``test_notify``, each batch
of records recorded as the function handles it."""

from __future__ import annotations

from tests.iam import denied, grants, recording
from tests.push import test_notify as flows


def test_every_call_of_the_notify_stream_is_allowed_by_its_role(games_api, push_api, push_service, notify, clock):
    records = flows.Stream(notify)
    calls = recording(records, "deliver")
    started = flows.started_game(games_api, records)
    flows.test_kinds_are_respected_and_game_over_goes_to_both(games_api, push_api, push_service, records, started)
    started = flows.started_game(games_api, records)
    flows.test_draw_offer_resignation_and_takeover(games_api, push_api, push_service, records, clock, started)
    assert {table for _, table, _ in calls} >= {"GamesTable", "PushTable"}
    assert denied(calls, grants("NotifyFunction")) == set()


def test_every_call_of_the_push_subscriptions_is_allowed_by_its_role(push_api, new_player, clock, monkeypatch):
    from tests.push import test_subscriptions_api as subscriptions

    monkeypatch.setattr(subscriptions, "call", subscriptions.call)  # put back after the test
    calls = recording(subscriptions)
    subscriptions.test_subscribe_list_and_unsubscribe(push_api, new_player, clock)
    subscriptions.test_a_player_keeps_the_ten_newest(push_api, new_player, clock)
    assert {table for _, table, _ in calls} >= {"PushTable", "PlayersTable"}
    assert denied(calls, grants("PushFunction")) == set()
