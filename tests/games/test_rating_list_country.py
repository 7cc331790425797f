"""The rating list by country (``RatingsByCountry``) on memory, moto and dynalite: it is the whole list filtered by
the country each player shows, a hidden country is on no list and nowhere in the table, and a hide racing a
settle stays hidden (docs/games.md, "The rating list by country")."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import pytest
from common.persistence.deadline import StoreUnavailable
from common.players.handles import player_id_of
from common.ratings import glicko2
from common.ratings.repository import card_record
from games.domain import Created, GameHead, Resigned, Seat, apply
from games.ratings.domain import START, GameRating, rating_change
from games.ratings.repository import InMemoryRatings, RatingStore, rating_record
from games.ratings.service import GameRatings, backfill_countries

from local.backfill_listings import main as backfill_main
from tests.checks import known
from tests.games.client import scan_table
from tests.stores import STORES, on_each_store

DAY = 86_400_000
NOW = 400 * DAY
COUNTRIES = ("TZ", "KE", "PH")


@pytest.fixture(params=STORES)
def ratings_store(request):
    return on_each_store(request, InMemoryRatings, RatingStore)


def _listed(player_id: str, rating: float, game: str = "chess") -> GameRating:
    """A rating on the list at ``NOW``: 12 games a day apart, each against a different established opponent."""
    history = tuple((NOW - (11 - n) * DAY, round(rating)) for n in range(12))
    earned = tuple((at, f"o{n}") for n, (at, _) in enumerate(history))
    return GameRating(
        player_id, game, player_id.title(), glicko2.Rating(rating, 80.0, 0.06), 12, (), history, 1, earned=earned
    )


def _settled(store, player_id: str, game_id: str, game: str = "chess") -> bool:
    """One more rated game applied as a settle applies it: the rating and the card read, then the conditional
    write."""
    current = known(store.get_with_card(player_id, game))
    return store.save(current.after(game_id, rating_change(START, START, "draw").white, NOW, None), NOW)


def _stored(store) -> list[dict[str, Any]]:
    """Every item of the ratings table, as stored."""
    if isinstance(store, InMemoryRatings):
        return list(store.items.values())
    return scan_table(store.table)


def _ids(board: list[GameRating]) -> list[str]:
    return [rating.player_id for rating in board]


def test_the_country_list_is_the_whole_list_filtered_by_the_country_shown(ratings_store):
    draw = random.Random(41)
    shown: dict[str, str | None] = {}
    for number in range(24):
        player_id, country = f"p{number:02d}", draw.choice([*COUNTRIES, None])
        hidden = country is not None and draw.random() < 0.25
        if number % 2:  # the card first, then a settle copies it
            ratings_store.save_card(player_id, country)
            assert ratings_store.save(_listed(player_id, 1500 + draw.randrange(600)), NOW)
            assert _settled(ratings_store, player_id, "g1")
        else:  # the rating first, then the card (a player made before cards, showing their country once)
            assert ratings_store.save(_listed(player_id, 1500 + draw.randrange(600)), NOW)
            ratings_store.save_card(player_id, country)
        if hidden:
            ratings_store.save_card(player_id, None)
        shown[player_id] = None if hidden else country
    ratings_store.save_card("q", "TZ")  # on no list: nine games only
    assert ratings_store.save(replace(_listed("q", 2500), history=_listed("q", 2500).history[:9], games=9), NOW)
    everyone = ratings_store.board("chess", NOW, 200)
    assert len(everyone) == 24 and "q" not in _ids(everyone)
    for country in COUNTRIES:
        by_country = ratings_store.board("chess", NOW, 200, country)
        assert _ids(by_country) == [player for player in _ids(everyone) if shown[player] == country]
        assert [rating.rating for rating in by_country] == [r.rating for r in everyone if shown[r.player_id] == country]
    assert ratings_store.board("english", NOW, 200, "TZ") == [] and ratings_store.board("chess", NOW, 200, "FR") == []
    assert ratings_store.board("chess", NOW + 91 * DAY, 200, "TZ") == []  # eligibility lapses on this list too


def test_a_hidden_country_is_on_no_list_and_nowhere_in_the_table(ratings_store):
    ratings_store.save_card("asha", "TZ")
    assert ratings_store.save(_listed("asha", 1900), NOW) and _settled(ratings_store, "asha", "g1")
    assert _ids(ratings_store.board("chess", NOW, 50, "TZ")) == ["asha"]
    ratings_store.save_card("asha", None)
    assert ratings_store.board("chess", NOW, 50, "TZ") == []
    assert _ids(ratings_store.board("chess", NOW, 50)) == ["asha"]  # still on the whole list
    assert "TZ" not in repr(_stored(ratings_store))
    assert _settled(ratings_store, "asha", "g2")  # a later settle reads the hidden card: still nowhere
    assert "TZ" not in repr(_stored(ratings_store)) and ratings_store.board("chess", NOW, 50, "TZ") == []
    ratings_store.save_card("asha", "TZ")  # shown again: listed again at once
    assert _ids(ratings_store.board("chess", NOW, 50, "TZ")) == ["asha"]


def test_a_settle_that_read_the_card_before_a_hide_does_not_bring_the_country_back(ratings_store):
    ratings_store.save_card("asha", "TZ")
    assert ratings_store.save(_listed("asha", 1900), NOW) and _settled(ratings_store, "asha", "g0")
    assert _ids(ratings_store.board("chess", NOW, 50, "TZ")) == ["asha"]
    change = rating_change(START, START, "white").white
    # The settle read rating and card together; the hide then rewrote the rating: the settle's write fails and
    # its next round reads the hidden card.
    read = known(ratings_store.get_with_card("asha", "chess"))
    ratings_store.save_card("asha", None)
    assert not ratings_store.save(read.after("g1", change, NOW, None), NOW)
    # The reads of one BatchGetItem are not one snapshot: the card as it was before the hide, the rating as the
    # hide left it. The write succeeds, and its check of the card after it takes the country off again.
    stale_card = read.country
    fresh = known(ratings_store.get_with_card("asha", "chess"))
    assert ratings_store.save(replace(fresh.after("g1", change, NOW, None), country=stale_card), NOW)
    assert ratings_store.board("chess", NOW, 50, "TZ") == [] and "TZ" not in repr(_stored(ratings_store))
    assert known(ratings_store.get("asha", "chess")).applied[-1] == "g1"


def _head(game_id: str, white: str, black: str) -> GameHead:
    """A rated chess game between ``white`` and ``black`` that White resigned at ``NOW``."""
    seats: dict[str, Any] = {"white": Seat(white, bytes(32), "W"), "black": Seat(black, bytes(32), "B")}
    options = {"days_per_move": 3, "rated": True}
    head = apply(None, Created(seq=1, at=NOW - 1, game_id=game_id, game="chess", options=options, **seats))
    return apply(head, Resigned(seq=2, at=NOW, by="white", rating_change=rating_change(START, START, "black")))


def _retried(action: Callable[[], None], attempts: int = 20) -> None:
    """``action``, tried again after a 503 as a client tries again (a settle gives up after 5 lost rounds)."""
    for _ in range(attempts - 1):
        try:
            return action()
        except StoreUnavailable:
            continue
    action()


def _at_once(*targets: Callable[[], None]) -> None:
    barrier = threading.Barrier(len(targets))
    errors: list[BaseException] = []

    def run(target: Callable[[], None]) -> None:
        barrier.wait(timeout=30)
        try:
            target()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_a_settle_retried_after_its_check_was_cut_short_takes_the_country_off(ratings_store):
    """The put of a settle landed with the country its stale card read, and its check of the card after it did
    not run (a 503 there): the client's retry finds the game applied and makes the copies agree with the card."""
    for player in ("asha", "baraka"):
        ratings_store.save_card(player, "TZ")
        assert ratings_store.save(_listed(player, 1900), NOW)
    ratings_store.save_card("asha", None)
    head = _head("g1", "asha", "baraka")
    ratings = GameRatings(ratings_store, clock=lambda: NOW / 1000)
    change = known(head.rating_change).side("white")
    landed = known(ratings_store.get_with_card("asha", "chess")).after("g1", change, NOW, "W", "baraka")
    _put_alone(ratings_store, rating_record(replace(landed, country="TZ"), NOW))  # the put, without its check
    assert sorted(_ids(ratings_store.board("chess", NOW, 50, "TZ"))) == ["asha", "baraka"]  # the leak to close
    ratings.settle(head)  # the retry: asha's game is applied; baraka's is applied now
    assert _ids(ratings_store.board("chess", NOW, 50, "TZ")) == ["baraka"]
    assert [item for item in _stored(ratings_store) if item["pk"] == "asha" and "TZ" in repr(item)] == []


