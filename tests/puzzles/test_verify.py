"""The deep verifier (``puzzles.verify``) and the exact countdown solver (``puzzles.countdown``).

* Puzzles that a deeper search showed wrong (a claimed win that fades by depth 8-10, or a second
  winning move the set did not accept) are out of the sets, and the verifier rejects each of them.
* The countdown solver agrees with the rules layer itself (its own count of twelve moves and its own
  game-over verdicts), searched move by move, on positions near the end of the count.
* A fixed sample of 60 verified puzzles of each draughts set (the cheapest to check: the fewest
  pieces) verifies again, as deep: the verdicts derived again, not read from the sets.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from puzzles import countdown, studies, verify
from puzzles.catalog import Puzzle
from shared_rules.draughts.engine import State
from shared_rules.draughts.game import COUNTDOWN_MOVES, DraughtsPosition
from tests.checks import draughts_game

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = 60  # puzzles per draughts set verified again, as deep, in `make test` (``deep_sample``)
PARTS = 2  # English's sample in parts, so that two workers share the test with Tanzanian's

# Found wrong by searching the committed puzzles deeper (fen, solution as the set had them).
FOUND_WRONG = {
    "tanzanian-2d28ab7ba9": ("B:Wa3,e3,h4:Bb6,f6,g5", ["b6-c5", "a3-b4", "c5xa3"]),
    "tanzanian-97b01a235e": ("B:Wd4,Kf4:BKa5,f2", ["f2-e1"]),
    "tanzanian-49975e4b0e": ("B:Wc3,c5,f2,f6,Kh6:BKa3,c7,f4,g7,h4", ["a3xe7xg5", "h6xf8", "g5-h6"]),
    "tanzanian-f73a237408": ("W:We3,g7:Ba3,a5", ["g7-h8"]),
    "tanzanian-655cb356cb": ("B:Wd4,Kg5:Bf2,Kg3", ["g3-h4", "g5-f4", "f2-e1"]),
    "tanzanian-b0c045dfdc": ("B:Wc3,Kd6,e7,f2,g3:Ba5,d8,Ke5,g5", ["e5xc7"]),
}


def load(game: str) -> list[dict]:
    with (ROOT / "puzzles" / f"{game}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


SETS = {game: load(game) for game in verify.DRAUGHTS}


def record(puzzle_id: str) -> dict:
    fen, solution = FOUND_WRONG[puzzle_id]
    return {"id": puzzle_id, "game": "tanzanian", "fen": fen, "solution": solution, "source": "ubao ending study"}


# ----------------------------------------------------------------- the puzzles found wrong


def test_the_puzzles_found_wrong_are_gone():
    kept = {(puzzle["fen"], puzzle["solution"][0]) for puzzle in SETS["tanzanian"]}
    ids = {puzzle["id"] for puzzle in SETS["tanzanian"]}
    for puzzle_id, (fen, solution) in FOUND_WRONG.items():
        assert puzzle_id not in ids
        assert (fen, solution[0]) not in kept, puzzle_id


@pytest.mark.parametrize("puzzle_id", sorted(FOUND_WRONG))
def test_the_verifier_rejects_each_puzzle_found_wrong(puzzle_id):
    outcome = verify.verify("tanzanian", record(puzzle_id))
    assert outcome.reason in {"no_longer_wins", "second_winner"}, outcome


def test_a_claimed_win_that_fades_deeper_is_caught_at_the_depth_it_fades():
    outcome = verify.verify("tanzanian", record("tanzanian-2d28ab7ba9"))
    assert outcome.reason == "no_longer_wins"
    fades_at = int(outcome.detail.rsplit(" ", 1)[1])
    assert verify.GENERATOR_DEPTH < fades_at <= verify.VERIFY_DEPTH


def test_a_puzzle_past_its_node_budget_is_undecided_not_verified():
    # The cheapest English ending of the set (fewest pieces): it verifies within the budget, and not within
    # a budget smaller than what it needs; the verdict then says which budget ran out.
    endings = [p for p in SETS["english"] if verify.kind_of(p) == "ending"]
    puzzle = min(endings, key=lambda p: (verify.weight(p["fen"]), p["id"]))
    judge = verify.judge_for("english", verify.QUICK_PATH)
    before = judge.searcher.nodes
    assert verify.judged_alternatives("english", puzzle)[0] is None
    needed = judge.searcher.nodes - before
    assert 0 < needed <= verify.PUZZLE_NODE_LIMIT
    reason, detail, _ = verify.judged_alternatives("english", puzzle, budget=needed // 2)
    assert (reason, detail) == ("undecided", f"over {needed // 2:,} nodes for the puzzle")


def test_the_verification_depth_is_twice_the_generators_and_at_least_twelve():
    assert max(2 * verify.GENERATOR_DEPTH, 12) <= verify.VERIFY_DEPTH


# ----------------------------------------------------------------- what the sets record


@pytest.mark.parametrize("game", verify.DRAUGHTS)
def test_how_a_puzzle_was_verified_is_recorded_and_never_shown(game):
    for puzzle in SETS[game]:
        verified = puzzle.get("verified")
        if verified is None:
            continue  # not yet verified: `make puzzles` verifies what is left (puzzles/README.md)
        assert verified in ({"proven": True}, {"depth": verify.VERIFY_DEPTH}), puzzle["id"]
        assert_few_alternatives(game, puzzle)
        if countdown.three_kings_against_one(draughts_game(game).from_fen(puzzle["fen"]).state) and game == "tanzanian":
            assert verified == {"proven": True}, puzzle["id"]  # countdown studies are proven, never judged
        assert "verified" not in Puzzle.from_json(puzzle).public()


def assert_few_alternatives(game: str, puzzle: dict) -> None:
    """Recorded alternatives: one list per solver step, each a legal move other than the solution's,
    and with the solution's at most ``MAX_WINNING_SHARE`` of the step's legal moves."""
    alternatives = puzzle.get("alternatives")
    if not alternatives:
        return
    position = draughts_game(game).from_fen(puzzle["fen"])
    assert len(alternatives) == len(puzzle["solution"][::2]), puzzle["id"]
    for index, text in enumerate(puzzle["solution"]):
        move = position.parse_move(text)
        if index % 2 == 0:
            others = {position.parse_move(other) for other in alternatives[index // 2]}
            assert move not in others, puzzle["id"]
            assert not verify.crowded(1 + len(others), len(position.legal_moves())), puzzle["id"]
        position = position.play(move)


# ----------------------------------------------------------------- the countdown solver


def rules_win(position: DraughtsPosition, moves_left: int) -> bool:
    """The three to move win with at most ``moves_left`` moves, searched through the rules layer: its
    own count, its own game-over verdicts. (After the lone king takes one of the three the rules
    count no more; the two left get what is left of ``moves_left``, as in the solver.)"""
    return any(move_wins(position, move, moves_left) for move in position.legal_moves())


def move_wins(position: DraughtsPosition, move, moves_left: int) -> bool:
    strong = position.turn
    after = position.play(move)
    status = after.status()
    if status.is_over or moves_left <= 1:
        return status.result == strong
    return all(_after_reply(after.play(reply), strong, moves_left - 1) for reply in after.legal_moves())


def _after_reply(position: DraughtsPosition, strong: str, moves_left: int) -> bool:
    status = position.status()
    if status.is_over:
        return status.result == strong
    return rules_win(position, moves_left)


def near_the_end(fen_or_state, moves_left: int) -> DraughtsPosition:
    """A countdown position with only ``moves_left`` moves of the three left on the rules' count."""
    game = draughts_game("tanzanian")
    state = game.from_fen(fen_or_state).state if isinstance(fen_or_state, str) else fen_or_state
    return DraughtsPosition(game, state, 0, (state,), 0, 0, COUNTDOWN_MOVES - moves_left)


