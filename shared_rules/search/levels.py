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

Budgets are counted in nodes, never in time, and the randomness comes from ``seed``: the same
position, level and seed give the same move on any machine (the games service seeds with the game id
and the ply, so a retried request computes the same reply).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from ..base import Game, Position
from ..errors import GameOver
from . import model_for
from .core import WIN_BOUND, WIN_SCORE, NodeLimitReached, Searcher, is_decisive

LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Level:
    """How one level plays: shallow noisy scoring of every move (``depth``, ``noise``) or a full search."""

    depth: int | None  # plies searched below each root move (weak levels); None: the full search
    noise: int  # the largest random bonus, in hundredths of a pawn or a man
    nodes: int  # the node budget: per root move (weak levels) or for the whole search


# Node budgets per game: chess nodes cost about four times draughts nodes in Python (python-chess move
# generation), so chess gets fewer for the same time.
LEVEL_TABLE: dict[str, dict[int, Level]] = {
    "chess": {
        1: Level(depth=0, noise=250, nodes=60),
        2: Level(depth=0, noise=90, nodes=150),
        3: Level(depth=1, noise=30, nodes=300),
        4: Level(depth=None, noise=0, nodes=2_000),
        5: Level(depth=None, noise=0, nodes=4_000),
    },
    "draughts": {
        1: Level(depth=0, noise=200, nodes=300),
        2: Level(depth=1, noise=80, nodes=600),
        3: Level(depth=2, noise=25, nodes=1_500),
        4: Level(depth=None, noise=0, nodes=4_000),
        5: Level(depth=None, noise=0, nodes=10_000),
    },
}


def level_settings(game_name: str, level: int) -> Level:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS[0]} to {LEVELS[-1]}, not {level!r}")
    return LEVEL_TABLE["chess" if game_name == "chess" else "draughts"][level]


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
def _model(game_name: str, mandatory_capture: bool):
    if game_name == "chess":
        return model_for("chess")
    return model_for(game_name, mandatory_capture=mandatory_capture)


def model_of(game: Game):
    """The search model for a game under its table options."""
    return _model(game.name, bool(game.options.get("mandatory_capture", True)))


def search_state(position: Position):
    """The searcher's state of a rules-layer position (a board without its history, or the raw state)."""
    if position.game.name == "chess":
        return position.board.copy(stack=False)
    return position.state


def choose_move(game: Game, position: Position, level: int, seed: int = 0) -> EngineMove:
    """The computer's move at ``level`` (1-5) in ``position``; always one of ``position.legal_moves()``.

    Raises ``GameOver`` when the game is over (no move to choose).
    """
    settings = level_settings(game.name, level)
    legal = position.legal_moves()
    if not legal:
        raise GameOver("the game is already over")
    model = model_of(game)
    state = search_state(position)
    if len(legal) == 1:  # nothing to think about: answer at once, with a glance at the position
        return _answer(position, legal[0], model.evaluate(model.play(state, legal[0])) * -1, 0, 0, level, [])
    searcher = Searcher(model, table_limit=100_000)
    if settings.depth is None:
        result = searcher.search(state, node_limit=settings.nodes)
        move = result.move if result.move in legal else legal[0]
        pv = _notations(position, result.pv if move == result.move else [move])
        return _answer(position, move, result.score, result.depth, result.nodes, level, pv)
    rng = random.Random(seed)
    best = None
    for move in legal:  # in the rules layer's stable order, so the random draws are reproducible
        child = model.play(state, move)
        try:
            score = -searcher.value(child, settings.depth, node_limit=settings.nodes)
        except NodeLimitReached:
            score = -model.evaluate(child)
        if is_decisive(score):  # one ply further from the root than the child's own count
            score += -1 if score > 0 else 1
        bonus = rng.randint(0, settings.noise) if score >= -WIN_BOUND else 0
        if best is None or score + bonus > best[0]:
            best = (score + bonus, score, move)
    _, score, move = best
    return _answer(position, move, score, settings.depth + 1, searcher.nodes, level, _notations(position, [move]))


