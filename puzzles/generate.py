"""Generate the draughts puzzle sets: positions where exactly one move wins, found by search.

    python -m puzzles.generate                       # both variants, the committed settings
    python -m puzzles.generate --games english --count 20 --out /tmp/p

Where the positions come from:

* self-play: game ``i`` gets its own seeded random generator and is played by two shallow searchers
  that now and then play a random move (people miss things too). Whenever the side to move sees a
  gain in its own search, the position goes to the deeper ``Judge``;
* countdown studies (Tanzanian only): seeded random placements of three kings against a lone king,
  where the three must catch the king quickly (the 12-move count), kept when one move does it.

The judge asks for the solver's moves to be, each, the only winning move (clear of a margin, and again two
plies deeper); the opponent answers with the defence its search prefers, until the gain is on the
board or the game is won. Puzzles are rated from how deep the win lies, how long the line is, and
what makes the first move hard to see, and tagged with themes.

The output depends only on the settings and the seed, not on ``--jobs``: games are examined in
order and the first puzzles found are kept, so a smaller ``--count`` gives a prefix of a larger one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path

from shared_rules import get_game
from shared_rules.draughts.engine import RawMove, State
from shared_rules.draughts.notation import write_fen
from shared_rules.search import Searcher, is_decisive

from .judge import Judge, Undecided

HERE = Path(__file__).resolve().parent
DRAUGHTS = ("english", "tanzanian")
LICENCE = "GPL-3.0-or-later"
WORST_START = 100  # the solver starts level or at most a man down, never already ahead


@dataclass(frozen=True)
class Settings:
    seed: int = 2024
    depth: int = 4  # plies the judge searches for every answer (captures and lone replies are free)
    confirm_depth: int = 6  # every solver step must also hold this deep
    node_limit: int = 40_000  # per question; a question that needs more is left undecided
    play_depth: int = 2  # the self-play searchers search 1 to this many plies
    play_nodes: int = 400
    blunder_rate: float = 0.15  # chance of a random move instead of the searcher's
    max_plies: int = 160
    max_solver_moves: int = 5
    per_game: int = 3  # at most this many puzzles from one game
    one_move_share: float = 0.2  # at most this share of one-move puzzles (mostly choosing a capture)
    study_screen_nodes: int = 3_000


COMMITTED = Settings()
COUNTDOWN_STUDIES = {"english": 0, "tanzanian": 15}  # of the --count, made from random 3-against-1 endings


# ----------------------------------------------------------------- the line of a puzzle


def solve(judge: Judge, state: State, settings: Settings) -> tuple[list[RawMove], str] | None:
    """The puzzle's line from ``state``: the solver's only winning moves and the best defences.

    Ends when the solver has won the game ("game") or holds the gain with nothing left to capture
    ("material"); None when some step has no single clear winner.
    """
    engine = judge.engine
    solver = state.turn
    base = judge.base(state)
    target = judge.threshold(base)
    line: list[RawMove] = []
    for _ in range(settings.max_solver_moves):
        move = judge.only_winner(state, base)
        if move is None:
            return None
        line.append(move)
        state = engine.play(state, move)
        replies = judge.model.moves(state)
        if not replies:
            return line, "game"
        if not replies[0].captured and judge.balance(state, solver) >= target:
            return line, "material"
        reply = judge.best_reply(state)
        line.append(reply)
        state = engine.play(state, reply)
    return None


def confirmed(judge: Judge, state: State, line: list[RawMove], settings: Settings) -> bool:
    """Each of the solver's moves still wins, and alone, when every answer is searched deeper."""
    base = judge.base(state)
    for index, move in enumerate(line):
        if index % 2 == 0 and judge.only_winner(state, base, depth=settings.confirm_depth) != move:
            return False
        state = judge.engine.play(state, move)
    return True


# ----------------------------------------------------------------- rating and themes


@dataclass(frozen=True)
class Facts:
    seen_at: int  # the shallowest search depth at which the first move is seen to win
    tempting: int  # other moves that look at least as good to a one-ply look
    sacrifice: bool  # the solver gives material before winning more
    quiet_start: bool  # the first move neither captures nor gives anything: a threat to see
    solver_moves: int
    legal_moves: int


