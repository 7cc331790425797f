"""CommunityFunction's role allows every DynamoDB call its routes make (moto checks no IAM: ``tests.iam``): follows
and friends, challenges accepted (casual and rated) and played, "Download my data" and "Delete my data" of a player with games,
ratings, wins, draws and losses, a club and a seek. Only the community's own requests are recorded (the games'
and clubs' go through their functions)."""

from __future__ import annotations

from tests.community.test_challenges import answer, challenge, friends, run_accept
from tests.community.test_delete_my_data import run_delete
from tests.community.test_follows_api import Community, run_export, run_friends
from tests.iam import denied, grants, recording


def test_every_call_of_the_community_is_allowed_by_its_role(api, community, clock):
    recorded = Community(community)
    calls = recording(recorded)
    run_friends(api, recorded)
    run_accept(api, recorded)
    neema, juma = friends(api, recorded, "Neema", "Juma")
    rated = challenge(recorded, neema, juma, rated=True)  # a rated game claims one of the pair's three a day
    assert rated.status == 201 and answer(recorded, juma, rated.body["id"], "accept").status == 200
    run_export(api, recorded)
    run_delete(api, recorded, clock)
    assert {table for _, table, _ in calls} >= {"CommunityTable", "GamesTable", "RatingsTable"}
    assert denied(calls, grants("CommunityFunction")) == set()
