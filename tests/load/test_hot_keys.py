"""The lobby's list and the leaderboard stay under one partition's limits at a million players (tests/load/hot_keys.py,
docs/capacity.md "Hot keys"); the lobby's key, sharded, spreads its writes."""

from __future__ import annotations

import pytest

from tests.load import hot_keys
from tests.load.hot_keys import PARTITION_RCU, PARTITION_WCU, board_load, index_write_units, lobby_key, lobby_load

PLAYERS = 1_000_000


def test_the_lobby_list_of_the_busiest_game_stays_under_one_partition_unsharded():
    load = lobby_load(PLAYERS, shards=1)
    assert load["writes_share"] == pytest.approx(hot_keys.GAME_SHARES["chess"])
    assert 0 < load["wcu"] < PARTITION_WCU / 4
    assert 0 < load["rcu"] < PARTITION_RCU / 4


def test_the_lobby_list_reaches_a_partition_at_some_players_and_shards_spread_its_writes():
    """Past about fifteen million players one key per game takes a partition's writes; 4 shards take about a
    quarter each, and the reads of a list (every shard) do not grow past the unsharded key's."""
    crowded = lobby_load(16 * PLAYERS, shards=1)
    assert crowded["wcu"] > PARTITION_WCU
    sharded = lobby_load(16 * PLAYERS, shards=4)
    assert sharded["wcu"] < crowded["wcu"] / 3
    assert sharded["wcu"] < PARTITION_WCU
    assert sharded["rcu"] <= crowded["rcu"]


def test_a_sharded_lobby_key_is_the_game_and_a_shard_of_the_id():
    keys = {lobby_key("chess", f"seek{number}", 4) for number in range(200)}
    assert keys == {f"chess#{shard}" for shard in range(4)}
    assert lobby_key("chess", "seek1", 1) == "chess"


def test_a_rated_end_moves_each_regular_players_board_entry_delete_and_put():
    per_end = hot_keys.board_units_per_end(ends=30)
    assert per_end["chess"] == pytest.approx(4.0)  # two players, each entry's sort key moved: 2 writes each


def test_the_leaderboard_of_the_busiest_game_stays_under_one_partition():
    load = board_load(PLAYERS)
    assert load["ends_per_second"] > 10
    assert 0 < load["wcu"] < PARTITION_WCU / 10
    assert 0 < load["rcu"] < PARTITION_RCU / 10


@pytest.mark.parametrize(
    ("before", "after", "units"),
    [
        (None, {"board": "chess", "board_rating": 1500}, 1),  # a new entry
        ({"board": "chess", "board_rating": 1500}, {"board": "chess", "board_rating": 1510}, 2),  # moved
        ({"board": "chess", "board_rating": 1500}, {"board": "chess", "board_rating": 1500, "rd": 50}, 1),
        ({"board": "chess", "board_rating": 1500}, {"rating": 1400.0}, 1),  # off the board
        ({"rating": 1400.0}, {"rating": 1410.0}, 0),  # never on it
    ],
)
def test_index_write_units_follow_dynamodbs_accounting(before, after, units):
    assert index_write_units(before, after, "board", "board_rating") == units
