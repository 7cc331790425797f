"""The training loop's API: next by theme, the offline pack, the history of 20, and puzzle ratings
that move with players' results (summed in the counter shards, folded when the puzzle is served)."""

from __future__ import annotations

import collections
from dataclasses import replace

import pytest
from common.ratings import glicko2
from common.ratings.glicko2 import Rating
from puzzles_api.domain.progress import HISTORY_MAX, PUZZLE_RD, RECENT_MAX
from puzzles_api.domain.puzzle_rating import CACHE_SECONDS, FOLD_SECONDS
from puzzles_api.service import LENGTH_THEMES, PACK_MAX

from puzzles.catalog import GAMES, load
from tests.puzzles_api.client import snapshot
from tests.puzzles_api.sets import find


def a_theme(game: str) -> str:
    """A motif theme of the set as it is today (the sets are regenerated: never a fixed puzzle or theme)."""
    counts = collections.Counter(theme for puzzle in load(game) for theme in puzzle.themes)
    size = len(load(game))
    usable = [t for t, n in counts.most_common() if t not in LENGTH_THEMES and 5 <= n <= size // 2]
    assert usable, f"no theme of {game} is on between 5 puzzles and half the set"
    return usable[0]


@pytest.mark.parametrize("game", GAMES)
def test_next_with_a_theme_gives_only_puzzles_of_that_theme_never_twice(api, game):
    theme = a_theme(game)
    token = api.new_player()
    seen = set()
    for round_ in range(4):
        answer = api.call("GET", "/v1/puzzles/next", token=token, query={"game": game, "theme": theme})
        assert answer.status == 200, answer.body
        puzzle = find(answer.body["id"])
        assert theme in answer.body["themes"] and theme in puzzle.themes and puzzle.game == game
        assert puzzle.id not in seen
        seen.add(puzzle.id)
        (api.solve if round_ % 2 else api.fail)(puzzle, token)


@pytest.mark.parametrize("theme", ["noSuchTheme", "fork'; --", "x" * 41])
def test_an_unknown_theme_is_a_422_and_writes_nothing(api, theme):
    token = api.new_player()
    before = snapshot()
    answer = api.call("GET", "/v1/puzzles/next", token=token, query={"game": "english", "theme": theme})
    assert answer.status == 422 and answer.body["error"]["code"] in ("invalid_theme", "invalid_request")
    assert set(answer.body) == {"error"} and answer.body["error"]["message"]
    assert snapshot() == before


def test_a_chess_theme_is_not_a_draughts_theme(api):
    token = api.new_player()
    chess_only = a_theme("chess")
    if chess_only in {theme for puzzle in load("english") for theme in puzzle.themes}:
        chess_only = "mateIn2"
    answer = api.call("GET", "/v1/puzzles/next", token=token, query={"game": "english", "theme": chess_only})
    assert answer.status == 422 and answer.body["error"]["code"] == "invalid_theme"


@pytest.mark.parametrize("game", GAMES)
def test_the_pack_is_the_next_puzzles_in_order_and_leaves_out_played_ones(api, game):
    token = api.new_player()
    pack = api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game, "count": 5})
    assert pack.status == 200 and pack.headers["cache-control"] == "no-store"
    ids = [item["id"] for item in pack.body["puzzles"]]
    assert len(ids) == len(set(ids)) == 5
    assert all(set(item) == {"id", "game", "fen", "turn", "rating", "themes"} for item in pack.body["puzzles"])
    assert "solution" not in pack.text
    first = api.call("GET", "/v1/puzzles/next", token=token, query={"game": game}).body["id"]
    assert ids[0] == first
    api.fail(find(first), token)
    again = api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game, "count": 5}).body["puzzles"]
    # The rating moved with the failure, so the order may change; the played puzzle is gone, and the pack
    # still begins with what next gives.
    assert first not in {item["id"] for item in again}
    assert again[0]["id"] == api.call("GET", "/v1/puzzles/next", token=token, query={"game": game}).body["id"]
    full = api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game}).body["puzzles"]
    assert len(full) == PACK_MAX and first not in {item["id"] for item in full}


def test_the_pack_with_a_theme(api):
    theme = a_theme("tanzanian")
    token = api.new_player()
    pack = api.call("GET", "/v1/puzzles/pack", token=token, query={"game": "tanzanian", "count": 3, "theme": theme})
    assert pack.status == 200 and len(pack.body["puzzles"]) == 3
    assert all(theme in item["themes"] for item in pack.body["puzzles"])


