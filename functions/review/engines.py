"""The engines a review asks, behind one Protocol: an evaluation and the best move of a position, and the
line of a puzzle where one move is clearly best.

* Chess: Stockfish, Debian's ``stockfish`` binary spoken to over UCI through python-chess's public
  ``chess.engine`` (docs/engine.md says why not pyffish). Node-limited on one thread, so a review gives the
  same marks on every machine of one architecture.
* Draughts: ubao's own searcher (``shared_rules.search``) at the review's node budget and nothing else, so
  two reviews of one game agree on any machine, however busy; the puzzle line comes from the puzzle sets' own generator and judge
  (``puzzles.generate.make_puzzle``), so a personal puzzle obeys exactly the sets' margin rule.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import chess
import chess.engine

from puzzles.judge import Judge
from puzzles.settings import COMMITTED
from puzzles.sources import make_puzzle
from shared_rules import Position
from shared_rules.chess_game import ChessPosition
from shared_rules.draughts.game import DraughtsPosition
from shared_rules.names import Colour
from shared_rules.search import WIN_SCORE, Searcher, is_decisive
from shared_rules.search.draughts import DraughtsModel

from .domain import SCALES, Evaluation

#: Where the Stockfish binary is looked for after ``$UBAO_STOCKFISH`` and ``$PATH``: Debian's package puts it
#: in /usr/games; a Lambda layer puts its files under /opt.
STOCKFISH_PLACES = ("/usr/games/stockfish", "/opt/bin/stockfish")

#: Stockfish nodes per position of a review: about 0.15 CPU-seconds with Debian's build (docs/engine.md).
CHESS_REVIEW_NODES = 60_000
#: ... and per position judged for a personal puzzle (two lines searched, the best and the second best).
CHESS_PUZZLE_NODES = 150_000
#: A chess personal puzzle: the solver's winning chances after the best move at least this (about +3 pawns) ...
CLEAR_ADVANTAGE = 0.5
#: ... and every other move's at least this much lower, so one move is clearly best.
ONLY_MOVE_MARGIN = 0.4
#: Chess personal puzzles are never rated (solving one changes no rating); they carry the start rating.
UNRATED = 1500

#: Draughts nodes per position of a review (about 0.13 CPU-seconds). Nodes alone bound the search: a CPU-time
#: cap made the review depend on the machine's load (a loaded CI run cut one position short at 100
#: microseconds a node and two reviews of one game differed), and the node count already bounds the time.
DRAUGHTS_REVIEW_NODES = 6_000


class EngineUnavailable(RuntimeError):
    """The chess engine's binary is not installed."""


@dataclass(frozen=True)
class Analysis:
    """What the engine says of a position: its evaluation (for White) and the best move, in notation."""

    evaluation: Evaluation
    best: str | None  # None only where the side to move has no legal move


class Analyser(Protocol):
    """One game's engine for a review. Positions are the rules layer's, with the moves that led to them."""

    def analyse(self, position: Position[Any]) -> Analysis:
        """The evaluation and best move of a position whose game is not over."""

    def puzzle(self, position: Position[Any]) -> dict[str, Any] | None:
        """The puzzle record set at this position (the side to move solves it), or None if no one move is
        clearly best and keeps a clear advantage."""

    def close(self) -> None:
        """Let go of what the engine holds (Stockfish's process)."""


def win_in_moves(plies: int) -> int:
    """The winner's own moves in a win ``plies`` half-moves away."""
    return (plies + 1) // 2


def stockfish_path() -> str:
    """``$UBAO_STOCKFISH`` when set (and then only it), else ``stockfish`` on ``$PATH`` or in ``STOCKFISH_PLACES``."""
    chosen = os.environ.get("UBAO_STOCKFISH")
    if chosen:
        if not os.access(chosen, os.X_OK):
            raise EngineUnavailable(f"UBAO_STOCKFISH names no program: {chosen}")
        return chosen
    found = shutil.which("stockfish") or next((place for place in STOCKFISH_PLACES if Path(place).exists()), None)
    if found is None:
        raise EngineUnavailable("Stockfish is not installed (Debian: apt-get install stockfish)")
    return found


