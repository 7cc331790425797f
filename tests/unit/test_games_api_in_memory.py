"""The games function's HTTP API on in-memory repositories, through Powertools' ``dependency_overrides``: the
same routes, models and refusals as the moto and dynalite tests, with no AWS at all (the fast tier). The
clock is the test's; the repositories are ours (``InMemoryGameStore``, ``InMemoryPlayers``), which the
contract suites prove behave as the DynamoDB ones."""

from __future__ import annotations

import pytest
from common.players.handles import player_id_of
from common.players.repository import InMemoryPlayers
from common.web import depends
from common.web.ratelimit import MemoryBuckets
from games import handler
from games.handler import ratings as rating_routes
from games.ratings.repository import InMemoryRatings
from games.repository import InMemoryGameStore, in_memory_games

from tests.games.client import Api

START = 1_750_000_000.0


class InMemoryFunction:
    """The games handler module whose resolvers run on one set of in-memory repositories and a manual clock."""

    def __init__(self) -> None:
        self.now = START
        self.games, self.players, self.buckets = InMemoryGameStore(), InMemoryPlayers(), MemoryBuckets()
        self.ratings = InMemoryRatings()

    def create_app(self):
        app = handler.create_app()
        app.dependency_overrides.update(
            {
                depends.clock: lambda: lambda: self.now,
                handler.game_repository: lambda: in_memory_games(self.games),
                depends.player_repository: lambda: self.players,
                depends.card_repository: lambda: self.ratings,  # the public card lives with the ratings
                depends.rate_buckets: lambda: self.buckets,
                rating_routes.rating_repository: lambda: self.ratings,
            }
        )
        return app


@pytest.fixture
def function(aws_env, monkeypatch):
    for name in ("GAMES_TABLE", "PLAYERS_TABLE", "RATE_LIMIT_TABLE"):
        monkeypatch.delenv(name, raising=False)
    return InMemoryFunction()


def test_a_game_is_played_over_the_api_on_in_memory_repositories(function):
    api = Api(function)
    game_id, seats = api.start_game("chess")
    state = api.play(game_id, seats, ["f3", "e5", "g4", "Qh4#"])
    assert state["status"] == {"result": "black", "reason": "checkmate"}
    assert function.games.get_head(game_id)["seq"] == state["ply"] + 2  # created, joined, four moves
    assert len(function.players._players) == 2  # the two players went to the in-memory players


def test_a_rated_game_is_rated_on_in_memory_repositories(function):
    api = Api(function)
    white, black = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(white["token"], "chess", "white", rated=True).body
    api.join(black["token"], created["game"]["id"], created["invite"]["code"])
    state = api.play(
        created["game"]["id"], {"white": white["token"], "black": black["token"]}, ["f3", "e5", "g4", "Qh4#"]
    )
    assert state["rating_change"]["black"] > 0 > state["rating_change"]["white"]
    assert function.ratings.get(player_id_of(black["player_id"]), "chess").games == 1


def test_refusals_are_the_same_and_write_nothing(function):
    api = Api(function)
    game_id, seats = api.start_game("chess")
    before = function.games.load(game_id)
    answer = api.move(seats["black"], game_id, "e5", 0)
    assert answer.status == 403 and answer.body["error"]["reason"] == "not_your_turn"
    answer = api.move(seats["white"], game_id, "e5", 0)
    assert answer.status == 422 and answer.code == "illegal_move" and "e4" in answer.body["legal_moves"]
    assert api.move("ubao_" + "x" * 43, game_id, "e4", 0).code == "not_a_player"  # no seat of this game
    assert function.games.load(game_id) == before


def test_the_clock_is_the_one_overridden(function):
    api = Api(function)
    game_id, seats = api.start_game("chess", options={"days_per_move": 1})
    api.play(game_id, seats, ["e4"])
    assert api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats["white"]).status == 409
    function.now += 86_400 + 1  # Black's day is over
    claimed = api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats["white"])
    assert claimed.status == 200 and claimed.body["status"]["result"] == "white"