def facts_of(judge: Judge, state: State, line: list[RawMove], settings: Settings) -> Facts:
    target = judge.threshold(judge.base(state))
    first = line[0]
    seen_at = next((d for d in range(1, settings.depth) if judge.reaches(state, first, target, d)), settings.depth)
    moves = judge.model.moves(state)
    glance = {move: judge.score(state, move, 1) for move in moves}
    tempting = sum(1 for move in moves if move != first and glance[move] >= glance[first])
    sacrifice = False
    if len(line) >= 2:
        after = judge.engine.play(judge.engine.play(state, line[0]), line[1])
        gave = judge.model.material(after) - judge.model.material(state)
        sacrifice = (gave if state.turn == 0 else -gave) < 0
    return Facts(seen_at, tempting, sacrifice, not first.captured and not sacrifice, (len(line) + 1) // 2, len(moves))


def rating_of(facts: Facts) -> int:
    """A Lichess-like rating, 600 to 2400: each thing that makes the win harder to find adds to it.

    Calibrated against Lichess's scale by analogy: choosing the right capture is like taking a hanging
    piece (700-900), a sacrifice and a double capture like a two-move combination (about 1250), a
    quiet threat or a win seen only three or four plies deep like the harder tactics (1500-2200).
    """
    rating = (
        700
        + 250 * (facts.seen_at - 1)
        + 150 * (facts.solver_moves - 1)
        + 50 * min(facts.tempting, 5)
        + (300 if facts.sacrifice else 0)
        + (250 if facts.quiet_start else 0)
        + 10 * min(max(facts.legal_moves - 2, 0), 10)
    )
    return max(600, min(2400, rating))


def themes_of(judge: Judge, state: State, line: list[RawMove], end: str, facts: Facts) -> list[str]:
    """Theme tags, in the spirit of Lichess's, for draughts."""
    themes = {"game_win" if end == "game" else "material"}
    pieces = state.white | state.black
    if (pieces & ~state.kings).bit_count() <= 2 and state.kings:
        themes.add("king_endgame")
    elif pieces.bit_count() <= 8:
        themes.add("endgame")
    if facts.sacrifice:
        themes.add("sacrifice")
    if line[0].captured:
        themes.add("capture_choice")
    elif facts.quiet_start:
        themes.add("quiet_move")
    position = state
    for index, move in enumerate(line):
        if index % 2 == 0:
            if move.crowned:
                themes.add("breakthrough")
            if move.captured.bit_count() >= 2 and index > 0 and line[index - 1].captured:
                themes.add("shot")  # the opponent took, and the solver takes two or more back
            if move.captured.bit_count() >= 3:
                themes.add("multi_capture")
        if judge.model.lone_king_draws and _three_kings_against_one(position):
            themes.add("countdown")
        position = judge.engine.play(position, move)
    length = facts.solver_moves
    themes.add("one_move" if length == 1 else "short" if length == 2 else "long" if length == 3 else "very_long")
    return sorted(themes)


def _three_kings_against_one(state: State) -> bool:
    white, black, kings, _ = state
    return sorted((white.bit_count(), black.bit_count())) == [1, 3] and not (white | black) & ~kings


# ----------------------------------------------------------------- a puzzle


def make_puzzle(judge: Judge, state: State, settings: Settings, source: str) -> dict | None:
    """The puzzle at ``state`` (the solver to move), or None if it is not one."""
    try:
        solved = solve(judge, state, settings)
        if solved is None:
            return None
        line, end = solved
        if not confirmed(judge, state, line, settings):
            return None
        facts = facts_of(judge, state, line, settings)
    except Undecided:
        return None
    rules = get_game(judge.game)
    fen = write_fen(rules.squares, state)
    position = rules.from_fen(fen)
    solution = []
    for move in line:
        solution.append(position.notation(move))
        position = position.play(move)
    digest = hashlib.sha1(f"{judge.game}|{fen}|{' '.join(solution)}".encode()).hexdigest()[:10]
    return {
        "id": f"{judge.game}-{digest}",
        "game": judge.game,
        "fen": fen,
        "solution": solution,
        "rating": rating_of(facts),
        "themes": themes_of(judge, state, line, end, facts),
        "source": source,
        "licence": LICENCE,
    }


def _worth_judging(judge: Judge, state: State, moves: list[RawMove], seen_score: int) -> bool:
    """Cheap filters before the judge: a choice to make, a level start, and a gain in sight."""
    balance = judge.balance(state, state.turn)
    return len(moves) >= 2 and -WORST_START <= balance <= 0 and seen_score >= judge.threshold(0) - 20


# ----------------------------------------------------------------- self-play


def examine_game(game: str, index: int, settings: Settings) -> list[dict]:
    """Play self-play game ``index`` and return the puzzles found in it, in the order of its plies."""
    rng = random.Random(f"{settings.seed}:{game}:{index}")
    judge = Judge(game, depth=settings.depth, node_limit=settings.node_limit)
    model, engine = judge.model, judge.engine
    player = Searcher(model, table_limit=100_000)
    state = engine.start_state()
    opening = rng.randint(2, 8)
    decisive_lead = 3 * model.weights.man + model.weights.king - model.weights.man
    found: list[dict] = []
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
            move = rng.choice(moves) if rng.random() < settings.blunder_rate else seen.move
        state = engine.play(state, move)
        if abs(judge.balance(state, 0)) >= decisive_lead:
            break  # one side is far ahead: the rest of the game teaches little
    return found


# ----------------------------------------------------------------- countdown studies


def examine_study(game: str, index: int, settings: Settings) -> list[dict]:
    """Random three kings against a lone king, the three to move: a puzzle if one move catches it."""
    rng = random.Random(f"{settings.seed}:{game}:countdown:{index}")
    judge = Judge(game, depth=settings.depth, node_limit=settings.node_limit)
    squares = sorted(judge.engine.coords)
    picks = rng.sample(squares, 4)
    strong = sum(1 << square for square in picks[:3])
    lone = 1 << picks[3]
    turn = rng.randint(0, 1)
    white, black = (strong, lone) if turn == 0 else (lone, strong)
    state = State(white, black, white | black, turn)
    moves = judge.model.moves(state)
    if len(moves) < 2:
        return []
    screen = Searcher(judge.model).search(state, max_depth=settings.depth, node_limit=settings.study_screen_nodes)
    if not is_decisive(screen.score) or screen.score < 0:
        return []  # no quick catch in sight: the count would run out
    puzzle = make_puzzle(judge, state, settings, f"ubao countdown study (seed {settings.seed}, study {index})")
    return [puzzle] if puzzle is not None else []


# ----------------------------------------------------------------- the driver


def _examine(task: tuple[Callable[[str, int, Settings], list[dict]], str, int, Settings]) -> list[dict]:
    examine, game, index, settings = task
    return examine(game, index, settings)


def _collect(examine, game: str, count: int, settings: Settings, jobs: int, accept: Callable[[dict], bool]) -> None:
    """Examine sources 0, 1, 2, ... in order, offering their puzzles to ``accept`` until it has enough."""
    if count <= 0:
        return

    def tasks() -> Iterator[tuple]:
        index = 0
        while True:
            yield examine, game, index, settings
            index += 1

    def offer(puzzles: list[dict]) -> bool:
        return any(accept(puzzle) for puzzle in puzzles)

    if jobs <= 1:
        for task in tasks():
            if offer(_examine(task)):
                return
        return
    with get_context("spawn").Pool(jobs) as pool:
        for puzzles in pool.imap(_examine, tasks(), chunksize=1):
            if offer(puzzles):
                pool.terminate()
                return


def generate(
    game: str,
    count: int,
    settings: Settings = COMMITTED,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    studies: int | None = None,
) -> list[dict]:
    """``count`` distinct puzzles of ``game``: from self-play, then ``studies`` countdown studies."""
    studies = min(COUNTDOWN_STUDIES.get(game, 0) if studies is None else studies, count)
    puzzles: list[dict] = []
    fens: set[str] = set()
    started = time.monotonic()
    one_move = 0

    def accepter(limit: int):
        def accept(puzzle: dict) -> bool:
            nonlocal one_move
            if puzzle["fen"] in fens:
                return False
            if "one_move" in puzzle["themes"]:
                # Decided from the puzzles so far only, so a smaller count gives a prefix of a larger one.
                if one_move >= settings.one_move_share * (len(puzzles) + 1):
                    return False
                one_move += 1
            fens.add(puzzle["fen"])
            puzzles.append(puzzle)
            if progress and (len(puzzles) % 25 == 0 or len(puzzles) == count):
                progress(f"{game}: {len(puzzles)}/{count} puzzles, {time.monotonic() - started:.0f}s")
            return len(puzzles) >= limit

        return accept

    _collect(examine_game, game, count - studies, settings, jobs, accepter(count - studies))
    _collect(examine_study, game, studies, settings, jobs, accepter(count))
    return puzzles


def write_jsonl(path: Path, puzzles: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle, ensure_ascii=False, separators=(",", ":")) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(DRAUGHTS), help="comma-separated: english,tanzanian")
    parser.add_argument("--count", type=int, default=450, help="puzzles per game (default 450)")
    parser.add_argument("--seed", type=int, default=COMMITTED.seed)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the output does not depend on it)")
    parser.add_argument("--out", type=Path, default=HERE, help="directory for <game>.jsonl (default: puzzles/)")
    args = parser.parse_args(argv)
    settings = replace(COMMITTED, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        if game not in DRAUGHTS:
            parser.error(f"unknown draughts game {game!r}; choose from {', '.join(DRAUGHTS)}")
        started = time.monotonic()
        puzzles = generate(game, args.count, settings, jobs=args.jobs, progress=lambda text: print(text, flush=True))
        write_jsonl(args.out / f"{game}.jsonl", puzzles)
        print(
            f"{game}: wrote {len(puzzles)} puzzles to {args.out / (game + '.jsonl')} "
            f"in {time.monotonic() - started:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
