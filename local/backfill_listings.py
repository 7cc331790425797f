"""One-off: the history's listings for games that ended before they existed (issue 41, docs/games.md "History").

Games finished before round four's per-player listings have a head but no listing, so they are missing from
Historia, the profiles and their counts. This walks the games table a Scan page at a time and writes each
head's listings where they are missing or older (``games.history.service.backfill_listings``), printing its
progress. A listing already stored is not written again, so it is safe to run twice or to run again after an
interruption. It reads the whole table (every event item too): run it once, off-peak.

    GAMES_TABLE=<the stack's GamesTable> AWS_REGION=af-south-1 .venv/bin/python -m local.backfill_listings
    DYNAMODB_ENDPOINT=http://127.0.0.1:<port> .venv/bin/python -m local.backfill_listings   # dynalite (`make run`)

``--countries`` does the rating list by country's instead (once, after ``RatingsByCountry`` is deployed): it walks
``RatingsByBoard`` (keys only) and copies each listed player's public card onto their rating items
(``games.ratings.service.backfill_countries``): a Query a player and a write an item that lacks its copy; a
second run writes nothing. Without it those players appear in their country's list at their next settle or
hide/show. Players made before the cards have no card, so no country to copy (docs/games.md).

    RATINGS_TABLE=<the stack's RatingsTable> .venv/bin/python -m local.backfill_listings --countries
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "functions") not in sys.path:
    sys.path.insert(0, str(ROOT / "functions"))

from games.history.service import Backfill, backfill_listings  # noqa: E402
from games.ratings.repository import RatingStore  # noqa: E402
from games.ratings.service import backfill_countries  # noqa: E402
from games.repository import StoredGames  # noqa: E402
from games.repository.dynamodb import GameStore  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="the games table (default: GAMES_TABLE, else GamesTable)")
    parser.add_argument("--page-size", type=int, default=200, help="items a Scan page reads (default 200)")
    parser.add_argument("--countries", action="store_true", help="copy listed players' countries instead")
    parser.add_argument("--ratings-table", help="the ratings table (default: RATINGS_TABLE, else RatingsTable)")
    args = parser.parse_args(argv)
    if args.countries:
        players, written = backfill_countries(RatingStore(args.ratings_table))
        print(f"done: {players} listed players, {written} rating items given their country")
        return 0

    def report(done: Backfill) -> None:
        print(f"page {done.pages}: {done.games} games read, {done.written} listings written", flush=True)

    done = backfill_listings(StoredGames(GameStore(args.table)), args.page_size, report)
    print(f"done: {done.games} games, {done.written} listings written in {done.pages} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
