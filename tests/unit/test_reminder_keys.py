"""The reminder index's keys at a million players (docs/capacity.md, "Hot keys").

Every move rewrites its game's head with the hour its next reminder is due; the sparse index
GamesByReminderHour is keyed by it, so all the moves of one hour (same days per move) write the index at
the same place. At a million players making 13 moves a day, the busiest hour (three times the day's mean)
has 450 moves a second: with one key per hour that is half of one partition's 1,000 writes a second, and a
burst or twice the players reaches it. The key is spread over REMINDER_SHARDS by game.
"""

from __future__ import annotations

from collections import Counter

from common.persistence.reminder_schedule import HOUR_MS, REMINDER_SHARDS, index_key, index_keys, reminder_attributes

from tests.checks import known

PLAYERS = 1_000_000
MOVES_A_DAY = 13
PEAK_HOUR_TO_MEAN = 3
PARTITION_WCU = 1_000
DAY_MS = 24 * HOUR_MS
NOW = 1_796_140_800_000  # a whole hour (2026-12-01T16:00Z)


def _moves_in_one_hour(games: int) -> Counter[int]:
    """The index key each move of the hour writes: one move per game, spread over the hour, 2 days per move."""
    keys: Counter[int] = Counter()
    for number in range(games):
        now = NOW + number * HOUR_MS // games
        head = {
            "id": f"game{number:05d}",
            "state": "active",
            "turn": "black",
            "black_id": "p",
            "deadline": now + 2 * DAY_MS,
        }
        keys[known(reminder_attributes(head, now)["reminder_hour"])] += 1
    return keys


def test_the_moves_of_the_busiest_hour_spread_over_the_shards():
    keys = _moves_in_one_hour(4_000)
    assert len(keys) == REMINDER_SHARDS
    busiest_share = max(keys.values()) / sum(keys.values())
    moves_a_second = PLAYERS * MOVES_A_DAY / 86_400 * PEAK_HOUR_TO_MEAN
    assert moves_a_second > PARTITION_WCU / 3  # one key per hour would carry this: half a partition
    assert moves_a_second * busiest_share < PARTITION_WCU / 20


def test_the_sweep_finds_every_shard_and_the_keys_written_before_them():
    hour = (NOW + DAY_MS) // HOUR_MS
    written = {index_key(f"game{number}", hour * HOUR_MS + number) for number in range(200)}
    assert written <= set(index_keys(hour))
    assert hour in index_keys(hour)  # an unsharded key (due // HOUR_MS) is still read
    neighbours = set(index_keys(hour - 1)) | set(index_keys(hour + 1))
    assert not neighbours & set(index_keys(hour))
