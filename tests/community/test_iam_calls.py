"""CommunityFunction's role allows every DynamoDB call its routes make (moto checks no IAM: ``tests.iam``): follows
and friends, challenges accepted (casual and rated) and played, "Download my data" and "Delete my data" of a player with games,
ratings, wins, draws and losses, a club and a seek. Only the community's own requests are recorded (the games'
and clubs' go through their functions)."""

from __future__ import annotations

from typing import Any

from common.persistence import store

from tests.community.test_challenges import answer, challenge, friends, run_accept
from tests.community.test_delete_my_data import run_delete
from tests.community.test_follows_api import Community, run_export, run_friends
from tests.games.client import Answer
from tests.iam import Call, DynamoCalls, denied, grants


class RecordedCommunity(Community):
    """The community's API, each request's DynamoDB calls kept in ``calls``."""

    def __init__(self, function: Any) -> None:
        super().__init__(function)
        self.calls: set[Call] = set()

    def call(self, *args: Any, **kwargs: Any) -> Answer:
        with DynamoCalls(store.client(), {}) as recorded:
            answer = super().call(*args, **kwargs)
        self.calls |= recorded.calls
        return answer


def test_every_call_of_the_community_is_allowed_by_its_role(api, community, clock):
    recorded = RecordedCommunity(community)
    run_friends(api, recorded)
    run_accept(api, recorded)
    neema, juma = friends(api, recorded, "Neema", "Juma")
    rated = challenge(recorded, neema, juma, rated=True)  # a rated game claims one of the pair's three a day
    assert rated.status == 201 and answer(recorded, juma, rated.body["id"], "accept").status == 200
    run_export(api, recorded)
    run_delete(api, recorded, clock)
    assert {table for _, table, _ in recorded.calls} >= {"CommunityTable", "GamesTable", "RatingsTable"}
    assert denied(recorded.calls, grants("CommunityFunction")) == set()
