"""`make run` serves the puzzles: a daily puzzle for each game over real HTTP, attempts checked, progress kept
in the local DynamoDB across a restart of the runner."""

from __future__ import annotations

import pytest

from local.dynamodb import node_executable
from puzzles.catalog import GAMES
from tests.games.test_restart import Terminal, _start_runner, _stop_runner
from tests.puzzles_api.sets import find

pytestmark = pytest.mark.skipif(node_executable() is None, reason="Node.js is not installed: dynalite needs it")


def test_daily_puzzles_solved_through_make_run_and_kept_across_a_restart(tmp_path, dynalite_server):
    data = tmp_path / "local-dynalite"
    process, origin = _start_runner(data)
    try:
        status, player = Terminal(origin).send("POST", "/v1/players", {})
        assert status == 201
        me = Terminal(origin, player["token"])
        for game in GAMES:
            status, daily = me.send("GET", f"/v1/puzzles/daily?game={game}")
            assert status == 200 and "solution" not in daily, daily
            puzzle = find(daily["id"])
            moves = list(puzzle.solution[::2])
            for step in range(1, len(moves) + 1):
                status, answer = me.send(
                    "POST", f"/v1/puzzles/{puzzle.id}/attempt?tz=Africa/Dar_es_Salaam", {"moves": moves[:step]}
                )
                assert status == 200, answer
            assert answer["result"] == "solved" and answer["rated"] is True
        status, progress = me.send("GET", "/v1/players/me/puzzles?tz=Africa/Dar_es_Salaam")
        # The streak is 1, or 2 if midnight in Dar es Salaam fell between the solves.
        assert status == 200 and progress["solved"] == 3 and progress["streak"] >= 1
    finally:
        _stop_runner(process)

    process, origin = _start_runner(data)  # `make run` again: the same data
    try:
        status, progress = Terminal(origin, player["token"]).send("GET", "/v1/players/me/puzzles")
        assert (
            status == 200
            and (progress["solved"], progress["tz"]) == (3, "Africa/Dar_es_Salaam")
            and progress["streak"] >= 1
        )
    finally:
        _stop_runner(process)