@pytest.mark.parametrize(
    ("query", "token", "status"),
    [
        ({"game": "chess", "count": 0}, True, 422),
        ({"game": "chess", "count": PACK_MAX + 1}, True, 422),
        ({"game": "chess", "count": "many"}, True, 422),
        ({"game": "go"}, True, 422),
        ({"game": "chess"}, False, 401),
    ],
)
def test_a_wrong_pack_request_is_refused_and_writes_nothing(api, query, token, status):
    player = api.new_player()
    before = snapshot()
    answer = api.call("GET", "/v1/puzzles/pack", token=player if token else None, query=query)
    assert answer.status == status and answer.body["error"]["code"]
    assert snapshot() == before


def test_the_history_keeps_the_latest_twenty_outcomes_newest_first(api):
    token = api.new_player()
    played = []
    for index, puzzle in enumerate(load("english")[: HISTORY_MAX + 3]):
        solved = index % 3 == 0
        (api.solve if solved else api.fail)(puzzle, token)
        played.append((puzzle.id, "solved" if solved else "failed"))
    progress = api.progress(token)
    expected = [{"id": pid, "game": "english", "result": result} for pid, result in reversed(played)][:HISTORY_MAX]
    assert progress["history"] == expected
    assert [item["id"] for item in progress["recent"]] == [item["id"] for item in expected[:RECENT_MAX]]
    assert progress["solved"] == sum(r == "solved" for _, r in played)


def _serve(api, puzzle_id: str) -> int:
    answer = api.call("GET", f"/v1/puzzles/{puzzle_id}")
    assert answer.status == 200
    return answer.body["rating"]


def test_a_puzzle_that_beats_players_goes_up_by_glicko2_and_later_players_meet_the_new_rating(api, clock):
    puzzle = load("english")[0]
    assert _serve(api, puzzle.id) == puzzle.rating  # never played: its set rating
    losers = [api.new_player() for _ in range(3)]
    for token in losers:
        api.fail(puzzle, token)
    assert _serve(api, puzzle.id) == puzzle.rating  # within the cache time this process keeps what it read
    clock.advance(seconds=max(CACHE_SECONDS, FOLD_SECONDS) + 1)
    start = glicko2.Rating(float(puzzle.rating), PUZZLE_RD, 0.06)
    newcomer = glicko2.Rating(1500.0, 350.0, 0.06)
    expected = glicko2.update(start, [(newcomer, 1.0)] * 3)  # one period, three wins for the puzzle
    served = _serve(api, puzzle.id)
    assert served == round(expected.rating) and served > puzzle.rating
    # Served again later, with no new game: the same rating (the fold counted those games once).
    clock.advance(seconds=CACHE_SECONDS + 1)
    assert _serve(api, puzzle.id) == served
    # A player solving it now is rated against the puzzle's new rating, not the set's.
    token = api.new_player()
    answer = api.solve(puzzle, token)[-1].body
    after = glicko2.update(newcomer, [(expected, 1.0)])
    assert answer["rating"] == pytest.approx(after.rating, abs=0.02)


def test_solves_bring_a_puzzle_down_and_the_counts_stay_exact(api, clock):
    from puzzles_api.repository import PuzzleStore

    puzzle = load("tanzanian")[1]
    for _ in range(4):
        api.solve(puzzle, api.new_player())
    clock.advance(seconds=FOLD_SECONDS + CACHE_SECONDS + 1)
    assert _serve(api, puzzle.id) < puzzle.rating
    assert PuzzleStore().counts(puzzle.id) == {"plays": 4, "solves": 4}


@pytest.mark.parametrize("store", ["moto", "dynalite"])
def test_two_processes_folding_at_once_count_each_game_once(request, store, clock):
    """Two Lambda instances serve the puzzle in the same instant: one fold is written, the other reads it and
    has nothing left to fold; both serve the one rating."""
    api = request.getfixturevalue("api" if store == "moto" else "dynalite_api")
    from common.players.repository import PlayerStore
    from common.players.service import Players
    from puzzles_api.repository import PuzzleStore
    from puzzles_api.service import PuzzleService

    puzzle = load("chess")[5]
    for _ in range(2):
        api.fail(puzzle, api.new_player())
    clock.advance(seconds=FOLD_SECONDS + 1)
    first, second = (PuzzleService(Players(PlayerStore()), PuzzleStore(), clock=clock) for _ in range(2))
    record, sums = PuzzleStore().rating_state(puzzle.id)
    assert record is None and sums.plays == 2
    one = first.served_rating(puzzle)
    two = second.served_rating(puzzle)  # reads the folded item: nothing left to fold
    assert one == two and one.rating > puzzle.rating
    record, _ = PuzzleStore().rating_state(puzzle.id)
    assert record is not None and record.folded.plays == 2
    # A fold computed from what was read before the other's write is refused by its condition.
    stale = PuzzleStore().save_rating(puzzle.id, replace(record, rating=Rating(9999.0, 60.0)), folded_plays=None)
    assert stale is None and PuzzleStore().rating_state(puzzle.id)[0] == record
