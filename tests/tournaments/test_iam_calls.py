"""The tournaments' functions' roles allow every DynamoDB call they make (moto checks no IAM: ``tests.iam``): the
league of four to its end, the arena of six and the cup of two groups of ``test_tournaments_api``, with
TournamentsFunction's requests and TournamentResultsFunction's stream batches recorded apart."""

from __future__ import annotations

from common.persistence import store

from tests.iam import Call, DynamoCalls, denied, grants, recording
from tests.tournaments import test_tournaments_api as flows
from tests.tournaments.conftest import Apis


def test_every_call_of_the_tournaments_is_allowed_by_their_roles(moto_tables, clock, count_calls, monkeypatch):
    apis = Apis(clock)
    calls = recording(apis)  # the tournaments function's requests (the games' go through ``apis.games``)
    results: set[Call] = set()
    feed = flows.feed_stream

    def recorded_feed(game_ids: list[str]) -> None:
        with DynamoCalls(store.client(), {}) as recorded:
            feed(game_ids)
        results.update(recorded.calls)

    monkeypatch.setattr(flows, "feed_stream", recorded_feed)
    flows.test_a_league_of_four_by_link_to_the_end(None, apis, count_calls)
    flows.test_an_arena_of_six_pairs_everyone_present(None, apis, count_calls)
    flows.test_a_cup_of_two_groups_starts_full_and_keeps_its_knockout_games_made(None, apis)
    assert {table for _, table, _ in calls} >= {"TournamentsTable", "GamesTable"} and results
    assert denied(calls, grants("TournamentsFunction")) == set()
    assert denied(results, grants("TournamentResultsFunction")) == set()
