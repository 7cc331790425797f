"""Reviews of games with a planted blunder, on the real engines: Stockfish for chess (skipped, loudly, where
Debian's stockfish is not installed), ubao's searcher for draughts. The blunder is marked ``??``, the
evaluation drops at its ply, and the personal puzzle made from it is solved by its punishing move, checked
with python-chess, the rules layer and the puzzle loop's own checker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import pytest
from puzzles_api.domain.check import judge as judge_attempt
from review.domain import SCALES, GameReview, Mark
from review.engines import EngineUnavailable, stockfish_path
from review.service import review_game

from puzzles.catalog import Puzzle
from shared_rules import get_game
from shared_rules.draughts.game import DraughtsPosition
from tests.checks import draughts_game


def stockfish_missing() -> bool:
    try:
        stockfish_path()
    except EngineUnavailable:
        return True
    return False


pytestmark = pytest.mark.slow  # each review searches every position of its game: seconds, not milliseconds

needs_stockfish = pytest.mark.skipif(
    stockfish_missing(), reason="Stockfish is not installed (apt-get install stockfish): the chess review needs it"
)

# Black's 3...Qd6 puts the queen where the f4 bishop takes it, and nothing else does: taking it is clearly the
# one move (Stockfish's second best, Qc1, is worth +0.8 where Bxd6 is +6.5).
QUEEN_HUNG = ["d4", "d5", "Nf3", "Nf6", "Bf4", "Qd6", "Bxd6", "cxd6", "e3", "Nc6"]
QUEEN_HUNG_PLY = 6

# Draughts: a man left to a two-for-one shot (the opponent gives one man and takes two back).
SHOTS = {
    "tanzanian": (["c3-b4", "d6-c5", "b4xd6", "c7xe5", "a3-b4", "h6-g5", "g3-f4", "e5xg3", "h2xf4xh6"], 6),
    "english": (
        [
            "10-14",
            "24-20",
            "6-10",
            "22-18",
            "12-16",
            "25-22",
            "8-12",
            "28-24",
            "2-6",
            "22-17",
            "10-15",
            "17x10",
            "15x22",
            "26x17",
            "6x15",
            "30-26",
            "16-19",
            "23x16",
            "12x19x28",
        ],
        16,
    ),
}


def blunder_checks(review: GameReview, moves: list[str], ply: int) -> dict[str, Any]:
    """What every planted blunder shows: its mark, the drop at its ply, and its one personal puzzle."""
    scale = SCALES[review.game]
    blunder = review.moves[ply - 1]
    assert (blunder.ply, blunder.move, blunder.mark) == (ply, moves[ply - 1], Mark.BLUNDER)
    assert blunder.best != blunder.move
    assert blunder in review.marked(Mark.BLUNDER)
    sign = 1 if blunder.colour == "white" else -1
    before = review.moves[ply - 2].eval.chances(scale) * sign
    after = blunder.eval.chances(scale) * sign
    assert before - after >= scale.blunder  # the graph drops at that ply, for the one who blundered
    (puzzle,) = [puzzle for puzzle in review.puzzles if puzzle["ply"] == ply and puzzle["kind"] == "punish"]
    assert (puzzle["owner"], puzzle["ply"], puzzle["mark"]) == (blunder.colour, ply, "??")
    assert puzzle["solution"] == moves[ply : ply + len(puzzle["solution"])]  # the game's own punishment
    accuracy = review.accuracy
    punisher, blunderer = (
        (accuracy.white, accuracy.black) if blunder.colour == "black" else (accuracy.black, accuracy.white)
    )
    assert 0 <= blunderer < punisher <= 100
    return puzzle


def solved_by_the_puzzle_loop(puzzle: dict[str, Any]) -> None:
    record = Puzzle.from_json(puzzle)
    assert judge_attempt(record, record.solver_moves).result == "solved"
    assert puzzle["id"].startswith(f"{puzzle['game']}-mine-")


@needs_stockfish
def test_a_hung_queen_is_a_blunder_and_taking_it_is_the_puzzle() -> None:
    review = review_game("chess", {}, None, QUEEN_HUNG, source="game g1")
    assert [move.move for move in review.moves] == QUEEN_HUNG
    assert [move.ply for move in review.moves] == list(range(1, len(QUEEN_HUNG) + 1))
    puzzle = blunder_checks(review, QUEEN_HUNG, QUEEN_HUNG_PLY)
    assert puzzle["solution"] == ["Bxd6"] and puzzle["source"] == "game g1 ply 6"
    board = chess.Board(puzzle["fen"])
    capture = board.parse_san(puzzle["solution"][0])
    assert board.piece_at(capture.to_square) == chess.Piece(chess.QUEEN, chess.BLACK)
    score = review.moves[QUEEN_HUNG_PLY - 1].eval.score
    assert score is not None and score > 500
    solved_by_the_puzzle_loop(puzzle)


@needs_stockfish
def test_no_mark_for_losing_a_knight_when_a_queen_and_a_knight_up() -> None:
    # Black has no queen and no queen's knight (White about ten pawns up); White's 3.a3 leaves the knight on
    # g5 to the h6 pawn.
    fen = "r1b1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    review = review_game("chess", {}, fen, ["Nf3", "d6", "Ng5", "h6", "a3", "hxg5"])
    given_away = review.moves[4]
    assert given_away.move == "a3" and given_away.best != "a3"
    lost = review.moves[3].eval.score - review.moves[5].eval.score  # type: ignore[operator]
    assert lost >= 150  # the knight is gone, and the engine sees it (Stockfish 15 scores big leads low)
    assert given_away.mark is None
    assert review.puzzles == ()


@needs_stockfish
def test_the_best_move_is_the_engines_in_notation_and_a_mate_ends_the_graph() -> None:
    moves = ["f3", "e5", "g4", "Qh4#"]
    review = review_game("chess", {}, None, moves)
    assert review == review_game("chess", {}, None, moves)  # one thread, a node budget: the same review
    assert review.moves[-1].eval.winner == "black" and review.moves[-1].eval.win_in == 0
    assert review.moves[2].best in get_game("chess").replay(moves[:2]).legal_notations()
    assert review.moves[2].mark == Mark.BLUNDER  # g4 allows mate in one
    assert review.moves[3].mark is None and review.moves[3].best == "Qh4#"
    assert review.accuracy.black > review.accuracy.white


@pytest.mark.parametrize("game", sorted(SHOTS))
def test_a_man_left_to_a_two_for_one_shot_is_a_blunder_and_the_shot_is_the_puzzle(game: str) -> None:
    moves, ply = SHOTS[game]
    review = review_game(game, {}, None, moves)
    assert review == review_game(game, {}, None, moves)  # node budgets: the same review every time
    puzzle = blunder_checks(review, moves, ply)
    assert len(puzzle["solution"]) == 3 and "shot" in puzzle["themes"]
    # The rules layer plays the line: the solver gives one man and takes two.
    position = draughts_game(game).from_fen(puzzle["fen"])
    solver = position.turn
    start = pieces(position)
    for move in puzzle["solution"]:
        position = position.play(move)
    end = pieces(position)
    opponent = "black" if solver == "white" else "white"
    assert start[solver] - end[solver] == 1 and start[opponent] - end[opponent] == 2
    solved_by_the_puzzle_loop(puzzle)


def test_a_shot_missed_is_the_missers_puzzle_too() -> None:
    moves, ply = SHOTS["tanzanian"]
    missed = [*moves[:ply], "b2-a3"]  # White plays on the other wing instead of the shot
    review = review_game("tanzanian", {}, None, missed)
    assert review.moves[ply].mark == Mark.BLUNDER and review.moves[ply].best == moves[ply]
    by_kind = {puzzle["kind"]: puzzle for puzzle in review.puzzles}
    assert (by_kind["missed"]["owner"], by_kind["missed"]["ply"]) == ("white", ply + 1)
    assert (by_kind["punish"]["owner"], by_kind["punish"]["ply"]) == ("black", ply)
    # One position, one puzzle: the shot White missed is the one Black's mistake allowed.
    assert by_kind["missed"]["solution"] == by_kind["punish"]["solution"] == moves[ply : ply + 3]
    solved_by_the_puzzle_loop(by_kind["missed"])


def test_other_rules_get_a_review_but_no_puzzles() -> None:
    moves, ply = SHOTS["english"]
    review = review_game("english", {"mandatory_capture": False}, None, moves)
    assert len(review.moves) == len(moves) and review.puzzles == ()


def test_a_chess_review_without_its_engine_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("UBAO_STOCKFISH", str(tmp_path / "stockfish"))
    with pytest.raises(EngineUnavailable, match="UBAO_STOCKFISH"):
        review_game("chess", {}, None, QUEEN_HUNG)


def test_a_bad_move_is_the_rules_refusal() -> None:
    from shared_rules import InvalidMove

    with pytest.raises(InvalidMove) as refused:
        review_game("tanzanian", {}, None, ["c3-b4", "c3-b4"])
    assert refused.value.index == 1


def pieces(position: DraughtsPosition) -> dict[str, int]:
    state = position.state
    return {"white": state.white.bit_count(), "black": state.black.bit_count()}


@pytest.mark.slow  # 200 positions searched by the draughts engine: about 20 s of CPU
def test_a_long_game_is_reviewed_in_part() -> None:
    """The attack of issue 39: a 1,000-ply game took 70 s of the review function. A game longer than
    ``REVIEWED_PLIES`` is reviewed over its first ``REVIEWED_PLIES`` moves (docs/games.md, "Fair play")."""
    from review.service import REVIEWED_PLIES

    from tests.games.long_game import KINGS_FEN, SHUFFLE

    moves = list(SHUFFLE) * ((REVIEWED_PLIES + 40) // len(SHUFFLE))
    review = review_game("tanzanian", {}, KINGS_FEN, moves)
    assert len(moves) > REVIEWED_PLIES and [move.ply for move in review.moves] == list(range(1, REVIEWED_PLIES + 1))