# Where the three win within two moves (the first two from the sets; the third is one king against one,
# after the lone king took two of the three: the catch the sets' countdown studies end with), and where not.
WON_IN_TWO = ("B:WKh2:BKg1,Kg3,Kg7", "W:WKb2,Kb6,Ke3:BKa1", "W:WKg7:BKa1")
NOT_WON = ("B:WKg1:BKa1,Ke5,Kg3", "W:WKc1,Kc3,Kg7:BKg1")


def countdown_positions() -> list:
    engine = draughts_game("tanzanian").engine
    placed = [studies.countdown(random.Random(f"countdown-oracle:{index}"), engine) for index in range(2)]
    return [*WON_IN_TWO, *NOT_WON, *placed]


def test_the_oracle_positions_hold_wins_and_draws():
    """Else the agreement below would prove little."""
    assert all(rules_win(near_the_end(fen, 2), 2) for fen in WON_IN_TWO)
    assert not any(rules_win(near_the_end(fen, 2), 2) for fen in NOT_WON)


@pytest.mark.parametrize("moves_left", [1, 2])
@pytest.mark.parametrize("index", range(7))
def test_the_countdown_solver_agrees_with_the_rules_layer_near_the_end_of_the_count(index, moves_left):
    start = near_the_end(countdown_positions()[index], moves_left)
    solver = countdown.CountdownSolver(start.game.engine)
    table = countdown.table_for("tanzanian")
    for move in start.legal_moves():
        expected = move_wins(start, move, moves_left)
        assert solver.move_wins(start.state, move, moves_left) == expected, start.notation(move)
        assert table.move_wins(start.state, move, moves_left) == expected, start.notation(move)
    assert solver.wins_within(start.state, moves_left) == rules_win(start, moves_left)
    assert table.wins_within(start.state, moves_left) == rules_win(start, moves_left)


