"""Where the puzzles come from: self-play games and random endings, each made into a puzzle by the judge
(``make_puzzle``) and kept only when the deep verifier confirms it (``puzzles.verify``)."""

from __future__ import annotations

import hashlib
import random
from functools import cache

from shared_rules.draughts.engine import RawMove, State
from shared_rules.draughts.game import COUNTDOWN_MOVES
from shared_rules.draughts.notation import write_fen
from shared_rules.search import Searcher

from . import countdown, studies, verify
from .judge import Judge, Undecided
from .line import confirmed, solve
from .rating import difficulty, facts_of, rating_of
from .settings import COMMITTED, LICENCE, WORST_START, Record, Settings, draughts_rules
from .themes import themes_of

# Where the puzzles come from, in turn: the kinds of a game in this order, again and again, each
# kind numbered on its own (self-play game 0, landing study 0, ..., self-play game 1, ...).
SOURCES = {
    "english": ("game", "ending"),
    "tanzanian": ("game", "landing", "ending", "countdown"),
}


def make_puzzle(judge: Judge, state: State, settings: Settings, source: str) -> Record | None:
    """The puzzle at ``state`` (the solver to move), or None if it is not one."""
    if len(judge.model.moves(state)) < settings.min_legal_moves:
        return None  # two moves or fewer: a coin toss, not a puzzle
    try:
        line = solve(judge, state, settings)
        if line is None or not confirmed(judge, state, line, settings):
            return None
        facts = facts_of(judge, state, line.moves, settings)
    except Undecided:
        return None
    rules = draughts_rules(judge.game)
    fen = write_fen(rules.squares, state)
    position = rules.from_fen(fen)
    solution = []
    alternatives = []
    for index, move in enumerate(line.moves):
        if index == len(line.moves) - 1:
            alternatives = sorted(position.notation(other) for other in line.alternatives)
        solution.append(position.notation(move))
        position = position.play(move)
    digest = hashlib.sha1(f"{judge.game}|{fen}|{' '.join(solution)}".encode()).hexdigest()[:10]
    puzzle = {
        "id": f"{judge.game}-{digest}",
        "game": judge.game,
        "fen": fen,
        "solution": solution,
        "rating": rating_of(judge.game, round(difficulty(facts))),
        "themes": themes_of(judge, state, line, facts),
        "source": source,
        "licence": LICENCE,
    }
    if alternatives:
        # One list per solver move; only the last can have any (a move that also ends the puzzle won).
        puzzle["alternatives"] = [[] for _ in solution[::2]][:-1] + [alternatives]
    puzzle["difficulty"] = round(difficulty(facts))
    return puzzle


def _worth_judging(judge: Judge, state: State, moves: list[RawMove], seen_score: int) -> bool:
    """Cheap filters before the judge: a choice to make, a level start, and a gain in sight."""
    balance = judge.balance(state, state.turn)
    return (
        len(moves) >= COMMITTED.min_legal_moves
        and -WORST_START <= balance <= 0
        and seen_score >= judge.threshold(0) - 20
    )


# ----------------------------------------------------------------- self-play


def examine_game(game: str, index: int, settings: Settings) -> list[Record]:
    """Play self-play game ``index`` and return the puzzles found in it, in the order of its plies."""
    rng = random.Random(f"{settings.seed}:{game}:{index}")
    judge = Judge(game, depth=settings.depth, node_limit=settings.node_limit)
    model, engine = judge.model, judge.engine
    player = Searcher(model, table_limit=100_000)
    state = engine.start_state()
    opening = rng.randint(2, 8)
    decisive_lead = 3 * model.weights.man + model.weights.king - model.weights.man
    found: list[Record] = []
    last_ply = -10
    for ply in range(settings.max_plies):
        moves = model.moves(state)
        if not moves:
            break
        if ply < opening:
            move = rng.choice(moves)
        else:
            seen = player.search(state, max_depth=rng.randint(1, settings.play_depth), node_limit=settings.play_nodes)
            if (
                len(found) < settings.per_game
                and ply - last_ply > 2
                and _worth_judging(judge, state, moves, seen.score)
            ):
                source = f"ubao self-play (seed {settings.seed}, game {index}, ply {ply})"
                puzzle = make_puzzle(judge, state, settings, source)
                if puzzle is not None:
                    found.append(puzzle)
                    last_ply = ply
            blunder = rng.random() < settings.blunder_rate
            move = rng.choice(moves) if blunder or seen.move is None else seen.move
        state = engine.play(state, move)
        if abs(judge.balance(state, 0)) >= decisive_lead:
            break  # one side is far ahead: the rest of the game teaches little
    return found


