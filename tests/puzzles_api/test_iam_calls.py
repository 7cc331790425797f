"""PuzzlesFunction's role allows every DynamoDB call its routes make (moto checks no IAM: ``tests.iam``): the
daily puzzle solved by a player and tried without one, the next puzzle, a pack, the progress."""

from __future__ import annotations

from tests.iam import denied, grants, recording
from tests.puzzles_api.test_progress_api import solve_daily


def test_every_call_of_the_puzzles_is_allowed_by_its_role(api):
    token = api.new_player()  # made by the games function: not recorded
    calls = recording(api)
    for game in ("chess", "english", "tanzanian"):
        solve_daily(api, token, game, "Africa/Dar_es_Salaam")
        daily = api.daily(game).body
        assert api.call("GET", f"/v1/puzzles/{daily['id']}").status == 200
        assert api.call("GET", "/v1/puzzles/next", token=token, query={"game": game}).status == 200
        assert api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game}).status == 200
    assert api.progress(token, "Africa/Dar_es_Salaam")["solved"] == 3
    assert {table for _, table, _ in calls} >= {"PuzzleProgressTable", "PlayersTable"}
    assert denied(calls, grants("PuzzlesFunction")) == set()
