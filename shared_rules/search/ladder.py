"""Matches between levels: the level ladder that ``make bench`` and ``ubao match`` print.

    >>> from shared_rules import get_game
    >>> score = match(get_game("english"), 2, RANDOM, games=2)
    >>> score.games
    2

* **Openings.** Each pair of games starts from its own position a few random plies in, played once
  with each colour. A start that a short search scores as clearly better for one side is drawn again,
  and so is one already used in the match, so games neither repeat nor start decided.
* **Adjudication.** A game ends by the rules, or early the way engine-testing tools (cutechess-cli)
  end it, so that a hundred games per pairing stay affordable in pure Python:

  - a material lead of ``win_margin`` held for ``win_plies`` plies in a row wins for the side ahead,
    when that lead can still win (chess: the leader keeps a pawn, rook or queen; Tanzanian draughts:
    not a lone-king ending that the countdown draws);
  - from ply ``draw_after``, ``draw_plies`` plies in a row with no change of material and a lead under
    ``draw_margin`` is a draw;
  - a game still going at ``MAX_MATCH_PLIES`` is a draw.

  Each game reports how it ended, and the score line counts the adjudicated games.
* **Work.** A game is one task with everything it needs in its arguments (``LadderGame``), so a match
  spreads over processes, one game per core, and gives the same games however many processes play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import chess

from .. import get_game
from ..base import Game, Position
from ..draughts.engine import State
from .chess import ChessModel
from .core import GameModel, Searcher
from .draughts import DraughtsModel
from .levels import choose_move, model_of, search_state

#: A game's table options as sorted (key, value) pairs: hashable, for the openings' cache and the tasks.
Options = tuple[tuple[str, Any], ...]
RANDOM = 0  # a "level" that plays a uniformly random legal move (the ladder's floor)
MAX_MATCH_PLIES = 300


@dataclass(frozen=True)
class Adjudication:
    """When a ladder game is decided before the rules end it (material in the search model's units)."""

    win_margin: int
    win_plies: int
    draw_after: int
    draw_plies: int
    draw_margin: int


ADJUDICATION = {
    "chess": Adjudication(win_margin=500, win_plies=10, draw_after=80, draw_plies=40, draw_margin=100),
    # Draughts: two men (or a flying king) up wins; a long shuffle without a winning lead is a draw.
    "english": Adjudication(win_margin=200, win_plies=10, draw_after=0, draw_plies=30, draw_margin=200),
    "tanzanian": Adjudication(win_margin=300, win_plies=10, draw_after=0, draw_plies=30, draw_margin=300),
}
OPENING_PLIES = 4
BALANCED = 60  # an opening a short search scores beyond this (hundredths of a pawn or a man) is drawn again


def adjudication_for(game_name: str) -> Adjudication:
    return ADJUDICATION.get(game_name, ADJUDICATION["english"])


# ------------------------------------------------------------------------------------------ openings


def openings(game: Game, count: int, seed: int = 0) -> list[Position[Any]]:
    """``count`` different balanced starts, ``OPENING_PLIES`` random plies in (the same list every call)."""
    return list(_openings(game.name, _frozen(game.options), count, seed))


@lru_cache(maxsize=32)
def _openings(game_name: str, options: Options, count: int, seed: int) -> tuple[Position[Any], ...]:
    game = get_game(game_name, dict(options))
    model = model_of(game)
    rng = random.Random(7_919 * seed + 1)
    found: dict[str, Position[Any]] = {}
    for _attempt in range(count * 50):
        if len(found) == count:
            break
        position = game.start()
        for _ in range(OPENING_PLIES):
            legal = position.legal_moves()
            if not legal:
                break
            position = position.play(rng.choice(legal))
        if position.status().is_over or position.fen() in found:
            continue
        score = Searcher(model, table_limit=20_000).search(search_state(position), node_limit=1_500).score
        if abs(score) <= BALANCED:
            found[position.fen()] = position
    if len(found) < count:  # a tiny variant: fewer distinct balanced starts than games
        raise ValueError(f"only {len(found)} different balanced openings found for {game_name}, not {count}")
    return tuple(found.values())


def _frozen(options: dict[str, Any]) -> Options:
    return tuple(sorted(options.items()))


# ------------------------------------------------------------------------------------------ one game


@dataclass(frozen=True)
class LadderGame:
    """One game of a match, as a task for any process: level ``a`` against level ``b``."""

    game_name: str
    options: Options  # the table options
    a: int
    b: int
    number: int  # games 2k and 2k+1 share opening k; in game 2k level ``a`` has White
    games: int  # the match's length (how many openings it needs)
    seed: int

    @property
    def a_colour(self) -> str:
        return "white" if self.number % 2 == 0 else "black"


@dataclass
class GameOutcome:
    task: LadderGame
    result: str  # white, black or draw
    ended_by: str | None  # the rules' reason, "adjudicated" or "ply_limit"
    moves: list[str]

    @property
    def a_points(self) -> float:
        if self.result == "draw":
            return 0.5
        return 1.0 if self.result == self.task.a_colour else 0.0


def play_ladder_game(task: LadderGame) -> GameOutcome:
    game = get_game(task.game_name, dict(task.options))
    start = openings(game, (task.games + 1) // 2, task.seed)[task.number // 2]
    white, black = (task.a, task.b) if task.a_colour == "white" else (task.b, task.a)
    return play_game(game, start, white, black, task, seed=task.seed * 100_003 + task.number)


def random_move(position: Position[Any], seed: int) -> Any:
    return random.Random(seed).choice(position.legal_moves())


def play_game(game: Game, start: Position[Any], white: int, black: int, task: LadderGame, seed: int = 0) -> GameOutcome:
    """One game between two levels (``RANDOM`` for a random mover), to its end or its adjudication."""
    judge = Adjudicator(game)
    position = start
    moves: list[str] = []
    while True:
        status = position.status()
        if status.is_over:
            return GameOutcome(task, status.result, status.reason, moves)
        verdict = judge.after(position)
        if verdict is not None:
            return GameOutcome(task, verdict, "adjudicated", moves)
        if len(moves) >= MAX_MATCH_PLIES:
            return GameOutcome(task, "draw", "ply_limit", moves)
        level = white if position.turn == "white" else black
        move_seed = seed * 1_000 + len(moves)
        if level == RANDOM:
            move = random_move(position, move_seed)
        else:
            move = choose_move(game, position, level, move_seed).move
        moves.append(position.notation(move))
        position = position.play(move)


class Adjudicator:
    """Follows the material after every ply and says when the game can be adjudicated."""

    def __init__(self, game: Game):
        self.game = game
        self.model = model_of(game)
        self.rule = adjudication_for(game.name)
        self.plies = 0
        self.leader_since: tuple[str | None, int] = (None, 0)
        self.material_since: tuple[int | None, int] = (None, 0)

    def after(self, position: Position[Any]) -> str | None:
        rule, ply = self.rule, self.plies
        self.plies += 1
        state = search_state(position)
        material = self._material(state)
        leader = None
        if abs(material) >= rule.win_margin:
            leader = "white" if material > 0 else "black"
            if not self._can_win(state, leader):
                leader = None
        if leader != self.leader_since[0]:
            self.leader_since = (leader, ply)
        if material != self.material_since[0]:
            self.material_since = (material, ply)
        if leader is not None and ply - self.leader_since[1] >= rule.win_plies:
            return leader
        quiet = ply - self.material_since[1]
        if ply >= rule.draw_after and quiet >= rule.draw_plies and abs(material) < rule.draw_margin:
            return "draw"
        return None

    def _material(self, state: chess.Board | State) -> int:
        model: GameModel = self.model
        if isinstance(model, ChessModel) and isinstance(state, chess.Board):
            return model.material(state)
        if isinstance(model, DraughtsModel) and isinstance(state, State):
            return model.material(state)
        raise TypeError(f"{type(model).__name__} has no material count for {type(state).__name__}")

    def _can_win(self, state: chess.Board | State, leader: str) -> bool:
        if isinstance(state, chess.Board):
            side = state.occupied_co[chess.WHITE if leader == "white" else chess.BLACK]
            return bool(side & (state.pawns | state.rooks | state.queens))
        if isinstance(self.model, DraughtsModel):
            return not self.model.drawn_ending(state)
        raise TypeError(f"{type(self.model).__name__} cannot judge a draughts ending")


# ------------------------------------------------------------------------------------------ matches


@dataclass
class MatchScore:
    """Points of level ``a`` against level ``b`` (win 1, draw 1/2)."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    plies: list[int] = field(default_factory=list)

    def add(self, outcome: GameOutcome) -> None:
        points = outcome.a_points
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1
        self.adjudicated += outcome.ended_by == "adjudicated"
        self.plies.append(len(outcome.moves))

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def elo(self) -> tuple[float, float]:
        """The Elo difference of ``a`` over ``b`` and its 95% error bar (normal approximation per game)."""
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
        if self.points in (0, self.games):  # a clean sweep only bounds the difference
            difference = f"Elo {'≥' if elo > 0 else '≤'} {elo:+.0f}"
        else:
            difference = f"Elo {elo:+.0f} ± {error:.0f}"
        return (
            f"{level_name(self.a)} vs {level_name(self.b)}: {self.points:g}/{self.games} "
            f"(+{self.wins} ={self.draws} -{self.losses}), {difference}, {self.adjudicated} adjudicated"
        )


def level_name(level: int) -> str:
    return "random" if level == RANDOM else f"level {level}"


def match_tasks(game: Game, a: int, b: int, games: int, seed: int = 0) -> list[LadderGame]:
    return [LadderGame(game.name, _frozen(game.options), a, b, number, games, seed) for number in range(games)]


def play_all(tasks: Iterable[LadderGame], workers: int = 1) -> Iterator[GameOutcome]:
    """The outcomes of ``tasks`` in their order, played by ``workers`` processes (1: in this one)."""
    if workers <= 1:
        yield from map(play_ladder_game, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_ladder_game, tasks)


def match(
    game: Game,
    a: int,
    b: int,
    games: int,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> MatchScore:
    """``games`` games of level ``a`` against level ``b``: colours alternate, each opening is played twice."""
    score = MatchScore(a, b)
    for outcome in play_all(match_tasks(game, a, b, games, seed), workers):
        score.add(outcome)
        if on_game is not None:
            on_game(outcome)
    return score
