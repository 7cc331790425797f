"""The computer opponent: levels 1 to 5 for every game, on the one searcher.

    >>> from shared_rules import get_game
    >>> from shared_rules.search.levels import choose_move
    >>> game = get_game("english")
    >>> choice = choose_move(game, game.start(), level=3, seed=7)
    >>> choice.notation in game.start().legal_notations()
    True

* Levels 1 to 3 are deliberately weak and varied: every legal move is searched shallowly (1 to 3 plies,
  then quiescence) and gets a random bonus of up to ``noise`` before the best is taken, so they choose
  among the moves that do not lose much, more widely the lower the level. A move the search proves
  lost gets no bonus, so they never walk into a forced loss they can see while another move does not;
  a forced win they see they always take.
* Levels 4 and 5 are the full iterative-deepening search within a node budget; level 5's budget is
  about a second of one core (``make bench`` prints the time per move).

Budgets are counted in nodes, and the randomness comes from ``seed``: the same position, level and seed
give the same move on any machine (the games service seeds with the game id and the ply, so a retried
request computes the same reply). Each level also has a time budget (``Level.seconds``), several times
what its node budget takes in ordinary positions: it stops the search only where nodes cost far more
than usual (a board full of flying kings took 0.93 s at level 3, whose moves take 0.012 s in openings),
so no move takes more than twice its level's time budget in any position (``make bench`` prints the
worst positions). There the move may differ from machine to machine; it is always legal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import chess

from ..base import Game, Position
from ..chess_game import ChessPosition
from ..draughts.engine import State
from ..draughts.game import DraughtsPosition
from ..errors import GameOver
from . import model_for
from .core import WIN_BOUND, WIN_SCORE, GameModel, NodeLimitReached, Searcher, TimeLimitReached, is_decisive

LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Level:
    """How one level plays: shallow noisy scoring of every move (``depth``, ``noise``) or a full search."""

    depth: int | None  # plies searched below each root move (weak levels); None: the full search
    noise: int  # the largest random bonus, in hundredths of a pawn or a man
    nodes: int  # the node budget: per root move (weak levels) or for the whole search
    seconds: float  # the time budget of the whole move: the search stops there whatever nodes are left


# Node budgets per game: chess nodes cost about four times draughts nodes in Python (python-chess move
# generation), so chess gets fewer for the same time. Level 5 takes about 0.4 s (chess) and 0.45 s
# (draughts) a move on one core; a budget ten times level 4's is what makes level 5 win in English
# draughts, where equal searchers draw almost every game (docs/engine.md has the ladder).
# Time budgets, in CPU seconds: about what the node budget can take in a busy ordinary position (every root
# move searched to its node budget), so they bind only where nodes are unusually dear (docs/engine.md);
# level 5's is the second the games function is sized for.
LEVEL_TABLE: dict[str, dict[int, Level]] = {
    "chess": {
        1: Level(depth=0, noise=250, nodes=60, seconds=0.25),
        2: Level(depth=0, noise=150, nodes=150, seconds=0.25),
        3: Level(depth=1, noise=30, nodes=300, seconds=0.3),
        4: Level(depth=None, noise=0, nodes=1_200, seconds=0.4),
        5: Level(depth=None, noise=0, nodes=4_000, seconds=1.0),
    },
    "draughts": {
        1: Level(depth=0, noise=200, nodes=300, seconds=0.15),
        2: Level(depth=1, noise=80, nodes=600, seconds=0.15),
        3: Level(depth=2, noise=25, nodes=1_500, seconds=0.2),
        4: Level(depth=None, noise=0, nodes=2_000, seconds=0.2),
        5: Level(depth=None, noise=0, nodes=20_000, seconds=1.0),
    },
}


def family(game_name: str) -> str:
    """Which column of the per-game tables a game reads: ``chess`` or ``draughts`` (every variant)."""
    return "chess" if game_name == "chess" else "draughts"


def level_settings(game_name: str, level: int) -> Level:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS[0]} to {LEVELS[-1]}, not {level!r}")
    return LEVEL_TABLE[family(game_name)][level]


@dataclass
class EngineMove:
    move: object  # the rules layer's move (a chess.Move or a RawMove), legal in the position
    notation: str
    score: int  # for the side to move, in hundredths of a pawn (chess) or of a man (draughts)
    mate_in: int | None  # plies to a forced win (positive) or loss (negative), when the search proved one
    depth: int
    nodes: int
    level: int
    pv: list[str] = field(default_factory=list)  # the expected line, in notation, this move first

    def describe(self) -> str:
        """The evaluation as a player reads it: ``+0.35``, ``win in 3``, ``loss in 4``."""
        if self.mate_in is not None:
            moves = (abs(self.mate_in) + 1) // 2
            return f"{'win' if self.mate_in > 0 else 'loss'} in {moves}"
        return f"{self.score / 100:+.2f}"


@lru_cache(maxsize=8)
def _model(game_name: str, mandatory_capture: bool) -> GameModel:
    if game_name == "chess":
        return model_for("chess")
    return model_for(game_name, mandatory_capture=mandatory_capture)


def model_of(game: Game) -> GameModel:
    """The search model for a game under its table options."""
    return _model(game.name, bool(game.options.get("mandatory_capture", True)))


def search_state(position: Position[Any]) -> chess.Board | State:
    """The searcher's state of a rules-layer position (a board without its history, or the raw state)."""
    if isinstance(position, ChessPosition):
        return position.board.copy(stack=False)
    if isinstance(position, DraughtsPosition):
        return position.state
    raise TypeError(f"no search state for {position!r}")


