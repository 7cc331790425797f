"""A game review through the API, as players meet it: asked for by either player of a finished game, run once
off the request path (the review worker on the same tables), read back with every move's mark, evaluation and
position, and the personal puzzle it made served by ``/v1/puzzles/next?source=mine`` and solved through the
puzzle loop without changing the player's rating. Real engines on moto's tables."""

from __future__ import annotations

import chess
import pytest
from common.reviews.repository import DynamoReviews
from games.repository import dynamodb_games
from review.domain import SCALES, Evaluation
from review.service import Reviewer

from shared_rules import get_game
from tests.review.test_review import QUEEN_HUNG, QUEEN_HUNG_PLY, SHOTS, needs_stockfish

pytestmark = pytest.mark.slow  # a review searches every position of its game: seconds


def finished_game(api, game: str, moves: list[str]) -> tuple[str, dict[str, str]]:
    """A game of two players with ``moves`` played and then resigned by the side to move."""
    game_id, seats = api.start_game(game)
    state = api.play(game_id, seats, moves)
    refused = api.call("POST", f"/v1/games/{game_id}/review", token=seats["white"])
    assert (refused.status, refused.code) == (409, "game_not_finished")  # not before the game is over
    resigned = api.call("POST", f"/v1/games/{game_id}/resign", token=seats[state["turn"]])
    assert resigned.status == 200 and resigned.body["state"] == "finished"
    return game_id, seats


def run_review(game_id: str, told: list[str] | None = None) -> bool:
    on_ready = (lambda player_id, head: told.append(player_id)) if told is not None else None
    return Reviewer(dynamodb_games(), DynamoReviews(), on_ready=on_ready).run(game_id)


def drop_at(review: dict, ply: int, game: str) -> float:
    """The mover's winning chances lost at ``ply``, read from the graph's points as the page reads them."""
    points = [review["start"]["eval"]] + [move["eval"] for move in review["moves"]]
    scale = SCALES[game]

    def chances(value: dict) -> float:
        return Evaluation(score=value.get("score"), winner=value.get("winner"), win_in=value.get("win_in")).chances(
            scale
        )

    sign = 1 if review["moves"][ply - 1]["colour"] == "white" else -1
    return sign * (chances(points[ply - 1]) - chances(points[ply]))


def reviewed_with_the_blunder(apis, queue, game: str, moves: list[str], ply: int) -> tuple[str, dict, dict]:
    api, _puzzles = apis
    game_id, seats = finished_game(api, game, moves)
    absent = api.call("GET", f"/v1/games/{game_id}/review")
    assert (absent.status, absent.code) == (404, "review_not_found")
    asked = api.call("POST", f"/v1/games/{game_id}/review", token=seats["white"])
    assert asked.status == 202 and asked.body["status"] == "pending"
    again = api.call("POST", f"/v1/games/{game_id}/review", token=seats["black"])  # the other player
    assert again.status == 202 and again.body["status"] == "pending"
    assert queue.sent == [game_id]  # one review started
    stranger = api.new_player("Chausiku")
    refused = api.call("POST", f"/v1/games/{game_id}/review", token=stranger["token"])
    assert (refused.status, refused.code) == (403, "not_a_player")
    told: list[str] = []
    assert run_review(game_id, told)
    assert not run_review(game_id)  # a message delivered twice reviews once
    assert len(told) == 2
    review = api.call("GET", f"/v1/games/{game_id}/review")
    assert review.status == 200 and review.body["status"] == "done"
    body = review.body
    assert [move["move"] for move in body["moves"]] == moves
    assert [move["ply"] for move in body["moves"]] == list(range(1, len(moves) + 1))
    blunder = body["moves"][ply - 1]
    assert blunder["mark"] == "??" and blunder["best"] != blunder["move"]
    assert drop_at(body, ply, game) >= SCALES[game].blunder
    position = get_game(game).start()  # each move's position is the rules' own
    for move, text in zip(body["moves"], moves, strict=True):
        position = position.play(position.parse_move(text))
        assert move["fen"] == position.fen()
    after = api.call("POST", f"/v1/games/{game_id}/review", token=seats["black"])
    assert after.status == 202 and after.body == body and queue.sent == [game_id]
    return game_id, seats, body


def solve_mine(apis, token: str, game: str, game_id: str) -> dict:
    """The player's next personal puzzle, solved through the puzzle loop; the rating does not move."""
    _api, puzzles = apis
    before = puzzles.call("GET", "/v1/players/me/puzzles", token=token).body["rating"]
    served = puzzles.call("GET", "/v1/puzzles/next", token=token, query={"game": game, "source": "mine"})
    assert served.status == 200 and served.body["from_game"] == game_id
    assert "-mine-" in served.body["id"] and "solution" not in served.body
    line = _solution_of(served.body, game_id, token)
    answer = None
    for step in range(1, len(line[::2]) + 1):
        answer = puzzles.call(
            "POST", f"/v1/puzzles/{served.body['id']}/attempt", {"moves": line[::2][:step]}, token=token
        )
        assert answer.status == 200
    assert answer is not None and answer.body["result"] == "solved"
    assert answer.body["rated"] is False and answer.body["rating_change"] == 0
    assert puzzles.call("GET", "/v1/players/me/puzzles", token=token).body["rating"] == before
    left = puzzles.call("GET", "/v1/puzzles/next", token=token, query={"game": game, "source": "mine"})
    assert (left.status, left.code) == (404, "no_puzzle_left")  # solved: the next one, and there is none
    return served.body


