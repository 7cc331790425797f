"""One-off: the profiles' all-time wins, draws and losses for games that ended before they were counted (issue
41, docs/games.md "Wins, draws and losses").

Games finished before the tallies existed are in no player's tally, so a profile shows only the games since.
This walks the games table a Scan page at a time, gathers every finished game that counts by player and game,
and sets each tally to that count (``games.ratings.service.recount_results``), printing its progress. A tally
is written on the version it was read at and keeps the games counted since the Scan read them, so games that
end while it runs count once; a tally already right is not written, so it is safe to run twice or to run again
after an interruption. It reads the whole games table (every event item too): run it once, off-peak.

    GAMES_TABLE=<the stack's GamesTable> RATINGS_TABLE=<its RatingsTable> AWS_REGION=af-south-1 \\
        .venv/bin/python -m local.backfill_results
    DYNAMODB_ENDPOINT=http://127.0.0.1:<port> .venv/bin/python -m local.backfill_results   # dynalite (`make run`)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "functions") not in sys.path:
    sys.path.insert(0, str(ROOT / "functions"))

from games.ratings.repository import RatingStore  # noqa: E402
from games.ratings.service import Recount, recount_results  # noqa: E402
from games.repository import StoredGames  # noqa: E402
from games.repository.dynamodb import GameStore  # noqa: E402


def progress(done: Recount) -> str:
    """One line of progress: the Scan's pages, then the tallies."""
    if not done.tallies:
        return f"page {done.pages}: {done.games} games read, {done.results} results that count"
    return f"tallies: {done.checked} of {done.tallies} checked, {done.written} written"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-table", help="the games table (default: GAMES_TABLE, else GamesTable)")
    parser.add_argument("--ratings-table", help="the ratings table (default: RATINGS_TABLE, else RatingsTable)")
    parser.add_argument("--page-size", type=int, default=200, help="items a Scan page reads (default 200)")
    args = parser.parse_args(argv)
    games = StoredGames(GameStore(args.games_table))
    done = recount_results(
        games, RatingStore(args.ratings_table), args.page_size, lambda now: print(progress(now), flush=True)
    )
    print(f"done: {done.games} games, {done.results} results, {done.written} of {done.tallies} tallies written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