def choose_move(
    game: Game, position: Position[Any], level: int, seed: int = 0, clock: Callable[[], float] = time.process_time
) -> EngineMove:
    """The computer's move at ``level`` (1-5) in ``position``; always one of ``position.legal_moves()``.

    The search stops at the level's node budget or ``Level.seconds`` after the call on ``clock``, whichever
    comes first. The clock is the process's CPU time: on Lambda the games function has a whole vCPU, so it
    is the wall time of the move; on a shared machine (tests, a laptop) waiting for the CPU does not make
    a move weaker. Raises ``GameOver`` when the game is over (no move to choose).
    """
    settings = level_settings(game.name, level)
    deadline = clock() + settings.seconds
    legal = position.legal_moves()
    if not legal:
        raise GameOver("the game is already over")
    model = model_of(game)
    state = search_state(position)
    if len(legal) == 1:  # nothing to think about: answer at once, with a glance at the position
        return _answer(position, legal[0], model.evaluate(model.play(state, legal[0])) * -1, 0, 0, level, [])
    searcher = Searcher(model, table_limit=100_000, clock=clock)
    if settings.depth is None:
        result = searcher.search(state, node_limit=settings.nodes, deadline=deadline)
        move = result.move if result.move in legal else legal[0]
        pv = _notations(position, result.pv if move == result.move else [move])
        return _answer(position, move, result.score, result.depth, result.nodes, level, pv)
    rng = random.Random(seed)
    best: tuple[int, int, Any] | None = None  # (score with noise, score, move)
    out_of_time = False
    for move in legal:  # in the rules layer's stable order, so the random draws are reproducible
        child = model.play(state, move)
        try:
            if out_of_time:  # the moves left after the deadline get the static evaluation only
                raise TimeLimitReached
            score = -searcher.value(child, settings.depth, node_limit=settings.nodes, deadline=deadline)
        except TimeLimitReached:
            out_of_time = True
            score = -model.evaluate(child)
        except NodeLimitReached:
            score = -model.evaluate(child)
        if is_decisive(score):  # one ply further from the root than the child's own count
            score += -1 if score > 0 else 1
        bonus = rng.randint(0, settings.noise) if score >= -WIN_BOUND else 0
        if best is None or score + bonus > best[0]:
            best = (score + bonus, score, move)
    assert best is not None  # legal is not empty
    _, score, move = best
    return _answer(position, move, score, settings.depth + 1, searcher.nodes, level, _notations(position, [move]))


def _answer(
    position: Position[Any], move: Any, score: int, depth: int, nodes: int, level: int, pv: list[str]
) -> EngineMove:
    mate_in = None
    if is_decisive(score):
        mate_in = WIN_SCORE - score if score > 0 else -(WIN_SCORE + score)
    return EngineMove(move, position.notation(move), score, mate_in, depth, nodes, level, pv)


def _notations(position: Position[Any], line: list[Any]) -> list[str]:
    """The line in notation, as far as it stays legal in the real game (the search ignores some draw rules)."""
    names = []
    for move in line:
        if move not in position.legal_moves():
            break
        names.append(position.notation(move))
        position = position.play(move)
    return names


# ============================================================================ a player's level, from moves
# The computer plays on for a player who has left at about that player's level (``cpu-takeover``). Games
# keep no rating for people, so the level is read from the player's own moves: each is scored against the
# best move of a short fixed-depth search, and the mean loss is matched to the loss each level shows on
# the same kind of positions (``make bench`` measures ``TYPICAL_LOSS`` again).
LOSS_DEPTH = {"chess": 2, "draughts": 4}  # plies of the reference search (then quiescence)
LOSS_NODES = 2_000  # a safety cap per position; the reference search normally needs far fewer
LOSS_CAP = 300  # one blunder counts as three pawns (men) lost, however much it really lost
#: Mean loss per move (hundredths of a pawn or a man) of each level's moves in middlegame positions, as
#: measured by ``make bench`` (rounded; levels 4 and 5 both agree with the short search almost always, so
#: a player who does is read as level 5).
TYPICAL_LOSS = {
    "chess": {1: 65, 2: 33, 3: 12, 4: 1.5, 5: 0.5},
    "draughts": {1: 20, 2: 12, 3: 2.5, 4: 1, 5: 0.5},
}
ESTIMATE_MOVES = {"chess": 10, "draughts": 16}  # the player's last moves that are scored (about a second)


def move_loss(game: Game, position: Position[Any], move: object) -> int:
    """How much worse ``move`` is than the best move, by a short search (0 when it is as good), capped."""
    depth = LOSS_DEPTH[family(game.name)]
    model = model_of(game)
    state = search_state(position)
    searcher = Searcher(model, table_limit=50_000)
    try:
        best = searcher.value(state, depth, node_limit=LOSS_NODES)
        played = -searcher.value(model.play(state, move), depth - 1, node_limit=LOSS_NODES)
    except NodeLimitReached:
        return 0  # too wild to judge quickly: no evidence either way
    return max(0, min(best - played, LOSS_CAP))


def estimate_level(game: Game, moves: list[tuple[Position[Any], object]]) -> int:
    """The level (1-5) whose moves lose about as much as these (position, move played) pairs do.

    Only the last ``ESTIMATE_MOVES`` choices are scored (a move with no alternative tells nothing); with
    none at all the answer is the middle level, 3.
    """
    choices = [(position, move) for position, move in moves if len(position.legal_moves()) > 1]
    sample = choices[-ESTIMATE_MOVES[family(game.name)] :]
    if not sample:
        return 3
    mean = sum(move_loss(game, position, move) for position, move in sample) / len(sample)
    typical = TYPICAL_LOSS[family(game.name)]
    return min(LEVELS, key=lambda level: (abs(math.log1p(mean) - math.log1p(typical[level])), -level))
