"""Checking attempts (puzzles_api.domain.check): moves compared as moves whatever their notation, any mate solves,
a wrong move fails with the solution, and input that is not an attempt is refused."""

from __future__ import annotations

import pytest
from puzzles_api.domain.check import AttemptOver, judge

from puzzles.catalog import Puzzle, load
from shared_rules import AmbiguousMove, InvalidMove, get_game
from tests.puzzles_api.sets import find

# A hand-made puzzle whose first solver move is quiet although a mate in one is on the board: the mate
# must solve it (any mate is a mate), at the first step as at the last.
QUIET_FIRST = Puzzle(
    id="chess-handmade1",
    game="chess",
    fen="6k1/5ppp/8/8/8/8/p4PPP/4R1K1 w - - 0 1",
    solution=("h3", "Kh8", "Re8#"),
    rating=1000,
    themes=("mateIn2",),
    source="test",
    licence="test",
)


def test_the_solution_step_by_step():
    first = judge(QUIET_FIRST, ["h3"])
    assert (first.result, first.reply, first.solution) == ("continue", "Kh8", None)
    assert judge(QUIET_FIRST, ["h3", "Re8#"]).result == "solved"


@pytest.mark.parametrize("moves", [["Re8#"], ["Re8"], ["e1e8"], ["Ree8"], ["h3", "e1e8"], ["h2h3", "Re8"]])
def test_any_mate_solves_whatever_the_notation(moves):
    verdict = judge(QUIET_FIRST, moves)
    assert verdict.result == "solved" and verdict.moves[-1] == "Re8#"


@pytest.mark.parametrize("moves", [["h4"], ["Kf1"], ["h3", "Re7"], ["h3", "g3"]])
def test_a_wrong_move_fails_with_the_whole_solution(moves):
    verdict = judge(QUIET_FIRST, moves)
    assert (verdict.result, verdict.solution, verdict.reply) == ("failed", QUIET_FIRST.solution, None)


@pytest.mark.parametrize(
    ("moves", "error", "index"),
    [
        (["Zz9"], InvalidMove, 0),
        (["e1e9"], InvalidMove, 0),
        (["h3", "Ra8"], InvalidMove, 1),  # the rook cannot get there
        (["h3", "Kh8"], InvalidMove, 1),  # the opponent's move, sent as the solver's
        (["Qd1"], InvalidMove, 0),  # no queen
    ],
)
def test_an_illegal_move_is_an_error_naming_it(moves, error, index):
    with pytest.raises(error) as raised:
        judge(QUIET_FIRST, moves)
    assert raised.value.index == index and f"move {index + 1}" in str(raised.value)


@pytest.mark.parametrize("moves", [["h4", "h5"], ["Re8#", "Kh8"], ["h3", "Re8#", "Kf1"], []])
def test_moves_after_the_attempt_was_decided_are_refused(moves):
    with pytest.raises(AttemptOver):
        judge(QUIET_FIRST, moves)


def test_a_real_lichess_puzzle_in_san_and_uci_with_a_promotion():
    puzzle = find("chess-004LZ")  # c2+ Ka2 c1=Q Rd7+ Ke2
    assert puzzle.solution == ("c2+", "Ka2", "c1=Q", "Rd7+", "Ke2")
    for line in (["c2+", "c1=Q", "Ke2"], ["c3c2", "c2c1q", "d2e2"], ["c2", "c2c1Q", "Ke2"]):
        assert judge(puzzle, line[:1]).reply == "Ka2"
        assert judge(puzzle, line[:2]).reply == "Rd7+"
        verdict = judge(puzzle, line)
        assert verdict.result == "solved" and verdict.moves == ("c2+", "c1=Q", "Ke2")
    # Underpromotion is another move: a knight is not a queen.
    assert judge(puzzle, ["c2+", "c1=N"]).result == "failed"


