"""The all-time wins, draws and losses of a profile (``ResultTally``, one item a player and game in the ratings
table): the store's contract on memory, moto and dynalite; a game's end counted once when the settle is retried
or races on threads; which games count; the profile's answer over the API; and the back-fill of the games that
ended before the tallies (``games.ratings.service.backfill_results``, ``local/backfill_results.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from common.persistence.store import call
from common.players.handles import player_id_of
from games.domain import Aborted, Created, DrawAccepted, GameHead, Resigned, Seat, apply
from games.ratings.domain import COUNTED_KEPT, GameRating, ResultTally, counted_results
from games.ratings.repository import TALLY_PREFIX, InMemoryRatings, RatingStore
from games.ratings.service import GameRatings

from tests.games.client import Api
from tests.games.test_ratings_races import _run_at_once
from tests.stores import STORES, on_each_store


@pytest.fixture(params=STORES)
def ratings_store(request):
    return on_each_store(request, InMemoryRatings, RatingStore)


def ended(game_id: str, result: str = "white", options: dict | None = None, black: str | None = "p-black") -> GameHead:
    """A finished chess game between p-white and ``black`` (None: the computer) ended by ``result``."""
    seats: dict[str, Any] = {
        "white": Seat("p-white", bytes(32), "White"),
        "black": Seat(black, bytes(32), "Black") if black else Seat(None, None, None, cpu=2),
    }
    head = apply(
        None,
        Created(seq=1, at=1, game_id=game_id, game="chess", options={"days_per_move": 3, **(options or {})}, **seats),
    )
    if result == "draw":
        return apply(head, DrawAccepted(seq=2, at=2, by="white"))
    if result == "aborted":
        return apply(head, Aborted(seq=2, at=2, by="white"))
    return apply(head, Resigned(seq=2, at=2, by="black" if result == "white" else "white"))


def test_a_tally_is_saved_on_the_version_read_and_read_with_the_card_and_ratings(ratings_store):
    first = ResultTally("p1", "chess").after("g1", "win")
    assert ratings_store.save_tally(first)
    assert not ratings_store.save_tally(first)  # the same version again: someone was first
    second = first.after("g2", "loss")
    assert ratings_store.save_tally(second)
    assert ratings_store.tally("p1", "chess") == second and ratings_store.tally("p1", "english") is None
    ratings_store.save_card("p1", "TZ")
    rating = GameRating("p1", "chess", version=1)
    assert ratings_store.save(rating, now=0)
    found = ratings_store.public_partition("p1")
    assert found.country == "TZ" and [r.game for r in found.ratings] == ["chess"] and found.tallies == [second]
    assert [r.game for r in ratings_store.of_player("p1")] == ["chess"]  # a tally is no rating
    assert ratings_store.card_and_histories("p1")[0] == "TZ"
    assert second.counts() == {"win": 1, "draw": 0, "loss": 1}


def test_a_tally_keeps_only_its_last_counted_ids():
    tally = ResultTally("p1", "chess")
    for number in range(COUNTED_KEPT + 5):
        tally = tally.after(f"g{number}", "draw")
    assert tally.draws == COUNTED_KEPT + 5 and len(tally.counted) == COUNTED_KEPT
    assert tally.counted[-1] == f"g{COUNTED_KEPT + 4}" and not tally.has_counted("g0")


def test_delete_my_data_deletes_the_tallies(moto_tables):
    store = RatingStore()
    assert store.save_tally(ResultTally("p1", "chess").after("g1", "win"))
    assert store.save_tally(ResultTally("p1", "english").after("g2", "loss"))
    store.save_card("p1", "KE")
    store.forget("p1")
    found = store.public_partition("p1")
    assert (found.country, found.ratings, found.tallies) == (None, [], [])


def test_settles_racing_and_retried_count_a_game_once(ratings_store):
    ratings = GameRatings(ratings_store, clock=lambda: 10.0)
    head = ended("g-race", "white")
    _run_at_once(lambda: ratings.count_results(head))
    ratings.count_results(head)  # and a retry afterwards
    white, black = ratings_store.tally("p-white", "chess"), ratings_store.tally("p-black", "chess")
    assert white is not None and (white.wins, white.draws, white.losses, white.counted) == (1, 0, 0, ("g-race",))
    assert black is not None and (black.wins, black.draws, black.losses) == (0, 0, 1)


def test_games_ending_at_once_all_count(ratings_store):
    ratings = GameRatings(ratings_store, clock=lambda: 10.0)
    heads = [ended(f"g-{n}", ("white", "black", "draw", "white")[n]) for n in range(4)]

    def count_all() -> None:
        for head in heads:
            ratings.count_results(head)

    _run_at_once(count_all, count=4)
    white = ratings_store.tally("p-white", "chess")
    assert white is not None and (white.wins, white.draws, white.losses) == (2, 1, 1)
    assert sorted(white.counted) == [f"g-{n}" for n in range(4)] and white.version == 4


def test_which_games_count():
    assert counted_results(ended("a", "black")) == [("p-white", "loss"), ("p-black", "win")]
    assert counted_results(ended("b", "draw", {"rated": True})) == [("p-white", "draw"), ("p-black", "draw")]
    assert counted_results(ended("c", "white", black=None)) == []  # against the computer
    assert counted_results(ended("d", "white", {"private": True})) == []  # a friend's private game
    assert counted_results(ended("e", "aborted")) == []  # too short to count (fair play)
    assert counted_results(ended("f", "white", black="p-white")) == []  # nobody plays themself


def _game(api: Api, white: dict, black: dict, end: str, rated: bool = False) -> str:
    """A chess game White created and Black joined, four moves, then ended: ``end`` is who wins, or draw."""
    created = api.create(white["token"], rated=rated)
    game_id = created.body["game"]["id"]
    assert api.join(black["token"], game_id, created.body["invite"]["code"]).status == 200
    seats = {"white": white["token"], "black": black["token"]}
    api.open_moves(game_id, seats)
    if end == "draw":
        assert api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["white"]).status == 200
        answer = api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=seats["black"])
    else:
        loser = seats["black" if end == "white" else "white"]
        answer = api.call("POST", f"/v1/games/{game_id}/resign", token=loser)
    assert answer.status == 200 and answer.body["state"] == "finished", answer.body
    return game_id


def test_a_profile_shows_three_wins_a_draw_and_two_losses(api, count_calls):
    asha, baraka, neema = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Neema")
    _game(api, asha, baraka, "white", rated=True)
    _game(api, asha, neema, "white")
    _game(api, baraka, asha, "black")
    _game(api, asha, neema, "draw", rated=True)
    _game(api, neema, asha, "white")
    _game(api, asha, baraka, "black")
    # What does not count: a game against the computer, a private game, an aborted rated game.
    computer = api.create(asha["token"], opponent={"type": "cpu", "level": 1}).body["game"]["id"]
    assert api.call("POST", f"/v1/games/{computer}/resign", token=asha["token"]).status == 200
    private = api.create(asha["token"], options={"private": True})
    assert api.join(neema["token"], private.body["game"]["id"], private.body["invite"]["code"]).status == 200
    assert api.call("POST", f"/v1/games/{private.body['game']['id']}/resign", token=neema["token"]).status == 200
    early = api.create(asha["token"], rated=True)
    assert api.join(baraka["token"], early.body["game"]["id"], early.body["invite"]["code"]).status == 200
    assert api.call("POST", f"/v1/games/{early.body['game']['id']}/resign", token=baraka["token"]).status == 200
    count_calls.calls.clear()
    profile = api.call("GET", f"/v1/players/{asha['player_id']}")
    assert profile.status == 200 and sorted(count_calls.calls) == ["Query", "Query"]
    assert profile.body["results"] == {"chess": {"win": 3, "draw": 1, "loss": 2}}
    assert api.call("GET", f"/v1/players/{neema['player_id']}").body["results"] == {
        "chess": {"win": 1, "draw": 1, "loss": 1}
    }
    # A retried end (the loser's resign again) counts nothing more.
    again = _game(api, asha, baraka, "white")
    assert api.call("POST", f"/v1/games/{again}/resign", token=baraka["token"]).status in (200, 409)
    tally = RatingStore().tally(player_id_of(asha["player_id"]), "chess")
    assert tally is not None and (tally.wins, tally.draws, tally.losses) == (4, 1, 2)


def test_the_tally_item_is_in_the_players_partition(api):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    game_id = _game(api, asha, baraka, "draw")
    key = {"pk": {"S": player_id_of(baraka["player_id"])}, "sk": {"S": TALLY_PREFIX + "chess"}}
    answer = call("get_item", TableName=RatingStore().table, Key=key)
    assert answer is not None
    item = answer["Item"]
    assert item["draws"] == {"N": "1"} and item["counted"] == {"L": [{"S": game_id}]}