def _answer(position: Position, move, score: int, depth: int, nodes: int, level: int, pv: list[str]) -> EngineMove:
    mate_in = None
    if is_decisive(score):
        mate_in = WIN_SCORE - score if score > 0 else -(WIN_SCORE + score)
    return EngineMove(move, position.notation(move), score, mate_in, depth, nodes, level, pv)


def _notations(position: Position, line: list) -> list[str]:
    """The line in notation, as far as it stays legal in the real game (the search ignores some draw rules)."""
    names = []
    for move in line:
        if move not in position.legal_moves():
            break
        names.append(position.notation(move))
        position = position.play(move)
    return names


# ============================================================================ matches between levels
RANDOM = 0  # a "level" that plays a uniformly random legal move (the ladder's floor)
MAX_MATCH_PLIES = 300  # a game still going after this many plies is scored a draw


def random_move(position: Position, seed: int):
    return random.Random(seed).choice(position.legal_moves())


def opening(game: Game, pair: int, plies: int = 2) -> Position:
    """A varied start for the ``pair``-th pair of games: ``plies`` random moves, the same for both colours."""
    rng = random.Random(10_007 * pair + 1)
    position = game.start()
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.play(rng.choice(legal))
    return position


def play_game(game: Game, start: Position, white: int, black: int, seed: int = 0) -> tuple[str, list[str]]:
    """One game between two levels (``RANDOM`` for a random mover): (result, moves in notation).

    The result is ``white``, ``black`` or ``draw`` (the rules' own draws, or ``MAX_MATCH_PLIES`` reached).
    """
    position, moves = start, []
    while not position.status().is_over and len(moves) < MAX_MATCH_PLIES:
        level = white if position.turn == "white" else black
        move_seed = seed * 1_000 + len(moves)
        move = (
            random_move(position, move_seed) if level == RANDOM else choose_move(game, position, level, move_seed).move
        )
        moves.append(position.notation(move))
        position = position.play(move)
    result = position.status().result
    return ("draw" if result == "ongoing" else result), moves


@dataclass
class MatchScore:
    """Points of level ``a`` against level ``b`` (win 1, draw 1/2)."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def elo(self) -> tuple[float, float]:
        """The Elo difference of ``a`` over ``b`` and its 95% error bar (normal approximation per game)."""
        import math

        n = self.games
        score = self.points / n
        variance = (self.wins * (1 - score) ** 2 + self.draws * (0.5 - score) ** 2 + self.losses * score**2) / n

        def to_elo(p: float) -> float:
            p = min(max(p, 0.5 / n), 1 - 0.5 / n)  # a clean sweep is finite, not infinite
            return -400 * math.log10(1 / p - 1)

        margin = 1.96 * math.sqrt(variance / n)
        return to_elo(score), (to_elo(score + margin) - to_elo(score - margin)) / 2

    def line(self) -> str:
        elo, error = self.elo()
        a = "random" if self.a == RANDOM else f"level {self.a}"
        b = "random" if self.b == RANDOM else f"level {self.b}"
        return (
            f"{a} vs {b}: {self.points:g}/{self.games} (+{self.wins} ={self.draws} -{self.losses}), "
            f"Elo {elo:+.0f} ± {error:.0f}"
        )


def match(game: Game, a: int, b: int, games: int, seed: int = 0, on_game=None) -> MatchScore:
    """``games`` games of level ``a`` against level ``b``: colours alternate, each opening is played twice."""
    score = MatchScore(a, b)
    for number in range(games):
        pair, a_is_white = divmod(number, 2)
        start = opening(game, seed * 100_003 + pair)
        white, black = (a, b) if a_is_white == 0 else (b, a)
        result, moves = play_game(game, start, white, black, seed=seed * 100_003 + number)
        a_colour = "white" if a_is_white == 0 else "black"
        if result == "draw":
            score.draws += 1
        elif result == a_colour:
            score.wins += 1
        else:
            score.losses += 1
        if on_game is not None:
            on_game(number, result, moves)
    return score
