"""Game ratings under retries and races, with single-item conditional writes only: the ratings store's
contract on memory, moto and dynalite; settles racing on threads; a game's end raced by many requests
(one process each, as Lambda instances) on dynalite."""

from __future__ import annotations

import sys
import threading
from dataclasses import replace
from typing import Any

import pytest
from common.players.handles import player_id_of
from common.ratings import glicko2
from games.domain import GameHead
from games.ratings.domain import START, GameRating, rating_change
from games.ratings.repository import InMemoryRatings, RatingStore
from games.ratings.service import GameRatings
from games.repository import GameStore
from games.repository.codec import head_from

from tests.checks import known
from tests.games.client import Api, at_once
from tests.games.test_ratings_api import rated_game
from tests.stores import STORES, on_each_store

THREADS = 8


@pytest.fixture(params=STORES)
def ratings_store(request):
    return on_each_store(request, InMemoryRatings, RatingStore)


def _run_at_once(target, count: int = THREADS) -> None:
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run() -> None:
        barrier.wait(timeout=30)
        try:
            target()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def _same(found: GameRating, expected: GameRating) -> bool:
    """Equal, the Glicko-2 values to DynamoDB's stored precision (12 decimals)."""
    values = pytest.approx([expected.rating.rating, expected.rating.rd, expected.rating.volatility], abs=1e-9)
    return replace(found, rating=expected.rating) == expected and [*found.rating.__dict__.values()] == values


def test_a_save_is_conditional_on_the_version_read(ratings_store):
    first = GameRating("p1", "chess").after("g1", rating_change(START, START, "white").white, 5, "Asha")
    assert ratings_store.save(first, now=0)
    assert not ratings_store.save(first, now=0)  # the same version again: someone was first
    second = first.after("g2", rating_change(first.rating, START, "draw").white, 6, "Asha")
    assert ratings_store.save(second, now=0)
    stored = ratings_store.get("p1", "chess")
    assert stored is not None and _same(stored, second)
    found = ratings_store.get_many(["p1", "nobody"], "chess")
    assert list(found) == ["p1"] and _same(found["p1"], second)
    [summary] = ratings_store.of_player("p1")
    assert summary.games == 2 and summary.history == () and _same(summary, replace(second, history=(), applied=()))


def test_the_public_card_is_read_with_the_ratings_and_holds_a_country_only_while_shown(ratings_store):
    rating = GameRating("p1", "chess").after("g1", rating_change(START, START, "white").white, 5, "Asha")
    assert ratings_store.save(rating, now=0)
    assert ratings_store.card_and_histories("p1")[0] is None  # made before cards: none
    ratings_store.save_card("p1", "TZ")
    country, [read] = ratings_store.card_and_histories("p1")
    assert country == "TZ" and _same(read, rating)  # the card is no rating: one Query reads both
    assert [found.game for found in ratings_store.of_player("p1")] == ["chess"]
    assert [found.game for found in ratings_store.with_histories("p1")] == ["chess"]
    ratings_store.save_card("p1", None)  # hidden: the card keeps nothing
    assert ratings_store.card_and_histories("p1")[0] is None
    assert ratings_store.card_and_histories("p2") == (None, [])


def _met(history: tuple) -> tuple:
    """A game against a different established opponent at each point of ``history`` (the rating list's rule)."""
    return tuple((at, f"o{n}") for n, (at, _) in enumerate(history))


def test_the_board_is_best_first_and_only_the_eligible(ratings_store):
    day = 86_400_000
    for number, rd in enumerate((80.0, 90.0, 150.0)):
        history = tuple((n * day, 1600) for n in range(10))
        rating = GameRating(f"p{number}", "english", f"P{number}", glicko2.Rating(1600 + number, rd, 0.06), 10)
        assert ratings_store.save(
            GameRating(**{**rating.__dict__, "history": history, "version": 1, "earned": _met(history)}), now=0
        )
    assert [rating.player_id for rating in ratings_store.board("english", 10 * day, 10)] == ["p1", "p0"]
    assert ratings_store.board("english", 90 * day, 10) == []  # the tenth latest game is 90 days old
    assert ratings_store.board("chess", 0, 10) == []


def _ended_head(game_id: str = "g-race") -> GameHead:
    from games.domain import Created, Resigned, Seat, apply

    seats: dict[str, Any] = {color: Seat(f"p-{color}", bytes(32), color.title()) for color in ("white", "black")}
    created = Created(seq=1, at=1, game_id=game_id, game="chess", options={"days_per_move": 3, "rated": True}, **seats)
    head = apply(None, created)
    change = rating_change(START, START, "black")
    return apply(head, Resigned(seq=2, at=2, by="white", rating_change=change))


def test_settles_racing_on_threads_apply_the_change_once(ratings_store):
    head = _ended_head()
    ratings = GameRatings(ratings_store, clock=lambda: 10.0)
    _run_at_once(lambda: ratings.settle(head))
    ratings.settle(head)  # and a retry afterwards
    for color, sign in (("white", -1), ("black", 1)):
        stored = ratings_store.get(f"p-{color}", "chess")
        assert stored is not None and stored.games == 1 and stored.applied == ("g-race",)
        assert sign * (stored.rating.rating - 1500) > 0 and len(stored.history) == 1


def test_two_games_ending_at_once_both_count(ratings_store):
    ratings = GameRatings(ratings_store, clock=lambda: 10.0)
    heads = [_ended_head(f"g-{number}") for number in range(4)]

    def settle_all() -> None:
        for head in heads:
            ratings.settle(head)

    _run_at_once(settle_all, count=4)
    stored = ratings_store.get("p-black", "chess")
    assert stored is not None and stored.games == 4 and sorted(stored.applied) == [f"g-{n}" for n in range(4)]


@pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")
def test_a_game_end_raced_by_both_players_is_rated_once(dynalite_api, handler):
    game_id, tokens, ids = rated_game(dynalite_api, "tanzanian")
    calls = [
        lambda api, color=color: api.call("POST", f"/v1/games/{game_id}/resign", token=tokens[color])
        for color in ("white", "black") * 5
    ]
    answers = at_once(lambda: Api(handler), calls)
    assert sorted({answer.status for answer in answers}) in ([200], [200, 409]), [a.body for a in answers]
    stored = head_from(known(GameStore().get_head(game_id)))
    assert stored.state == "finished" and stored.rating_change is not None
    loser = "white" if stored.result == "black" else "black"
    for color in ("white", "black"):
        rating = RatingStore().get(player_id_of(ids[color]), "tanzanian")  # the API shows handles
        assert rating is not None and rating.games == 1 and rating.applied == (game_id,)
        expected = 1500 + stored.rating_change.side(color).rating
        assert rating.rating.rating == pytest.approx(expected)
        assert (rating.rating.rating < 1500) == (color == loser)
