"""The players' and the puzzle progress repositories' contract (``common.players.repository``, ``puzzles_api.repository``), run three times:
on the in-memory repositories the fast tests use, on moto, and on a real dynalite server over HTTP.

What the players and the puzzles function rely on: a player made once per token hash, a name set or
removed, progress written only over the version that was read, a first attempt recorded once, and the play
counters summed over their shards.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from common.players.domain import Block, Player
from common.players.repository import InMemoryPlayers, PlayerStore
from common.ratings.glicko2 import Rating
from puzzles_api.domain.progress import Attempt
from puzzles_api.domain.puzzle_rating import PuzzleRating, Totals
from puzzles_api.repository import COUNTER_SHARDS, InMemoryPuzzleProgress, PuzzleStore

from tests.stores import STORES


@pytest.fixture(params=STORES)
def backend(request):
    if request.param != "memory":
        request.getfixturevalue(f"{request.param}_tables")
    return request.param


@pytest.fixture
def players(backend):
    return InMemoryPlayers() if backend == "memory" else PlayerStore()


@pytest.fixture
def progress(backend):
    return InMemoryPuzzleProgress() if backend == "memory" else PuzzleStore()


def _player(token_hash: str = "h" * 64, name: str | None = None) -> Player:
    return Player("p" + token_hash[:11], token_hash, name, created=1_700_000_000_000)


# ------------------------------------------------------------------------------------------ players
def test_a_token_hash_makes_one_player(players):
    assert players.create(_player(name="Asha"))
    assert not players.create(_player(name="Juma"))  # the same hash: refused, the first one kept
    assert players.get("h" * 64) == _player(name="Asha")
    assert players.get("x" * 64) is None


def test_a_player_without_a_name_has_no_name_attribute(players):
    assert players.create(_player(name=None))
    assert players.get("h" * 64) == _player()


def test_a_name_is_set_and_removed_only_on_a_player(players):
    players.create(_player())
    assert players.set_name("h" * 64, "Asha") == _player(name="Asha")
    assert players.set_name("h" * 64, None) == _player()
    assert players.get("h" * 64) == _player()
    assert players.set_name("x" * 64, "Juma") is None
    assert players.get("x" * 64) is None  # renaming nobody makes nobody


def test_a_country_is_kept_from_creation_and_hidden_or_shown_only_on_a_player(players):
    players.create(replace(_player(name="Asha"), country="TZ"))
    assert players.get("h" * 64) == replace(_player(name="Asha"), country="TZ")
    hidden = players.set_country_hidden("h" * 64, True)
    assert hidden == replace(_player(name="Asha"), country="TZ", country_hidden=True) == players.get("h" * 64)
    assert players.set_name("h" * 64, "Asha M").country_hidden  # a rename leaves the choice as it was
    assert players.set_country_hidden("h" * 64, False) == replace(_player(name="Asha M"), country="TZ")
    assert players.set_country_hidden("x" * 64, True) is None
    assert players.get("x" * 64) is None


def test_blocks_are_added_up_to_the_limit_and_removed_by_id(players):
    from common.players.blocks import blocks_of, blocks_player

    players.create(_player())
    block = Block("b1", "pother000001", "Juma", "g" * 12, 1)
    assert players.add_block("h" * 64, block, limit=2)  # the first block makes the map
    assert players.add_block("h" * 64, replace(block, id="b2", player_id="pother000002"), limit=2)
    assert not players.add_block("h" * 64, replace(block, id="b3", player_id="pother000003"), limit=2)  # full
    assert not players.add_block("x" * 64, block, limit=2)  # no such player: nothing made
    assert players.get("x" * 64) is None
    stored = players.get("h" * 64)
    assert [item.id for item in blocks_of(stored)] == ["b1", "b2"] and blocks_player(stored, "pother000002")
    assert blocks_of(stored)[0] == block
    assert players.remove_block("h" * 64, "b1") and not players.remove_block("h" * 64, "b1")
    assert not players.remove_block("x" * 64, "b1")
    assert [item.player_id for item in blocks_of(players.get("h" * 64))] == ["pother000002"]


def test_progress_is_written_only_over_the_version_read(players):
    players.create(_player())
    first = {"v": 1, "r": 1500.25, "recent": [["chess-1", 1]]}
    assert not players.save_puzzles("h" * 64, first, expected_version=1)  # there is none yet
    assert players.save_puzzles("h" * 64, first, expected_version=0)
    assert not players.save_puzzles("h" * 64, {**first, "v": 2}, expected_version=0)  # lost to the first
    assert players.save_puzzles("h" * 64, {**first, "v": 2, "r": 1512.5}, expected_version=1)
    assert not players.save_puzzles("h" * 64, {**first, "v": 3}, expected_version=1)  # stale
    assert players.get("h" * 64).puzzles == {**first, "v": 2, "r": 1512.5}
    assert not players.save_puzzles("x" * 64, first, expected_version=0)  # no such player
    assert players.get("x" * 64) is None


# ---------------------------------------------------------------------------------- puzzle progress
def test_only_the_first_attempt_is_recorded(progress):
    attempt = Attempt("chess-000Zo", solved=False, at=1_700_000_000_000, daily=True)
    assert progress.record_first_attempt("p1", attempt)
    assert not progress.record_first_attempt("p1", replace(attempt, solved=True))
    assert progress.get_attempt("p1", "chess-000Zo") == attempt
    assert progress.get_attempt("p2", "chess-000Zo") is None
    assert progress.record_first_attempt("p2", replace(attempt, solved=True))  # another player's own


def test_attempted_lists_a_players_puzzles_of_one_game(progress):
    for puzzle in ("chess-a", "chess-b", "english-a"):
        progress.record_first_attempt("p1", Attempt(puzzle, solved=True, at=1, daily=False))
    progress.record_first_attempt("p2", Attempt("chess-c", solved=True, at=1, daily=False))
    assert progress.attempted("p1", "chess-") == {"chess-a", "chess-b"}
    assert progress.attempted("p1", "tanzanian-") == set()
    assert progress.attempted("p3", "chess-") == set()


def test_counts_are_the_sums_of_the_shards(progress):
    assert progress.counts("chess-a") == {"plays": 0, "solves": 0}
    for shard, solved in [(0, True), (COUNTER_SHARDS - 1, False), (3, True), (3, False)]:
        progress.count_play("chess-a", solved, shard)
    progress.count_play("chess-b", True, 0)
    assert progress.counts("chess-a") == {"plays": 4, "solves": 2}
    assert progress.counts("chess-b") == {"plays": 1, "solves": 1}


def test_the_rating_state_sums_the_glicko_terms_of_the_shards(progress):
    assert progress.rating_state("chess-a") == (None, Totals(plays=0, solves=0, info=0, gain=0))
    progress.count_play("chess-a", True, 0, info=0.25, gain=-0.5)
    progress.count_play("chess-a", False, 5, info=0.5, gain=0.125)
    rating, totals = progress.rating_state("chess-a")
    assert rating is None
    assert (totals.plays, totals.solves) == (2, 1)
    assert (totals.info, totals.gain) == pytest.approx((0.75, -0.375))


def test_a_rating_is_written_only_over_the_folded_count_read(progress):
    first = PuzzleRating(Rating(1510.5, 80.25, 0.06), Totals(plays=4, solves=2, info=1.5, gain=0.5), at=7)
    five = replace(first, folded=replace(first.folded, plays=5))
    assert not progress.save_rating("chess-a", first, folded_plays=0)  # there is none yet
    assert progress.save_rating("chess-a", first, folded_plays=None) == first
    assert not progress.save_rating("chess-a", five, folded_plays=None)  # lost to the first
    assert not progress.save_rating("chess-a", five, folded_plays=3)  # stale
    last = PuzzleRating(Rating(1490.0, 80.25, 0.06), replace(first.folded, plays=9), at=7)
    assert progress.save_rating("chess-a", last, folded_plays=4)
    rating, _ = progress.rating_state("chess-a")
    assert rating == last
    assert progress.rating_state("chess-b")[0] is None
