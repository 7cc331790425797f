"""NotifyFunction's role allows every DynamoDB call it makes on the games table's stream (moto checks no IAM:
``tests.iam``): the moves, a mate, a draw offer, a resignation and a takeover of ``test_notify``, each batch
of records recorded as the function handles it."""

from __future__ import annotations

from tests.iam import denied, grants, recording
from tests.push import test_notify as flows


def test_every_call_of_the_notify_stream_is_allowed_by_its_role(games_api, push_api, push_service, notify, clock):
    records = flows.Stream(notify)
    calls = recording(records, "deliver")
    flows.test_kinds_are_respected_and_game_over_goes_to_both(games_api, push_api, push_service, records)
    flows.test_draw_offer_resignation_and_takeover(games_api, push_api, push_service, records, clock)
    assert {table for _, table, _ in calls} >= {"GamesTable", "PushTable"}
    assert denied(calls, grants("NotifyFunction")) == set()
