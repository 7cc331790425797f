"""The reviews' store: the same contract on the in-memory repository and on DynamoDB (moto, the table of
template.yaml), the review function's handling of a message, and what the local runner's feed finds."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from common.reviews.domain import MistakePuzzle, ReviewedMove, ReviewEval, ReviewResult
from common.reviews.repository import (
    DynamoReviews,
    InMemoryReviews,
    PersonalPuzzle,
    mistake_of,
    mistake_record,
    review_of,
    review_record,
)
from games.repository import in_memory_games
from review import handler
from review.service import Reviewer

from local.reviews import pending_reviews, sqs_event
from tests.stores import STORES, on_each_store

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture(params=STORES[:2])
def reviews(request):
    return on_each_store(request, InMemoryReviews, DynamoReviews)


def puzzle(player: str, game_id: str, ply: int, digits: str) -> PersonalPuzzle:
    mistake = MistakePuzzle(
        f"chess-mine-{digits}", "chess", AFTER_E4, ("d5", "exd5"), 1500, ("short",), "game g ply 1", "CC0", "black", ply
    )
    return PersonalPuzzle(player, game_id, mistake)


def test_a_personal_puzzle_is_kept_in_the_puzzle_sets_shape() -> None:
    mistake = MistakePuzzle(
        "english-mine-00000000aa",
        "english",
        "W:W21,22:B9,10",
        ("21-17", "9-14"),
        1500,
        ("shot",),
        "game g1 ply 6",
        "CC0-1.0",
        "white",
        6,
        mark="??",
        kind="missed",
        played="22-18",
        alternatives=((), ("21-18",)),
    )
    record = mistake_record(mistake)
    assert record == {
        "id": "english-mine-00000000aa",
        "game": "english",
        "fen": "W:W21,22:B9,10",
        "solution": ["21-17", "9-14"],
        "rating": 1500,
        "themes": ["shot"],
        "source": "game g1 ply 6",
        "licence": "CC0-1.0",
        "owner": "white",
        "ply": 6,
        "mark": "??",
        "kind": "missed",
        "played": "22-18",
        "alternatives": [[], ["21-18"]],
    }
    assert mistake_of(json.loads(json.dumps(record))) == mistake
    # Kept before the mark, the kind and the move played were: those read as None.
    older = {name: value for name, value in record.items() if name not in ("mark", "kind", "played", "alternatives")}
    assert mistake_of(older) == replace(mistake, mark=None, kind=None, played=None, alternatives=())


def test_a_review_is_asked_for_once_and_stored_once(reviews) -> None:
    assert reviews.get("g1") is None
    assert reviews.request("g1", 1000) is True
    assert reviews.request("g1", 2000) is False  # the second request starts nothing
    assert reviews.get("g1").status == "pending" and reviews.get("g1").requested == 1000
    empty = ReviewResult(START, ReviewEval(score=0), (), 100.0, 100.0)
    assert reviews.finish("g2", empty) is False  # never asked for
    e4 = ReviewedMove(1, "e4", "white", AFTER_E4, ReviewEval(score=30), "e4")
    result = ReviewResult(START, ReviewEval(score=20), (e4,), 99.5, 80.0, {"white": 0, "black": 1})
    assert reviews.finish("g1", result) is True
    assert reviews.finish("g1", empty) is False  # a message delivered twice stores one review
    stored = reviews.get("g1")
    assert (stored.status, stored.result, stored.requested) == ("done", result, 1000)


def test_a_review_is_kept_in_the_layout_the_route_answers() -> None:
    mate = ReviewedMove(2, "Qh4#", "black", AFTER_E4, ReviewEval(winner="black", win_in=0), "Qh4#", "??", ("d8", "h4"))
    result = ReviewResult(START, ReviewEval(score=20), (mate,), 12.5, 99.0)
    record = review_record(result)
    assert record == {
        "start": {"fen": START, "eval": {"score": 20}},
        "moves": [
            {
                "ply": 2,
                "move": "Qh4#",
                "eval": {"winner": "black", "win_in": 0},
                "best": "Qh4#",
                "mark": "??",
                "fen": AFTER_E4,
                "colour": "black",
                "best_squares": ["d8", "h4"],
            }
        ],
        "accuracy": {"white": 12.5, "black": 99.0},
    }
    assert review_of(json.loads(json.dumps(record))) == result


def test_personal_puzzles_are_kept_once_in_game_order_and_finished_once(reviews) -> None:
    reviews.add_puzzles([puzzle("p1", "gB", 9, "00000000aa"), puzzle("p1", "gA", 12, "00000000bb")])
    reviews.add_puzzles([puzzle("p1", "gA", 4, "00000000cc"), puzzle("p2", "gA", 5, "00000000dd")])
    reviews.add_puzzles([puzzle("p1", "gB", 9, "00000000aa")])  # the same again: still one
    assert [p.id[-2:] for p in reviews.puzzles_of("p1")] == ["cc", "bb", "aa"]
    assert reviews.mark_finished("p1", "chess-mine-00000000bb") is True
    assert reviews.mark_finished("p1", "chess-mine-00000000bb") is False
    assert reviews.mark_finished("p2", "chess-mine-00000000bb") is False  # another player's
    assert [p.finished for p in reviews.puzzles_of("p1")] == [False, True, False]


def test_the_review_function_reports_a_bad_message_alone_and_skips_a_review_nobody_asked_for() -> None:
    stored = InMemoryReviews()
    function = handler.create_handler(reviewer=Reviewer(in_memory_games(), stored))
    bad = {"messageId": "m1", "body": "not json"}
    event = {"Records": [bad, *sqs_event("AAAAAAAAAAAA")["Records"]]}
    answer = function(event, _context())
    assert answer == {"batchItemFailures": [{"itemIdentifier": "m1"}]}
    assert stored.get("AAAAAAAAAAAA") is None  # no review was asked for: nothing runs, nothing is stored


def test_the_local_feed_finds_the_pending_reviews_only(moto_tables) -> None:
    from common.persistence import store

    reviews = DynamoReviews()
    for game_id in ("pending1", "done1", "pending2"):
        reviews.request(game_id, 1)
    reviews.finish("done1", ReviewResult(START, ReviewEval(score=0), (), 100.0, 100.0))
    reviews.add_puzzles([puzzle("p1", "pending1", 3, "00000000ee")])
    assert sorted(pending_reviews(store.client(), reviews.table)) == ["pending1", "pending2"]
    assert json.loads(sqs_event("pending1")["Records"][0]["body"]) == {"game_id": "pending1"}


def _context():
    from local.events import LambdaContext

    return LambdaContext(function_name="ReviewFunction", timeout_seconds=300)