@pytest.mark.parametrize("seed", range(4))
def test_the_retrograde_table_agrees_with_the_search_on_random_kings_endings(seed):
    """One, two or three kings against a lone king, either side to move, every move, counts 1 to 4
    (the search settles those in a moment; the table answers every count from the same analysis)."""
    engine = draughts_game("tanzanian").engine
    table, solver = countdown.table_for("tanzanian"), countdown.CountdownSolver(engine)
    rng = random.Random(f"countdown-table:{seed}")
    for _ in range(8):
        kings = rng.choice([1, 2, 3])
        squares = rng.sample(sorted(engine.coords), kings + 1)
        strong, lone = sum(1 << square for square in squares[:kings]), 1 << squares[kings]
        state = rng.choice([State(strong, lone, strong | lone, 0), State(lone, strong, strong | lone, 1)])
        moves_left = rng.randint(1, 4)
        for move in engine.legal_moves(state):
            assert table.move_wins(state, move, moves_left) == solver.move_wins(state, move, moves_left), state


def test_a_study_is_proven_only_with_its_one_winning_move():
    study = {"game": "tanzanian", "fen": WON_IN_TWO[0], "solution": ["g3-b8", "h2-g3", "b8xh2"]}
    assert countdown.prove(study, count_used=COUNTDOWN_MOVES - 2) is None
    wrong = {**study, "solution": ["g7-h8"]}
    assert countdown.prove(wrong, count_used=COUNTDOWN_MOVES - 2) == "step 1: g7-h8 does not win within the count"
    # Two moves catch the lone king within two: whichever the set names, the other is a second winner.
    two_winners = {"game": "tanzanian", "fen": "W:WKd6,Ke7,Kf6:BKh8", "solution": ["d6-e5"]}
    assert countdown.prove(two_winners, count_used=COUNTDOWN_MOVES - 2) == "step 1: f6-a1 wins too within the count"
    accepted = {**two_winners, "alternatives": [["f6-a1"]]}
    assert countdown.prove(accepted, count_used=COUNTDOWN_MOVES - 2) is None


# Countdown studies from the sets: one whose first step has three more winning moves (of 17), one
# where 24 of 26 moves win (solution as the set had them).
CORRECTED = ("B:WKh2:BKg1,Kg3,Kg7", ["g3-b8", "h2-g3", "b8xh2"])
CROWDED = ("W:WKc3,Ke3,Kg7:BKh2", ["e3-f4", "h2xe5xa1", "g7-h8", "a1-b2", "h8xa1"])


def study(fen: str, solution: list[str]) -> dict:
    return {
        "id": "tanzanian-study",
        "game": "tanzanian",
        "fen": fen,
        "solution": solution,
        "source": "ubao countdown study",
    }


