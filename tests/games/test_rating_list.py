"""The rating list shows earned ratings (issue 39, docs/games.md "Fair play"): listed only with 10 rated games in
the last 90 days against at least 5 different opponents whose ratings were established when each game ended,
and a deviation under 100. The games are settled through the ratings service as the games service settles
them (``change_for`` when the game ends, then ``settle``) and the list read through the API: the issue's pyramid
of 222 throwaway players (some 450 games, on the in-memory store, whose board reads as the index does) no
longer lists its farmers; a small club of real players who play each other (on moto) is listed."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from games.domain import GameHead, Seat
from games.handler.ratings import rating_repository
from games.ratings.domain import BOARD_GAMES, BOARD_OPPONENTS, BOARD_RD, PAIRING_LIMIT
from games.ratings.repository import InMemoryRatings, RatingRepository, RatingStore
from games.ratings.service import GameRatings

from shared_rules import get_game
from tests.fixtures import Function, on_clock
from tests.games.client import Api

START_SNAPSHOT = get_game("chess").start().snapshot()


class Games:
    """Rated chess games ending one after another, each settled as the games service settles one."""

    def __init__(self, clock, store: RatingRepository) -> None:
        self.ratings = GameRatings(store, clock)
        self.clock = clock
        self.count = itertools.count()

    def play(self, white: str, black: str, result: str = "white") -> None:
        self.clock.advance(seconds=60)
        at = int(self.clock() * 1000)
        head = GameHead(
            id=f"g{next(self.count)}",
            game="chess",
            options={},
            seq=12,
            ply=10,  # two moves a side and more: a played game
            state="finished",
            turn="white",
            result=result,  # type: ignore[arg-type]
            reason="resignation",
            white=Seat(white, b"w" * 32, white),
            black=Seat(black, b"b" * 32, black),
            snapshot=START_SNAPSHOT,
            created=at,
            updated=at,
        )
        self.ratings.settle(replace(head, rating_change=self.ratings.change_for(head)))

    def rating(self, player: str):
        stored = self.ratings.store.get(player, "chess")
        assert stored is not None
        return stored.at(int(self.clock() * 1000))


def listed(api) -> list[str]:
    answer = api.call("GET", "/v1/leaderboard", query={"game": "chess"})
    assert answer.status == 200
    return [player["name"] for player in answer.body["players"]]


def test_the_pyramid_of_222_puts_nobody_on_the_rating_list(moto_tables, clock):
    """The attack: 200 throwaway players lose to 20 middle ones, who lose to two farmers, again each day (as
    many games as a pair may rate a day); the farmers play each other too. Each farmer ends with more than ten
    rated games and a deviation under 100, which listed them before; but every opponent they beat was
    provisional, so nobody is listed."""
    from games import handler

    store = InMemoryRatings()
    api = Api(Function(handler, {**on_clock(clock), rating_repository: lambda: store}))
    games = Games(clock, store)
    farmers = ["Asha", "Asha2"]
    middle = [f"m{number}" for number in range(20)]
    base = [f"b{number}" for number in range(200)]
    for number, player in enumerate(base):
        games.play(middle[number % len(middle)], player)
    for _day in range(2):
        for _ in range(PAIRING_LIMIT):
            for player in middle:
                for farmer in farmers:
                    games.play(farmer, player)
            games.play(farmers[0], farmers[1], "draw")
        clock.advance(days=1)
    for farmer in farmers:
        rating = games.rating(farmer)
        assert rating.games >= BOARD_GAMES and rating.rating.rd < BOARD_RD  # what listed them before
        assert len(rating.opponents_met()) == 1  # the other farmer: the only established opponent
    assert listed(api) == []


@pytest.mark.slow  # some 80 rated games on moto
def test_a_club_of_real_players_is_listed_once_they_are_established(api, clock):
    """Seven players who play each other, a round a day (each pair one game): each is listed once the others
    are established and five of them were met as such; the stronger first."""
    games = Games(clock, RatingStore())
    players = [f"p{number}" for number in range(7)]
    for day in range(4):
        for white, black in itertools.combinations(players, 2):
            # The lower-numbered player mostly wins, with a few draws.
            games.play(white, black, "draw" if (day + int(white[1:]) + int(black[1:])) % 5 == 0 else "white")
        clock.advance(days=1)
    assert all(len(games.rating(player).opponents_met()) >= BOARD_OPPONENTS for player in players)
    on_list = listed(api)
    assert sorted(on_list) == players and on_list[:2] == ["p0", "p1"]


def test_a_look_alike_of_a_listed_name_gets_a_number_on_the_list(moto_tables, clock):
    """The attack: `Аsha` beside `Asha` was #1 and #2. A name mixing the scripts is refused at naming
    (tests/games/test_players.py); one wholly Cyrillic (`Аѕһа`) is shown with a 2 after it, even placed first."""
    from games import handler

    store = InMemoryRatings()
    api = Api(Function(handler, {**on_clock(clock), rating_repository: lambda: store}))
    games = Games(clock, store)
    # Each beats those after her; after 4 rounds all but the first are listed (as in the club above).
    club = ["Baraka", "\u0410\u0455\u04bb\u0430", "Asha", "Juma", "Neema", "Zawadi", "Rehema"]
    for _day in range(4):
        for white, black in itertools.combinations(club, 2):
            games.play(white, black, "white")
        clock.advance(days=1)
    board = api.call("GET", "/v1/leaderboard", query={"game": "chess"}).body["players"]
    shown = {entry["name"]: entry["lookalike"] for entry in board}
    assert shown["\u0410\u0455\u04bb\u0430"] == 2 and shown["Asha"] is None
    assert [entry["name"] for entry in board][0] == "\u0410\u0455\u04bb\u0430"  # placed above, numbered all the same
    assert all(number is None for name, number in shown.items() if name not in ("Asha", "\u0410\u0455\u04bb\u0430"))