@pytest.fixture(params=["memory", "dynalite"])
def shared_store(request):
    """A ratings store threads may share: moto's conditional writes are not atomic between threads of one
    process (its ``update_item`` checks the condition, then writes, unlocked), DynamoDB's and dynalite's are."""
    return on_each_store(request, InMemoryRatings, RatingStore)


@pytest.mark.parametrize("last", [None, "KE"])
def test_hides_and_shows_racing_settles_on_threads_end_as_the_last_choice(shared_store, last):
    ratings_store = shared_store
    for player in ("asha", "baraka"):
        ratings_store.save_card(player, "KE")
        assert ratings_store.save(_listed(player, 1900), NOW)
    ratings = GameRatings(ratings_store, clock=lambda: NOW / 1000)

    def settles(first: int) -> Callable[[], None]:
        def settle() -> None:
            for n in range(first, first + 4):
                _retried(partial(ratings.settle, _head(f"g{n}", "asha", "baraka")))

        return settle

    def toggles() -> None:
        for n in range(6):
            _retried(partial(ratings_store.save_card, "asha", None if n % 2 == 0 else "KE"))
        _retried(partial(ratings_store.save_card, "asha", last))  # the last choice

    _at_once(settles(0), settles(4), toggles)
    asha = known(ratings_store.get_with_card("asha", "chess"))
    assert asha.games == 12 + 8 and asha.country == last
    assert sorted(_ids(ratings_store.board("chess", NOW, 50))) == ["asha", "baraka"]
    if last is None:  # hidden: on no country's list, and nowhere in the table
        assert _ids(ratings_store.board("chess", NOW, 50, "KE")) == ["baraka"]
        assert [item for item in _stored(ratings_store) if item["pk"] == "asha" and "KE" in repr(item)] == []
    else:  # shown: on Kenya's list, whatever order the writes came in
        assert sorted(_ids(ratings_store.board("chess", NOW, 50, "KE"))) == ["asha", "baraka"]


