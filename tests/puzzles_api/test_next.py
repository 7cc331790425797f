"""GET /v1/puzzles/next: a puzzle near the player's rating that the player has never finished."""

from __future__ import annotations

import pytest
from common.players.repository import PlayerStore
from common.players.service import hash_token
from puzzles_api.domain.progress import Attempt
from puzzles_api.repository import PuzzleStore
from puzzles_api.service import NEXT_WINDOWS

from puzzles.catalog import GAMES, load
from tests.checks import known
from tests.puzzles_api.client import snapshot
from tests.puzzles_api.sets import find


def next_puzzle(api, token: str, game: str):
    answer = api.call("GET", "/v1/puzzles/next", token=token, query={"game": game})
    return answer


@pytest.mark.parametrize("game", GAMES)
def test_next_is_near_the_rating_and_never_a_finished_puzzle(api, game):
    token = api.new_player()
    seen = []
    for _ in range(6):
        answer = next_puzzle(api, token, game)
        assert answer.status == 200 and answer.headers["cache-control"] == "no-store"
        assert "solution" not in answer.text and set(answer.body) == {"id", "game", "fen", "turn", "rating", "themes"}
        puzzle = find(answer.body["id"])
        assert puzzle.game == game and puzzle.id not in seen
        # Asking again before playing it gives the same puzzle: next is the player's next, not a lottery.
        assert next_puzzle(api, token, game).body["id"] == puzzle.id
        rating = api.progress(token)["rating"]
        nearest = min(abs(p.rating - rating) for p in load(game) if p.id not in seen)
        assert abs(puzzle.rating - rating) <= max(NEXT_WINDOWS[0], _window_of(nearest))
        seen.append(puzzle.id)
        (api.solve if len(seen) % 2 else api.fail)(puzzle, token)


def _window_of(distance: float) -> int:
    return next((width for width in NEXT_WINDOWS if distance <= width), 10_000)


def test_players_get_different_puzzles(api):
    tokens = [api.new_player() for _ in range(5)]
    assert len({next_puzzle(api, token, "chess").body["id"] for token in tokens}) > 1


def test_when_every_puzzle_was_played_there_is_none_left(api):
    token = api.new_player()
    player_id = known(PlayerStore().get(hash_token(token))).player_id
    store = PuzzleStore()
    puzzles = load("english")
    for puzzle in puzzles[:-1]:  # as if played: the attempt items the function writes
        assert store.record_first_attempt(player_id, Attempt(puzzle.id, solved=False, at=1, daily=False))
    assert next_puzzle(api, token, "english").body["id"] == puzzles[-1].id
    store.record_first_attempt(player_id, Attempt(puzzles[-1].id, solved=True, at=2, daily=False))
    before = snapshot()
    answer = next_puzzle(api, token, "english")
    assert (answer.status, answer.code) == (404, "no_puzzle_left")
    assert next_puzzle(api, token, "tanzanian").status == 200  # another game has its own
    assert snapshot() == before


@pytest.mark.parametrize("query", [{}, {"game": "checkers"}, {"game": ["chess", "english"]}])
def test_a_bad_game_is_422(api, query):
    token = api.new_player()
    answer = api.call("GET", "/v1/puzzles/next", token=token, query=query)
    assert (answer.status, answer.code) == (422, "invalid_request"), answer.body
