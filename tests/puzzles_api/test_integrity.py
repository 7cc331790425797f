"""Rating integrity: the probes that farmed ratings. A solution is shown only to a player whose own
first finished attempt at the puzzle failed, and only once that failure is stored; without a token, never."""

from __future__ import annotations

import pytest
from puzzles_api.repository import PuzzleStore

from puzzles.catalog import GAMES, load
from tests.checks import known
from tests.games.test_faults import assert_503, fault
from tests.puzzles_api.client import failing_line, snapshot

PUZZLE = "chess-000Zo"  # Re1+ Kf2 Rf1#


def longest(game: str):
    return max(load(game), key=lambda puzzle: (len(puzzle.solution), puzzle.id))


def shows_solution(answer, puzzle) -> bool:
    """Whether the answer gives away any of the solution beyond what the attempt's own steps already showed."""
    return answer.body["solution"] is not None or puzzle.solution[-1] in answer.text.replace(
        answer.body.get("reply") or "\0", ""
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_anonymous_probe_gets_no_solution_and_stores_nothing(api, game):
    puzzle = longest(game)
    before = snapshot()
    for line in (failing_line(puzzle, latest=False), failing_line(puzzle, latest=True)):
        answer = api.attempt(puzzle.id, line)
        assert answer.status == 200 and answer.body["result"] == "failed", answer.body
        assert answer.body["solution"] is None and answer.body["rated"] is None
        assert not shows_solution(answer, puzzle)
    assert snapshot() == before


def test_the_issue_farm_no_longer_works(api):
    """The script of the issue: a wrong move without a token to read the solution, then the solution with the
    token. It now learns nothing from the first request, so its rated attempt is its own."""
    token = api.new_player()
    learned = []
    for puzzle in load("chess")[:10]:
        probe = api.attempt(puzzle.id, failing_line(puzzle, latest=False)).body
        learned.append(probe["solution"])
    assert learned == [None] * 10
    assert api.progress(token)["solved"] == 0


def test_the_throwaway_token_probe_pays_with_a_recorded_failure(api):
    throwaway, real = api.new_player(), api.new_player()
    puzzle = longest("english")
    failed = api.attempt(puzzle.id, failing_line(puzzle), throwaway).body
    # A first wrong attempt with a token is that player's rated failure: stored, then the solution shown.
    assert failed["rated"] is True and failed["solution"] == list(puzzle.solution)
    assert api.progress(throwaway)["failed"] == 1
    assert known(PuzzleStore().get_attempt(_player_id(api, throwaway), puzzle.id)).solved is False
    # The failure stays: a replay (rated false) shows the solution again, and can never solve it for a rating.
    again = api.attempt(puzzle.id, failing_line(puzzle), throwaway).body
    assert again["rated"] is False and again["solution"] == list(puzzle.solution)
    assert api.solve(puzzle, throwaway)[-1].body["rated"] is False
    assert api.progress(throwaway)["solved"] == 0
    # The real player's first attempt is still its own: nothing of the throwaway's is counted for it.
    assert api.progress(real)["failed"] == 0
    assert api.solve(puzzle, real)[-1].body["rated"] is True


def test_a_player_who_solved_first_is_not_shown_the_solution_by_a_later_wrong_line(api):
    token = api.new_player()
    puzzle = longest("tanzanian")
    assert api.solve(puzzle, token)[-1].body["rated"] is True
    later = api.attempt(puzzle.id, failing_line(puzzle), token).body
    assert later["result"] == "failed" and later["rated"] is False and later["solution"] is None


def test_a_solution_is_never_shown_before_the_failure_is_stored(api):
    token = api.new_player()
    before = snapshot()
    with fault("PutItem") as failed:  # the attempt's write is refused: nothing counted, nothing shown
        answer = api.attempt(PUZZLE, ["Rd8"], token)
    assert failed and snapshot() == before
    assert_503(answer)
    assert "Rf1" not in answer.text
    with fault("UpdateItem", when=lambda params: ":progress" in params.get("ExpressionAttributeValues", {})):
        answer = api.attempt(PUZZLE, ["Rd8"], token)  # stored, but the progress write fails: still a 503
    assert_503(answer)
    assert "Rf1" not in answer.text
    retry = api.attempt(PUZZLE, ["Rd8"], token).body
    assert retry["rated"] is True and retry["solution"] == ["Re1+", "Kf2", "Rf1#"]
    assert api.progress(token)["failed"] == 1


def test_an_older_puzzle_failed_long_ago_still_shows_its_solution_to_that_player(api, clock):
    """Past the ten recent attempts the stored attempt item is read (one read): it says failed."""
    token = api.new_player()
    puzzle, others = load("english")[0], load("english")[1:12]
    api.fail(puzzle, token)
    for other in others:
        clock.advance(seconds=60)
        api.solve(other, token)
    assert puzzle.id not in [item["id"] for item in api.progress(token)["recent"]]
    answer = api.attempt(puzzle.id, failing_line(puzzle, latest=False), token).body
    assert answer["rated"] is False and answer["solution"] == list(puzzle.solution)


def _player_id(api, token: str) -> str:
    from common.players.service import Players

    return Players().authenticate({"authorization": f"Bearer {token}"}).player_id
