"""The all-time wins, draws and losses of a profile (``ResultTally``, one item a player and game in the ratings
table): the store's contract on memory, moto and dynalite; a game's end counted once when the settle is retried
or races on threads; which games count; the profile's answer over the API; and the back-fill of the games that
ended before the tallies (``games.ratings.service.backfill_results``, ``local/backfill_results.py``)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from common.persistence.store import call
from common.players.handles import player_id_of
from common.players.service import Player, hash_token
from games.domain import Aborted, Created, DrawAccepted, GameHead, Resigned, Seat, apply
from games.ratings.domain import COUNTED_KEPT, GameRating, ResultTally, counted_results
from games.ratings.repository import TALLY_PREFIX, InMemoryRatings, RatingStore
from games.ratings.service import GameRatings, Recount, recount_results
from games.repository import GameStore, InMemoryGameStore, StoredGames
from games.service import GamesService

from tests.clocks import TickingClock
from tests.games.client import Api, at_once
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
    assert tally.counted[-1] == (f"g{COUNTED_KEPT + 4}", "draw") and not tally.has_counted("g0")


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
    assert white is not None and (white.wins, white.draws, white.losses, white.counted) == (
        1,
        0,
        0,
        (("g-race", "win"),),
    )
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
    assert sorted(game_id for game_id, _ in white.counted) == [f"g-{n}" for n in range(4)] and white.version == 4


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
    assert item["draws"] == {"N": "1"} and item["counted"] == {"L": [{"L": [{"S": game_id}, {"S": "draw"}]}]}


# ------------------------------------------------------------------------------------------- the back-fill
TOKENS = {name: "ubao_" + name[0] * 43 for name in ("asha", "baraka", "neema")}
PLAYERS = {name: Player(f"p-{name}00000", hash_token(token), name.title()) for name, token in TOKENS.items()}


@pytest.fixture(params=STORES)
def both_stores(request) -> tuple[StoredGames, Any]:
    """The games and the ratings, on the param's store."""
    if request.param == "memory":
        return StoredGames(InMemoryGameStore()), InMemoryRatings()
    request.getfixturevalue(f"{request.param}_tables")
    return StoredGames(GameStore()), RatingStore()


def _played(service: GamesService, white: str, black: str, end: str, options: dict | None = None) -> str:
    """A game ``white`` made and ``black`` joined, ended as ``end`` says: who resigns, or draw."""
    made = service.create(PLAYERS[white], "chess", "white", options or {}, None)
    assert made.invite is not None
    service.join(PLAYERS[black], made.head.id, made.invite["code"])
    if end == "draw":
        service.draw(hash_token(TOKENS[white]), made.head.id, "offer")
        service.draw(hash_token(TOKENS[black]), made.head.id, "accept")
    elif end != "ongoing":
        service.resign(hash_token(TOKENS[end]), made.head.id)
    return made.head.id


def _counts(ratings, name: str) -> tuple[int, int, int]:
    tally = ratings.tally(PLAYERS[name].player_id, "chess")
    return (tally.wins, tally.draws, tally.losses) if tally else (0, 0, 0)


def test_the_backfill_counts_the_games_before_the_tallies_once(both_stores):
    games, ratings = both_stores
    clock = TickingClock()
    before = GamesService(games, clock=clock)  # as before the tallies: games end and nobody counts them
    after = GamesService(games, clock=clock, ratings=GameRatings(ratings, clock))
    _played(before, "asha", "baraka", "baraka")  # Asha wins
    _played(before, "asha", "baraka", "asha")  # Asha loses
    _played(before, "asha", "neema", "draw")
    _played(before, "asha", "neema", "neema", {"private": True})  # a friend's private game: never counted
    unsettled = _played(before, "neema", "asha", "neema")  # Asha wins; its settle runs after the back-fill
    _played(after, "baraka", "asha", "baraka")  # since the tallies: Asha wins, counted at its end
    going_on = _played(after, "asha", "neema", "ongoing")
    assert _counts(ratings, "asha") == (1, 0, 0)

    progress: list[tuple[int, int, int]] = []
    ended_meanwhile: list[str] = []

    def report(done: Recount) -> None:
        progress.append((done.pages, done.checked, done.written))
        if not ended_meanwhile:  # a game ends while the table is read: counted once, whoever is first
            after.resign(hash_token(TOKENS["neema"]), going_on)
            ended_meanwhile.append(going_on)

    done = recount_results(games, ratings, 3, report)
    assert _counts(ratings, "asha") == (4, 1, 1) and _counts(ratings, "neema") == (0, 1, 2)
    assert _counts(ratings, "baraka") == (1, 0, 2)
    assert done.pages >= 3 and done.tallies == done.checked == 3 and done.written == 3
    assert progress == sorted(progress) and progress[-1] == (done.pages, 3, 3)  # told page by page, then tallies
    # The settle of a game the back-fill counted finds it counted; a second run writes nothing.
    GameRatings(ratings, clock).count_results(games.get_head(unsettled))
    again = recount_results(games, ratings, 3)
    assert again.written == 0 and _counts(ratings, "asha") == (4, 1, 1)


def test_the_backfill_script_says_its_progress(moto_tables, capsys):
    from local import backfill_results

    games = StoredGames(GameStore())
    _played(GamesService(games, clock=TickingClock()), "asha", "baraka", "asha")
    assert backfill_results.main(["--page-size", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pages = lines[:-2]  # a page a Scan page of one item (the game's events, its listings, its head)
    assert [line.split(":")[0] for line in pages] == [f"page {n}" for n in range(1, len(pages) + 1)]
    assert len(pages) > 2 and pages[-1].endswith(": 1 games read, 2 results that count")
    assert lines[-2:] == ["tallies: 2 of 2 checked, 2 written", "done: 1 games, 2 results, 2 of 2 tallies written"]
    assert _counts(RatingStore(), "baraka") == (1, 0, 0)


@pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")
def test_a_game_end_raced_by_both_players_is_counted_once(dynalite_api, handler):
    asha, baraka = dynalite_api.new_player("Asha"), dynalite_api.new_player("Baraka")
    created = dynalite_api.create(asha["token"])
    game_id = created.body["game"]["id"]
    assert dynalite_api.join(baraka["token"], game_id, created.body["invite"]["code"]).status == 200
    tokens = {"white": asha["token"], "black": baraka["token"]}
    dynalite_api.open_moves(game_id, tokens)
    calls = [
        lambda api, token=tokens[color]: api.call("POST", f"/v1/games/{game_id}/resign", token=token)
        for color in ("white", "black") * 5
    ]
    answers = at_once(lambda: Api(handler), calls)
    assert sorted({answer.status for answer in answers}) in ([200], [200, 409]), [a.body for a in answers]
    tallies = [RatingStore().tally(player_id_of(player["player_id"]), "chess") for player in (asha, baraka)]
    counted = [(t.wins, t.draws, t.losses, [game for game, _ in t.counted]) for t in tallies if t is not None]
    assert sorted(counted) == [(0, 0, 1, [game_id]), (1, 0, 0, [game_id])]  # one end, whoever won the race