def test_the_country_list_over_http_is_one_query_and_cached_like_the_whole_list(api, clock, count_calls):
    now = int(clock() * 1000)
    store = RatingStore()
    made = []
    for number, (name, country) in enumerate((("Asha", "TZ"), ("Juma", "KE"), ("Neema", "TZ"))):
        header = {"CloudFront-Viewer-Country": country}
        made.append(api.call("POST", "/v1/players", {"name": name}, headers=header).body)
        listed = _listed(player_id_of(made[-1]["player_id"]), 1600 + 100 * number)
        history = tuple((now - (11 - n) * DAY, point) for n, (_, point) in enumerate(listed.history))
        earned = tuple((at, f"o{n}") for n, (at, _) in enumerate(history))
        # Written without the country, as a settle that read no card: the check after the write copies the card's.
        assert store.save(replace(listed, name=name, history=history, earned=earned), now)
        assert known(store.get_with_card(listed.player_id, "chess")).country == country
    count_calls.calls.clear()
    answer = api.call("GET", "/v1/leaderboard", query={"game": "chess", "country": "TZ"})
    assert answer.status == 200 and answer.headers["cache-control"] == "public, max-age=60"
    assert count_calls.calls == ["Query"]
    assert answer.body["country"] == "TZ" and [p["name"] for p in answer.body["players"]] == ["Neema", "Asha"]
    everyone = api.call("GET", "/v1/leaderboard", query={"game": "chess"}).body["players"]
    assert [p["name"] for p in everyone] == ["Neema", "Juma", "Asha"]
    api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=made[2]["token"])
    listed = api.call("GET", "/v1/leaderboard", query={"game": "chess", "country": "TZ"}).body["players"]
    assert [p["name"] for p in listed] == ["Asha"]
    neema = [item for item in scan_table(store.table) if item["pk"] == player_id_of(made[2]["player_id"])]
    assert len(neema) == 2 and "TZ" not in repr(neema)  # the card and the rating: nowhere while hidden


def test_the_back_fill_copies_the_cards_of_listed_players_once(ratings_store, capsys):
    """Rating items written before ``RatingsByCountry`` (the card there, the copy not): ``--countries`` copies each
    listed player's card, a second run writes nothing, and an unlisted player's or a hidden country is not copied."""
    for player, country in (("asha", "TZ"), ("juma", "KE"), ("neema", None)):
        assert ratings_store.save(_listed(player, 1900), NOW)
        if country:
            _put_card_alone(ratings_store, player, country)
    assert ratings_store.save(replace(_listed("few", 2000), history=_listed("few", 2000).history[:9], games=9), NOW)
    _put_card_alone(ratings_store, "few", "TZ")
    assert ratings_store.board("chess", NOW, 50, "TZ") == []
    assert backfill_countries(ratings_store) == (3, 2)
    assert _ids(ratings_store.board("chess", NOW, 50, "TZ")) == ["asha"]
    assert _ids(ratings_store.board("chess", NOW, 50, "KE")) == ["juma"]
    assert backfill_countries(ratings_store) == (3, 0)
    if isinstance(ratings_store, RatingStore):  # the script itself, on the same table
        assert backfill_main(["--countries", "--ratings-table", ratings_store.table]) == 0
        assert capsys.readouterr().out.strip() == "done: 3 listed players, 0 rating items given their country"


def _put_card_alone(store, player_id: str, country: str) -> None:
    """The card as the code before this wrote it: the card alone, no copy."""
    _put_alone(store, card_record(player_id, country))


def _put_alone(store, record: dict[str, Any]) -> None:
    """``record`` stored as it is, with no check after it."""
    if isinstance(store, InMemoryRatings):
        store.items[(record["pk"], record["sk"])] = record
    else:
        from common.persistence.store import call, to_item

        call("put_item", TableName=store.table, Item=to_item(record))
