"""ClubsFunction's role allows every DynamoDB call its routes make (moto checks no IAM: ``tests.iam``): a club
from making to closing, with its members' rating lists (``test_clubs_api.run_club``)."""

from __future__ import annotations

from tests.clubs.test_clubs_api import ClubsApi, run_club
from tests.iam import denied, grants, recording


def test_every_call_of_a_club_is_allowed_by_its_role(api, clubs):
    club = ClubsApi(clubs)
    calls = recording(club)
    run_club(api, club)
    assert {table for _, table, _ in calls} >= {"ClubsTable", "RatingsTable"}
    assert denied(calls, grants("ClubsFunction")) == set()