# ----------------------------------------------------------------- random endings


@cache
def judge_for(game: str, settings: Settings) -> Judge:
    """One judge per process (every question it answers starts from a cleared table)."""
    return Judge(game, depth=settings.depth, node_limit=settings.node_limit)


def examine_study(kind: str, game: str, index: int, settings: Settings) -> list[Record]:
    """Random ending ``index`` of ``kind`` (``puzzles.studies``): a puzzle if the judge finds one win.

    An ending or a countdown study tries up to ``ending_tries`` (``countdown_tries``) placements and
    keeps the first puzzle; a landing study ``landing_tries``, and keeps the first puzzle whose win
    depends on where the king stops.
    """
    judge = judge_for(game, settings)
    tries = {
        "landing": settings.landing_tries,
        "ending": settings.ending_tries,
        "countdown": settings.countdown_tries,
    }[kind]
    for attempt in range(tries):
        rng = random.Random(f"{settings.seed}:{game}:{kind}:{index}" + (f":{attempt}" if attempt else ""))
        puzzle = _study(judge, kind, studies.RECIPES[kind](rng, judge.engine), settings, index)
        if puzzle is not None and (kind != "landing" or "landing" in puzzle["themes"]):
            return [puzzle]
    return []


def _study(judge: Judge, kind: str, state: State, settings: Settings, index: int) -> Record | None:
    moves = judge.model.moves(state)
    if len(moves) < settings.min_legal_moves or not -WORST_START <= judge.balance(state, state.turn) <= 0:
        return None
    if kind != "countdown" and judge.model.drawn_ending(state):
        return None
    if kind == "countdown" and not _countdown_worth_judging(judge.game, state, moves):
        return None
    screen = Searcher(judge.model).search(state, max_depth=settings.depth, node_limit=settings.study_screen_nodes)
    if screen.score < judge.threshold(judge.base(state)) - 20:
        return None  # no gain in sight
    return make_puzzle(judge, state, settings, f"ubao {kind} study (seed {settings.seed}, study {index})")


def _countdown_worth_judging(game: str, state: State, moves: list[RawMove]) -> bool:
    """The count's table first (a lookup a move): some move of the three must catch the lone king
    within the count, and few enough of them (``verify.crowded``), or the verifier drops the study
    anyway; most placements fail this, and the judge's search of three flying kings is the costly part."""
    table = countdown.table_for(game)
    winners = sum(table.move_wins(state, move, COUNTDOWN_MOVES) for move in moves)
    return winners > 0 and not verify.crowded(winners, len(moves))


def examine(task: tuple[str, str, int, Settings]) -> tuple[list[Record], list[verify.Outcome]]:
    """The puzzles of one source (a self-play game or a random ending), each kept only if the deep
    verifier confirms it (when the settings ask for it), and the verifier's outcome on each."""
    kind, game, index, settings = task
    found = examine_game(game, index, settings) if kind == "game" else examine_study(kind, game, index, settings)
    if not settings.verify:
        return found, []
    outcomes = [verify.verify(game, puzzle) for puzzle in found]
    kept = [
        verify.corrected_puzzle(puzzle, outcome)
        for puzzle, outcome in zip(found, outcomes, strict=True)
        if outcome.reason is None
    ]
    return kept, outcomes
