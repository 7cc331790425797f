"""The review's judgements, without an engine: winning chances, marks by the chances lost, and accuracy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from review.domain import (
    SCALES,
    Evaluation,
    Mark,
    MoveReview,
    accuracy,
    move_accuracy,
    move_loss,
)

CHESS = SCALES["chess"]
DRAUGHTS = SCALES["tanzanian"]


def mark_of(scale_name: str, before: int, after: int, mover: str = "white") -> Mark | None:
    """The mark of a move that took White's score from ``before`` to ``after`` (hundredths)."""
    scale = SCALES[scale_name]
    return scale.mark(move_loss(mover, scale.chances(before), scale.chances(after)))  # type: ignore[arg-type]


def test_losing_three_pawns_when_ten_up_earns_no_mark_but_from_level_a_blunder() -> None:
    assert mark_of("chess", 1000, 700) is None
    assert mark_of("chess", 0, -300) == Mark.BLUNDER
    assert mark_of("chess", 0, -100) == Mark.INACCURACY
    assert mark_of("chess", 0, -120) == Mark.MISTAKE


def test_draughts_a_man_lost_from_level_is_a_blunder_but_not_when_five_men_up() -> None:
    assert mark_of("tanzanian", 0, -100) == Mark.BLUNDER
    assert mark_of("english", 0, -50) == Mark.MISTAKE
    assert mark_of("english", 0, -25) == Mark.INACCURACY
    assert mark_of("tanzanian", 500, 400) is None
    # Black's side: Black's score is the negative of White's.
    assert mark_of("english", 0, 100, mover="black") == Mark.BLUNDER


def test_a_move_that_gains_loses_nothing() -> None:
    assert move_loss("white", CHESS.chances(-200), CHESS.chances(50)) == 0.0
    assert move_loss("black", CHESS.chances(200), CHESS.chances(-50)) == 0.0


def test_a_proven_win_is_all_the_chances_and_walking_out_of_it_is_a_blunder() -> None:
    won = Evaluation.win("white", 3)
    assert won.chances(CHESS) == 1.0 and Evaluation.win("black", 0).chances(DRAUGHTS) == -1.0
    assert CHESS.mark(move_loss("white", won.chances(CHESS), Evaluation.of_score(0).chances(CHESS))) == Mark.BLUNDER


@pytest.mark.parametrize(
    "fields", [{}, {"score": 10, "winner": "white", "win_in": 2}, {"winner": "black"}, {"score": 5, "win_in": 1}]
)
def test_an_evaluation_is_a_score_or_a_win_never_both(fields: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Evaluation(**fields)  # type: ignore[arg-type]


def test_the_json_of_a_move_has_its_mark_only_when_marked() -> None:
    plain = MoveReview(3, "Nf3", Evaluation.of_score(25), "Nf3")
    assert plain.as_dict() == {"ply": 3, "move": "Nf3", "eval": {"score": 25}, "best": "Nf3"}
    marked = MoveReview(6, "Qg5", Evaluation.win("white", 4), "Nf6", Mark.BLUNDER, "black")
    assert marked.as_dict()["mark"] == "??" and marked.as_dict()["eval"] == {"winner": "white", "win_in": 4}


@given(st.lists(st.floats(min_value=-1, max_value=1), min_size=1, max_size=120), st.sampled_from(["white", "black"]))
def test_accuracy_is_between_0_and_100(chances: list[float], first: str) -> None:
    result = accuracy(chances, first)  # type: ignore[arg-type]
    assert 0 <= result.white <= 100 and 0 <= result.black <= 100


def test_a_game_without_a_loss_is_100_and_one_blunder_costs_its_player() -> None:
    steady = [0.05] * 41
    assert accuracy(steady, "white").white == 100.0 == accuracy(steady, "white").black
    blundered = [0.05] * 20 + [0.8] * 21  # Black's move 20 (ply 20, index 19) threw the game away
    result = accuracy(blundered, "white")
    assert result.white == 100.0
    plain_mean = (19 * 100 + move_accuracy(52.5, 10)) / 20  # 95.9: one bad move in twenty
    assert result.black < plain_mean - 15


def test_move_accuracy_falls_as_the_loss_grows() -> None:
    drops = [move_accuracy(60, 60 - drop) for drop in (0, 2, 5, 10, 20, 40, 60)]
    assert drops[0] == 100.0
    assert drops == sorted(drops, reverse=True) and drops[-1] < drops[1]