def _solution_of(view: dict, game_id: str, token: str) -> list[str]:
    """The stored puzzle's line (the player never sees it before solving; the test reads the store)."""
    for stored in DynamoReviews().puzzles_of(_player_id(token)):
        if stored.id == view["id"]:
            assert stored.game_id == game_id
            return list(stored.puzzle.solution)
    raise AssertionError("the served puzzle is not stored")


def _player_id(token: str) -> str:
    import hashlib

    from common.players.repository import PlayerStore

    record = PlayerStore().get(hashlib.sha256(token.encode()).hexdigest())
    assert record is not None
    return record.player_id


@needs_stockfish
def test_a_hung_queen_reviewed_through_the_api_is_the_blunderers_puzzle(apis, queue) -> None:
    game_id, seats, body = reviewed_with_the_blunder(apis, queue, "chess", QUEEN_HUNG, QUEEN_HUNG_PLY)
    blunder = body["moves"][QUEEN_HUNG_PLY - 1]
    board = chess.Board(body["moves"][QUEEN_HUNG_PLY - 2]["fen"])  # the position the blunder was played in
    best = board.parse_san(blunder["best"])
    assert blunder["best_squares"] == [chess.square_name(best.from_square), chess.square_name(best.to_square)]
    assert 0 <= body["accuracy"]["black"] < body["accuracy"]["white"] <= 100
    puzzle = solve_mine(apis, seats["black"], "chess", game_id)
    assert puzzle["fen"] == body["moves"][QUEEN_HUNG_PLY - 1]["fen"]  # the position the blunder left


@pytest.mark.parametrize("game", ["tanzanian"])
def test_a_man_left_to_a_two_for_one_shot_reviewed_through_the_api(apis, queue, game: str) -> None:
    moves, ply = SHOTS[game]
    game_id, seats, body = reviewed_with_the_blunder(apis, queue, game, moves, ply)
    blunder = body["moves"][ply - 1]
    squares = blunder["best"].replace("x", "-").split("-")
    assert blunder["best_squares"] == [squares[0], squares[-1]]  # the board marks where the best man goes
    solve_mine(apis, seats["black"], game, game_id)


def test_a_review_of_a_game_nobody_has_is_404(apis) -> None:
    api, _puzzles = apis
    player = api.new_player()
    asked = api.call("POST", "/v1/games/AAAAAAAAAAAA/review", token=player["token"])
    assert (asked.status, asked.code) == (404, "game_not_found")
    read = api.call("GET", "/v1/games/AAAAAAAAAAAA/review")  # one read of the review, none of the game
    assert (read.status, read.code) == (404, "review_not_found")
    unnamed = api.call("GET", "/v1/games/not-an-id/review")
    assert (unnamed.status, unnamed.code) == (404, "game_not_found")


def test_a_review_pending_a_quarter_of_an_hour_is_sent_again_when_asked(apis, queue, clock) -> None:
    api, _puzzles = apis
    game_id, seats = api.start_game("english")
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])
    for _ in range(2):
        assert api.call("POST", f"/v1/games/{game_id}/review", token=seats["white"]).status == 202
    assert queue.sent == [game_id]
    clock.advance(seconds=15 * 60 + 1)  # its message lost, or in the dead-letter queue
    assert api.call("POST", f"/v1/games/{game_id}/review", token=seats["black"]).body["status"] == "pending"
    assert queue.sent == [game_id, game_id]


def test_a_review_flood_is_bounded_per_player(apis, queue) -> None:
    """The attack of issue 39: 25 review requests from one player were all accepted at once (each up to a
    minute of the engine). A player asks 20 a day; the 21st is a 429 that asks for nothing."""
    api, _puzzles = apis
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    answers = []
    for _ in range(22):
        created = api.create(asha["token"], "english", "white").body
        game_id = created["game"]["id"]
        assert api.join(baraka["token"], game_id, created["invite"]["code"]).status == 200
        assert api.call("POST", f"/v1/games/{game_id}/resign", token=asha["token"]).status == 200
        answers.append(api.call("POST", f"/v1/games/{game_id}/review", token=baraka["token"]))
    assert [answer.status for answer in answers] == [202] * 20 + [429] * 2
    assert answers[-1].code == "rate_limited" and len(queue.sent) == 20
