"""One-off: the history's listings for games that ended before they existed (issue 41, docs/games.md "History").

Games finished before round four's per-player listings have a head but no listing, so they are missing from
Historia, the profiles and their counts. This walks the games table a Scan page at a time and writes each
head's listings where they are missing or older (``games.history.service.backfill_listings``), printing its
progress. A listing already stored is not written again, so it is safe to run twice or to run again after an
interruption. It reads the whole table (every event item too): run it once, off-peak.

    GAMES_TABLE=<the stack's GamesTable> AWS_REGION=af-south-1 .venv/bin/python -m local.backfill_listings
    DYNAMODB_ENDPOINT=http://127.0.0.1:<port> .venv/bin/python -m local.backfill_listings   # dynalite (`make run`)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "functions") not in sys.path:
    sys.path.insert(0, str(ROOT / "functions"))

from games.history.service import Backfill, backfill_listings  # noqa: E402
from games.repository import StoredGames  # noqa: E402
from games.repository.dynamodb import GameStore  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="the games table (default: GAMES_TABLE, else GamesTable)")
    parser.add_argument("--page-size", type=int, default=200, help="items a Scan page reads (default 200)")
    args = parser.parse_args(argv)

    def report(done: Backfill) -> None:
        print(f"page {done.pages}: {done.games} games read, {done.written} listings written", flush=True)

    done = backfill_listings(StoredGames(GameStore(args.table)), args.page_size, report)
    print(f"done: {done.games} games, {done.written} listings written in {done.pages} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