def test_draughts_moves_with_or_without_the_capture_path():
    tanzanian = find("tanzanian-aea31a0ed9")  # b6-c5 d4xb6 a7xc5xa3
    assert judge(tanzanian, ["b6-c5", "a7xc5xa3"]).result == "solved"
    assert judge(tanzanian, ["B6-C5", "a7xa3"]).result == "solved"  # the rules layer reads both
    assert judge(tanzanian, ["b6-a5"]).result == "failed"
    english = find("english-5a5c999cac")  # 10-15 19x10 7x14x21
    assert judge(english, ["10-15"]).reply == "19x10"
    assert judge(english, ["10-15", "7x21"]).result == "solved"
    assert judge(english, ["10-15", "7x14x21"]).moves == ("10-15", "7x14x21")
    with pytest.raises(InvalidMove):
        judge(english, ["10-16"])


def test_an_ambiguous_draughts_capture_is_an_error():
    # The white man on 27 can take two black men and land on 11 by two routes: the path must be named.
    puzzle = Puzzle("english-handmade", "english", "W:W27:B23,24,15,16", ("27x20x11",), 1000, (), "test", "test")
    assert sorted(get_game("english").from_fen(puzzle.fen).legal_notations()) == ["27x18x11", "27x20x11"]
    with pytest.raises(AmbiguousMove):
        judge(puzzle, ["27x11"])
    assert judge(puzzle, ["27x20x11"]).result == "solved"
    assert judge(puzzle, ["27x18x11"]).result == "failed"


def test_a_recorded_alternative_solves_too():
    # Two captures finish this one equally well: the set records the second as an alternative.
    puzzle = Puzzle(
        "english-handmade", "english", "W:W27:B23,24,15,16", ("27x20x11",), 1000, (), "test", "test", (("27x18x11",),)
    )
    assert judge(puzzle, ["27x18x11"]).result == "solved"
    assert judge(puzzle, ["27x20x11"]).result == "solved"
    assert judge(puzzle, ["27x18x11"]).moves == ("27x18x11",)


# A countdown study (three kings against a lone king, the 12-move count): the retrograde table proves
# that three more first moves catch the lone king within the count, so the set records them.
COUNTDOWN = Puzzle(
    "tanzanian-handmade",
    "tanzanian",
    "B:WKa7:BKb6,Kc3,Kg7",
    ("b6-c5", "a7xd4xa1", "g7-h8", "a1-b2", "h8xa1"),
    2000,
    ("countdown",),
    "test",
    "test",
    (("b6-c7", "b6-g1"), ("g7-f8",), ()),
)


@pytest.mark.parametrize("step", [0, 1])
def test_a_recorded_alternative_solves_at_any_step_not_only_the_last(step):
    line = [COUNTDOWN.solution[2 * index] for index in range(step)]
    for alternative in COUNTDOWN.alternatives[step]:
        verdict = judge(COUNTDOWN, [*line, alternative])
        assert verdict.result == "solved" and verdict.moves[-1] == alternative
    assert judge(COUNTDOWN, [*line, COUNTDOWN.solution[2 * step]]).result == "continue"
    position = get_game("tanzanian").from_fen(COUNTDOWN.fen)
    for move in COUNTDOWN.solution[: 2 * step]:
        position = position.play(move)
    accepted = {COUNTDOWN.solution[2 * step], *COUNTDOWN.alternatives[step]}
    other = next(text for text in sorted(position.legal_notations()) if text not in accepted)
    assert judge(COUNTDOWN, [*line, other]).result == "failed"


@pytest.mark.parametrize("game", ["english", "tanzanian"])
def test_every_alternative_the_sets_record_solves(game):
    """Every step of every puzzle with alternatives: the solution's line up to the step, then each."""
    for puzzle in (puzzle for puzzle in load(game) if puzzle.alternatives):
        for step, alternatives in enumerate(puzzle.alternatives):
            line = list(puzzle.solution[: 2 * step : 2])
            for alternative in alternatives:
                assert judge(puzzle, [*line, alternative]).result == "solved", (puzzle.id, step, alternative)