class StockfishAnalyser:
    """Stockfish over UCI, one thread, node-limited. Use as a context manager, or ``close`` it."""

    def __init__(self, path: str | None = None, *, nodes: int = CHESS_REVIEW_NODES):
        self.nodes = nodes
        self.engine = chess.engine.SimpleEngine.popen_uci(path or stockfish_path())
        self.engine.configure({"Threads": 1, "Hash": 32})

    def __enter__(self) -> StockfishAnalyser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.quit()

    def analyse(self, position: Position[Any]) -> Analysis:
        board = _board(position)
        info = self.engine.analyse(board, chess.engine.Limit(nodes=self.nodes), game=self)
        pv = info.get("pv") or []
        return Analysis(_evaluation(info["score"].white()), board.san(pv[0]) if pv else None)

    def puzzle(self, position: Position[Any]) -> dict[str, Any] | None:
        board = _board(position)
        if board.legal_moves.count() < 2:
            return None  # a lone move is no puzzle
        lines = self.engine.analyse(board, chess.engine.Limit(nodes=CHESS_PUZZLE_NODES), multipv=2, game=self)
        scale = SCALES["chess"]
        solver: Colour = "white" if board.turn == chess.WHITE else "black"
        chances = [_evaluation(line["score"].pov(chess.WHITE)).chances(scale) for line in lines]
        if solver == "black":
            chances = [-c for c in chances]
        if len(lines) < 2 or chances[0] < CLEAR_ADVANTAGE or chances[1] > chances[0] - ONLY_MOVE_MARGIN:
            return None
        # One move: the puzzle is finding the punishment. A longer line would fail a solver who finds
        # another win at a later step, where no one asked the engine whether that step is clearly best.
        solution = [board.san(lines[0]["pv"][0])]
        mate = lines[0]["score"].pov(board.turn).mate()
        themes = [f"mateIn{mate}"] if mate is not None and mate > 0 else ["advantage"]
        return {"game": "chess", "fen": board.fen(), "solution": solution, "rating": UNRATED, "themes": themes}


class DraughtsAnalyser:
    """ubao's searcher at the review's budget; the puzzle sets' judge for personal puzzles."""

    def __init__(self, position: DraughtsPosition, *, nodes: int = DRAUGHTS_REVIEW_NODES):
        game = position.game
        self.name = game.name
        self.nodes = nodes
        self.model = DraughtsModel(game.variant, mandatory_capture=game.mandatory_capture)
        # The table is kept from one position of the game to the next: they share most of their subtrees.
        self.searcher = Searcher(self.model, table_limit=200_000)
        # The sets were judged under the standard rules: a game with other options gets no puzzles.
        self.judge = Judge(self.name, depth=COMMITTED.depth, node_limit=COMMITTED.node_limit)
        self.standard_rules = game.mandatory_capture

    def close(self) -> None:
        self.searcher.clear()

    def analyse(self, position: Position[Any]) -> Analysis:
        assert isinstance(position, DraughtsPosition)
        result = self.searcher.search(position.state, node_limit=self.nodes)
        mover: Colour = "white" if position.turn == "white" else "black"
        if is_decisive(result.score):
            winner: Colour = mover if result.score > 0 else ("black" if mover == "white" else "white")
            evaluation = Evaluation.win(winner, win_in_moves(WIN_SCORE - abs(result.score)))
        else:
            evaluation = Evaluation.of_score(result.score if mover == "white" else -result.score)
        return Analysis(evaluation, position.notation(result.move) if result.move is not None else None)

    def puzzle(self, position: Position[Any]) -> dict[str, Any] | None:
        assert isinstance(position, DraughtsPosition)
        if not self.standard_rules:
            return None
        return make_puzzle(self.judge, position.state, COMMITTED, source="")


def analyser_for(position: Position[Any]) -> Analyser:
    """The engine of the game ``position`` belongs to (Stockfish for chess: ``EngineUnavailable`` without it)."""
    if isinstance(position, ChessPosition):
        return StockfishAnalyser()
    if isinstance(position, DraughtsPosition):
        return DraughtsAnalyser(position)
    raise ValueError(f"no review engine for {position.game.name!r}")


def _board(position: Position[Any]) -> chess.Board:
    assert isinstance(position, ChessPosition)
    return position.board


def _evaluation(score: chess.engine.Score) -> Evaluation:
    """A score for White from python-chess: centipawns, or a mate in n of the mating side's moves."""
    mate = score.mate()
    if mate is None:
        return Evaluation.of_score(score.score() or 0)
    return Evaluation.win("white" if mate > 0 else "black", abs(mate))
