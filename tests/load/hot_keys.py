"""The lobby's and the leaderboard's index keys at a million players (docs/capacity.md, "Hot keys").

Both lists are sparse global secondary indexes with the game as partition key: the lobby's open challenges
(``SeeksByGame``, ``seek_game``) and the leaderboard (``RatingsByBoard``, ``board``). DynamoDB serves at most
``PARTITION_WCU`` write units and ``PARTITION_RCU`` read units a second from one partition, and one partition
key of an index never spans partitions, so the busiest game's key must stay under both, in the busiest second.

The lobby is written generically (its storage is moving): a challenge is an index entry under
``lobby_key(game, id, shards)``, written when it is offered and again (a delete) when it is taken, withdrawn or
lapses; a list reads every shard of its game (newest first, ``LIST_PAGE`` entries from each, to merge). The
leaderboard is the real code: ``games.ratings`` computes each rated end's new ratings and the records the
store writes, and ``index_write_units`` counts what the index pays for them.

    python -m tests.load.hot_keys      prints both at 1,000,000 players (tests/load/test_hot_keys.py asserts them)
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from tests.load.costs import BURST_TO_MEAN, MIX, RATED_ENDS

PARTITION_WCU, PARTITION_RCU = 1_000, 3_000
#: Which game a challenge or a rated game is of (most play chess; the model's stated share).
GAME_SHARES = {"chess": 0.6, "english": 0.2, "tanzanian": 0.2}
#: A challenge as stored (the seek item with its options and the seeker's name and rating): under 1 KB.
SEEK_KB = 0.6
#: The lobby's page (PAGE_SIZE in games.lobby.domain).
LIST_PAGE = 20
#: A leaderboard read: one Query of the top entries (about 20 KB, eventually consistent).
BOARD_READ_UNITS = 2.5
#: Open challenges of the busiest game at any moment (each waits seconds to minutes for a taker).
OPEN_SEEKS = 2_000


def lobby_key(game: str, seek_id: str, shards: int) -> str:
    """The index partition key of a challenge: the game, and with ``shards`` > 1 a shard from its id (the way
    ``common.persistence.reminder_schedule.index_key`` spreads the reminder index)."""
    return game if shards == 1 else f"{game}#{zlib.crc32(seek_id.encode()) % shards}"


def per_second(players: int, per_player_day: float) -> float:
    """The busiest second's rate of something each player does ``per_player_day`` times a day."""
    return players * per_player_day / 86_400 * BURST_TO_MEAN


def lobby_load(players: int, shards: int, sample: int = 20_000) -> dict[str, float]:
    """The busiest lobby key's write and read units a second at ``players``, with the key in ``shards``."""
    writes: Counter[str] = Counter()
    for number in range(sample):
        game = _game_of(number)
        writes[lobby_key(game, f"seek{number:06d}", shards)] += 1
    offers = per_second(players, MIX["POST /v1/seeks"])
    # An entry written on the offer and deleted once (taken, withdrawn or lapsed): two writes of one unit each.
    wcu = offers * 2 * math.ceil(SEEK_KB) * max(writes.values()) / sample
    lists = per_second(players, MIX["GET /v1/seeks"]) * max(GAME_SHARES.values())
    # Each list reads every shard of the game; a shard's page is eventually consistent, 0.5 units a 4 KB.
    entries = min(LIST_PAGE, OPEN_SEEKS / shards)
    rcu = lists * 0.5 * max(1, math.ceil(entries * SEEK_KB / 4))
    return {"wcu": wcu, "rcu": rcu, "writes_share": max(writes.values()) / sample}


def index_write_units(before: Mapping[str, Any] | None, after: Mapping[str, Any], key: str, sort: str) -> int:
    """What a sparse index pays for one write of its table's item: an entry added or removed is one write, an
    entry whose sort key changes a delete and a put (two), an entry rewritten in place one (its projected
    attributes changed), an item outside the index nothing (entries under 1 KB)."""
    had = before is not None and before.get(key) is not None
    has = after.get(key) is not None
    if had and has:
        assert before is not None
        return 2 if (before[key], before.get(sort)) != (after[key], after.get(sort)) else 1
    return 1 if had or has else 0


def board_units_per_end(ends: int = 500) -> dict[str, float]:
    """Index write units per rated game end, by board key: ``ends`` rated games between regular players (on the
    board already, as the busiest case is) through the real rating code and store records."""
    from common.ratings import glicko2
    from games.ratings.domain import GameRating, rating_change
    from games.ratings.repository import rating_record

    day = 86_400_000
    now = 200 * day
    units: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for number in range(ends):
        game = _game_of(number)
        played[game] += 1
        history = tuple((now - (30 - point) * day, 1500) for point in range(30))
        players = [
            GameRating(f"p{number}{side}", game, rating=glicko2.Rating(1450.0 + 100 * side, 60.0, 0.06),
                       games=30, history=history, version=30, last_at=history[-1][0],
                       earned=tuple((at, f"o{point}") for point, (at, _) in enumerate(history)))
            for side in (0, 1)
        ]  # fmt: skip
        change = rating_change(players[0].rating, players[1].rating, ("white", "black", "draw")[number % 3])
        for player, side in zip(players, (change.white, change.black), strict=True):
            before, after = (
                rating_record(player, now),
                rating_record(player.after(f"g{number}", side, now, None, "o"), now),
            )
            units[game] += index_write_units(before, after, "board", "board_rating")
    return {game: count / played[game] for game, count in units.items()}


def board_load(players: int) -> dict[str, float]:
    """The busiest board key's write units a second at ``players``: rated ends of its game times their units."""
    per_end = board_units_per_end()
    busiest = max(GAME_SHARES, key=GAME_SHARES.__getitem__)
    ends = per_second(players, RATED_ENDS) * GAME_SHARES[busiest]
    # Every read reaches the table here (CloudFront's minute of cache for a board read without a token aside):
    # one Query of BOARD_READ_UNITS, eventually consistent.
    reads = per_second(players, MIX["GET /v1/leaderboard"]) * GAME_SHARES[busiest]
    return {
        "wcu": ends * per_end[busiest],
        "rcu": reads * BOARD_READ_UNITS,
        "units_per_end": per_end[busiest],
        "ends_per_second": ends,
    }


def _game_of(number: int) -> str:
    """The games in GAME_SHARES' proportions, in a fixed order (six chess, two English, two Tanzanian a ten)."""
    return "chess" if number % 10 < 6 else "english" if number % 10 < 8 else "tanzanian"


def main() -> None:
    import sys

    from local.template import ROOT

    sys.path.insert(0, str(ROOT / "functions"))  # as Lambda has it (tests/conftest.py does the same for pytest)
    players = 1_000_000
    for shards in (1, 4, 16):
        load = lobby_load(players, shards)
        print(
            f"lobby, {shards:2d} shard(s) a game: busiest key {load['wcu']:.0f} WCU/s "
            f"({load['wcu'] / PARTITION_WCU:.0%} of a partition), {load['rcu']:.0f} RCU/s "
            f"({load['rcu'] / PARTITION_RCU:.0%})"
        )
    board = board_load(players)
    print(
        f"leaderboard: {board['ends_per_second']:.1f} rated chess ends a second, {board['units_per_end']:.1f} index "
        f"WCU each: {board['wcu']:.0f} WCU/s ({board['wcu'] / PARTITION_WCU:.0%} of a partition), {board['rcu']:.0f} "
        f"RCU/s ({board['rcu'] / PARTITION_RCU:.0%})"
    )


if __name__ == "__main__":
    main()