def test_other_winning_moves_of_a_study_are_recorded_as_alternatives_and_then_verify():
    puzzle = study(*CORRECTED)
    outcome = verify.verify("tanzanian", puzzle)
    assert (outcome.reason, outcome.verified) == (None, {"proven": True})
    assert outcome.alternatives == [["g3-e1", "g3-f2", "g3-h4"], []]
    fixed = verify.corrected_puzzle(puzzle, outcome)
    assert fixed["alternatives"] == outcome.alternatives and fixed["verified"] == {"proven": True}
    assert countdown.prove(fixed) is None
    assert countdown.prove(puzzle) == "step 1: g3-e1 wins too within the count"
    again = verify.verify("tanzanian", fixed)
    assert (again.reason, again.alternatives) == (None, None)  # nothing left to correct


def test_a_study_where_most_moves_win_is_dropped():
    outcome = verify.verify("tanzanian", study(*CROWDED))
    assert (outcome.reason, outcome.detail) == ("too_many_winners", "step 1: 24 of 26 moves win")
    assert verify.crowded(3, 14) and not verify.crowded(3, 15) and not verify.crowded(2, 3)


# A landing study (``tanzanian-5732d7d3ad``) where the verifier's search, its table kept through the
# puzzle, saw a3xd6 win at every depth from 4 to 12, and a fresh depth-4 search (what the tests ask of
# an alternative) did not: a3xd6 is a second winner there, not an alternative.
LANDING = ("W:WKa3,d4,f2:Ba7,b4,b6,b8,f6,h6", ["a3xe7xh4"])


def test_an_alternative_must_win_in_fresh_searches_too():
    position = draughts_game("tanzanian").from_fen(LANDING[0])
    base = verify.judge_for("tanzanian").base(position.state)
    fresh = {
        position.notation(move): verify.fresh_win("tanzanian", position, move, base, last=True)
        for move in position.legal_moves()
    }
    assert fresh == {"a3xe7xh4": True, "a3xc5": False, "a3xe7xg5": False, "a3xd6": False}


# ----------------------------------------------------------------- the deep sample


def pieces(game: str, puzzle: dict) -> int:
    state = draughts_game(game).from_fen(puzzle["fen"]).state
    return (state.white | state.black).bit_count()


def deep_sample(game: str) -> list[dict]:
    """The ``SAMPLE`` verified puzzles cheapest to verify again: the fewest pieces first, ties by id.

    A depth-12 search of a middlegame costs seconds, of a four-piece ending a tenth of one, so the
    sample is the small endings: in English four-piece ending studies, searched at every depth from 4
    to 12 again; in Tanzanian the countdown studies, proven again by the count's table."""
    verified = [puzzle for puzzle in SETS[game] if "verified" in puzzle]
    return sorted(verified, key=lambda puzzle: (pieces(game, puzzle), puzzle["id"]))[:SAMPLE]


def test_the_deep_sample_is_large_enough():
    for game in verify.DRAUGHTS:
        assert len(deep_sample(game)) == SAMPLE, game


@pytest.mark.slow
@pytest.mark.parametrize(("game", "part"), [("english", part) for part in range(PARTS)] + [("tanzanian", 0)])
def test_a_fixed_sample_of_each_set_verifies_again_as_deep(game, part):
    """The verdicts derived again (not read from ``verified``): the same verdict, nothing to correct.
    Tanzanian's sample is one test, so the count's table is built once (about 20 CPU-seconds)."""
    sample = deep_sample(game)
    for puzzle in sample[part::PARTS] if game == "english" else sample:
        outcome = verify.verify(game, puzzle)
        assert (outcome.reason, outcome.alternatives) == (None, None), outcome
        assert outcome.verified == puzzle["verified"], puzzle["id"]


def test_the_report_says_how_the_set_is_spread():
    puzzles = [
        {"rating": 650, "themes": ["shot", "material"], "source": "ubao ending study (seed 1, study 1)"},
        {"rating": 790, "themes": ["shot", "sacrifice"], "source": "ubao self-play (seed 1, game 2)"},
        {"rating": 1500, "themes": ["landing"], "source": "ubao landing study (seed 1, study 3)"},
        {"rating": 2250, "themes": ["countdown"], "source": "ubao countdown study (seed 1, study 4)"},
    ]
    assert verify.spread(puzzles) == (
        "largest band 600-799 50.0%, largest motif shot 50.0%; 1 countdown, 1 ending, 1 landing, 1 self-play"
    )
    assert verify.spread([]) == "no puzzles"
