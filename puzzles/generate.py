"""Generate the draughts puzzle sets: positions where exactly one move wins, by a clear margin, found by search.

    python -m puzzles.generate                       # both variants, 1,500 each, the committed settings
    python -m puzzles.generate --games english --count 20 --out /tmp/p
    python -m puzzles.generate --fit-ratings         # print RATING_KNOTS for the committed files
    python -m puzzles.generate --rerate              # rewrite their ratings with RATING_KNOTS
    python -m puzzles.generate --top-up --kinds ending   # refill the sets to 1,500 from the next endings
    python -m puzzles.generate --top-up --band-share 1   # no band limit: for a set re-rated afterwards

Where the positions come from (``SOURCES``, in turn):

* self-play: game ``i`` gets its own seeded random generator and is played by two shallow searchers
  that now and then play a random move (people miss things too). Whenever the side to move sees a
  gain in its own search, the position goes to the deeper ``Judge``;
* random endings (``puzzles.studies``): a few pieces; for Tanzanian also a flying king that must
  choose where to stop (landing), and three kings against a lone king (countdown).

The judge asks for the solver's moves to be, each, the only winning move (every other move at least
0.6 of a man worse, and again two plies deeper), except that at the last step other moves that
finish the puzzle as well are recorded as alternatives; the opponent answers with the defence its
search prefers, until the gain is on the board or the game is won. No first position has fewer than
three legal moves. Each puzzle is then verified far deeper (``puzzles.verify``: every depth from 4
to 12, countdown studies solved exactly) and kept only if it holds. Puzzles are rated from how hard
the first move is to find, tagged with themes, and a set is kept spread over its motifs (``Spread``).
The modules: ``settings``, ``line`` (the judge's line), ``rating``, ``themes``, ``sources`` (self-play
and random endings, made into verified puzzles) and this driver.

The output depends only on the settings and the seed, not on ``--jobs``: sources are examined in
order and the first puzzles found are kept, so a smaller ``--count`` gives a prefix of a larger one.
``--top-up`` keeps a set as it is and goes on from the sources after the last one it comes from.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path

from .rating import band_of, fit_knots, rating_of
from .settings import COMMITTED, DRAUGHTS, Record, Settings
from .sources import SOURCES, examine
from .themes import MOTIFS
from .verify import Outcome, read_jsonl, summary, write_jsonl

HERE = Path(__file__).resolve().parent
__all__ = ["COMMITTED", "DRAUGHTS", "MOTIFS", "Settings", "band_of", "fit_knots", "generate", "main", "rating_of"]


Examined = tuple[list[Record], list[Outcome]]  # a source's verified puzzles, and every verifier outcome


def _collect(
    game: str,
    settings: Settings,
    jobs: int,
    accept: Callable[[Examined], bool],
    first: dict[str, int] | None = None,
    kinds: tuple[str, ...] | None = None,
) -> None:
    """Examine the sources in turn (from ``first``, per kind; only ``kinds`` if given), offering what
    they give to ``accept`` until it has enough."""
    kinds = tuple(kind for kind in SOURCES[game] if kinds is None or kind in kinds)

    def tasks() -> Iterator[tuple[str, str, int, Settings]]:
        numbers = {kind: (first or {}).get(kind, 0) for kind in kinds}  # each kind numbered on its own
        while True:
            for kind in kinds:
                yield kind, game, numbers[kind], settings
                numbers[kind] += 1

    if jobs <= 1:
        for task in tasks():
            if accept(examine(task)):
                return
        return
    with get_context("spawn").Pool(jobs) as pool:
        for examined in pool.imap(examine, tasks(), chunksize=1):
            if accept(examined):
                pool.terminate()
                return


SOURCE_NUMBER = re.compile(r"ubao (self-play|\w+ study) \(seed \d+, (?:game|study) (\d+)")


def next_sources(puzzles: list[Record]) -> dict[str, int]:
    """Per kind of source, the number after the highest one the puzzles come from: where a top-up starts."""
    numbers: dict[str, int] = {}
    for puzzle in puzzles:
        match = SOURCE_NUMBER.match(puzzle["source"])
        if match:
            kind = "game" if match.group(1) == "self-play" else match.group(1).split()[0]
            numbers[kind] = max(numbers.get(kind, 0), int(match.group(2)) + 1)
    return numbers


SLACK_UNTIL = 100  # puzzles in a set before its shares are held exactly


class Spread:
    """Keeps a set spread out while it grows: a puzzle is refused when one of its motifs, its rating band,
    or (one-move puzzles) its length, already holds its share of the puzzles so far. (Ratings are spread
    by ``RATING_KNOTS`` too, so the band share refuses puzzles only where a set's drops have left
    one band full, as the deep verification's did before a top-up.)

    Decided from the puzzles accepted so far only, so a smaller count gives a prefix of a larger one.
    """

    def __init__(self, settings: Settings):
        self.settings = settings
        self.counts: dict[str, int] = {}
        self.total = 0

    def _full(self, key: str, share: float) -> bool:
        """One more puzzle on ``key`` would take it over its share. The first ``SLACK_UNTIL`` puzzles
        get a little slack (a share of a handful is under one puzzle); after that none, so a set
        ends within its shares."""
        slack = self.settings.share_slack if self.total < SLACK_UNTIL else 0
        return self.counts.get(key, 0) + 1 > share * (self.total + 1) + slack

    def admits(self, puzzle: Record) -> bool:
        return not any(self._full(key, self.share(key)) for key in self.keys(puzzle))

    def share(self, key: str) -> float:
        settings = self.settings
        if key == "one_move":
            return settings.one_move_share
        return settings.band_share if key.startswith("band ") else settings.motif_share

    @staticmethod
    def keys(puzzle: Record) -> list[str]:
        themes = puzzle["themes"]
        keys = [theme for theme in themes if theme in MOTIFS]
        return keys + (["one_move"] if "one_move" in themes else []) + [f"band {band_of(puzzle['rating'])}"]

    def add(self, puzzle: Record) -> None:
        for key in self.keys(puzzle):
            self.counts[key] = self.counts.get(key, 0) + 1
        self.total += 1


def generate(
    game: str,
    count: int,
    settings: Settings = COMMITTED,
    jobs: int = 1,
    progress: Callable[[str, list[Record]], None] | None = None,
    existing: list[Record] | None = None,
    outcomes: list[Outcome] | None = None,
    kinds: tuple[str, ...] | None = None,
) -> list[Record]:
    """``count`` distinct puzzles of ``game``, from the sources in turn, kept spread out.

    ``existing``: a set to top up (kept as it is, its puzzles counted in the spread; the sources go on
    after the last one it comes from). ``outcomes`` collects the verifier's outcome on every puzzle the
    judge found (kept or dropped). ``kinds``: only these kinds of source (``SOURCES``). ``progress`` is told how far it got, with the puzzles so far, every 25."""
    puzzles: list[Record] = list(existing or [])
    fens = {puzzle["fen"] for puzzle in puzzles}
    spread = Spread(settings)
    for puzzle in puzzles:
        spread.add(puzzle)
    started = time.monotonic()

    def accept_one(puzzle: Record) -> bool:
        if puzzle["fen"] in fens or not spread.admits(puzzle):
            return False
        fens.add(puzzle["fen"])
        spread.add(puzzle)
        puzzles.append(puzzle)
        if progress and (len(puzzles) % 25 == 0 or len(puzzles) == count):
            progress(f"{game}: {len(puzzles)}/{count} puzzles, {time.monotonic() - started:.0f}s", puzzles)
        return len(puzzles) >= count

    def accept(examined: Examined) -> bool:
        found, verdicts = examined
        if outcomes is not None:
            outcomes.extend(verdicts)
        return any(accept_one(puzzle) for puzzle in found)

    if count > len(puzzles):
        _collect(game, settings, jobs, accept, next_sources(puzzles) if existing else None, kinds)
    return puzzles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(DRAUGHTS), help="comma-separated: english,tanzanian")
    parser.add_argument("--count", type=int, default=1500, help="puzzles per game (default 1500)")
    parser.add_argument("--seed", type=int, default=COMMITTED.seed)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the output does not depend on it)")
    parser.add_argument("--out", type=Path, default=HERE, help="directory for <game>.jsonl (default: puzzles/)")
    parser.add_argument("--fit-ratings", action="store_true", help="print RATING_KNOTS for the files in --out")
    parser.add_argument("--rerate", action="store_true", help="rewrite the ratings in --out with RATING_KNOTS")
    parser.add_argument(
        "--kinds", default="", help="comma-separated kinds of source to use (default: all of the game's SOURCES)"
    )
    parser.add_argument(
        "--top-up", action="store_true", help="keep the set in --out and add puzzles from the sources after it"
    )
    parser.add_argument(
        "--band-share",
        type=float,
        default=COMMITTED.band_share,
        help="at most this share of the set in one rating band (default %(default)s); a top-up that will be "
        "re-rated (--fit-ratings, --rerate) may relax it, as the new knots spread the bands again",
    )
    args = parser.parse_args(argv)
    if not 0 < args.band_share <= 1:
        parser.error(f"--band-share must be above 0 and at most 1, not {args.band_share}")
    if args.fit_ratings or args.rerate:
        for game in args.games.split(","):
            path = args.out / f"{game}.jsonl"
            puzzles = read_jsonl(path)
            if args.fit_ratings:
                print(f'    "{game}": {fit_knots([puzzle["difficulty"] for puzzle in puzzles])},')
            else:
                write_jsonl(path, [{**puzzle, "rating": rating_of(game, puzzle["difficulty"])} for puzzle in puzzles])
        return 0
    settings = replace(COMMITTED, seed=args.seed, band_share=args.band_share)
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        if game not in DRAUGHTS:
            parser.error(f"unknown draughts game {game!r}; choose from {', '.join(DRAUGHTS)}")
        started = time.monotonic()
        partial = args.out / f"{game}.jsonl.partial"

        def report(text: str, so_far: list[Record], partial: Path = partial) -> None:
            print(text, flush=True)
            write_jsonl(partial, so_far)  # what a long run has found, should it be stopped

        existing = read_jsonl(args.out / f"{game}.jsonl") if args.top_up else None
        outcomes: list[Outcome] = []
        kinds = tuple(filter(None, args.kinds.split(","))) or None
        puzzles = generate(game, args.count, settings, args.jobs, report, existing, outcomes, kinds)
        partial.unlink(missing_ok=True)
        print(summary(game, outcomes), flush=True)
        write_jsonl(args.out / f"{game}.jsonl", puzzles)
        print(
            f"{game}: wrote {len(puzzles)} puzzles to {args.out / (game + '.jsonl')} "
            f"in {time.monotonic() - started:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
