"""Game ratings through the handler on moto: a rated game's end changes both ratings once, whatever ends it;
GET /v1/players/me, the rating history and the leaderboard; bad input refused with nothing written."""

from __future__ import annotations

from dataclasses import replace

import pytest
from common.persistence.deadline import StoreUnavailable
from common.players.handles import player_id_of
from common.ratings import glicko2
from games.domain import Result
from games.handler import ratings as routes
from games.ratings.domain import START, GameRating, rating_change
from games.ratings.repository import RatingStore

from tests.games.client import Api, snapshot
from tests.games.test_games_api import assert_refused

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]


def rated_game(api, game: str = "chess", opened: bool = True) -> tuple[str, dict, dict]:
    """A rated game between Asha (White) and Baraka, each side two moves in when ``opened`` (so that its end
    counts): (id, {color: token}, {color: player id})."""
    white, black = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(white["token"], game, "white", rated=True).body
    assert api.join(black["token"], created["game"]["id"], created["invite"]["code"]).status == 200
    tokens = {"white": white["token"], "black": black["token"]}
    if opened:
        api.open_moves(created["game"]["id"], tokens)
    return created["game"]["id"], tokens, {"white": white["player_id"], "black": black["player_id"]}


def me(api, token: str) -> dict:
    answer = api.call("GET", "/v1/players/me", token=token)
    assert answer.status == 200, answer.body
    return answer.body


def expected_points(result: Result) -> dict:
    change = rating_change(START, START, result)
    return {"white": round(change.white.rating), "black": round(change.black.rating)}


def ended_by(api, how: str) -> tuple[dict, dict, str]:
    game_id, tokens, _ = rated_game(api, opened=how != "mate")
    if how == "mate":
        state = api.play(game_id, tokens, FOOLS_MATE)
    elif how == "resignation":
        state = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"]).body
    else:
        api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=tokens["white"])
        state = api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=tokens["black"]).body
    return state, tokens, game_id


@pytest.mark.parametrize(("how", "result"), [("mate", "black"), ("resignation", "black"), ("agreement", "draw")])
def test_the_end_changes_both_ratings_once_and_everyone_sees_it(api, how, result):
    state, tokens, game_id = ended_by(api, how)
    points = expected_points(result)
    assert state["status"]["result"] == result and state["rated"] is True
    assert state["rating_change"] == points and api.get(game_id).body["rating_change"] == points
    for color in ("white", "black"):
        mine = me(api, tokens[color])
        assert mine["ratings"]["chess"] == {
            "rating": 1500 + points[color],
            "rd": mine["ratings"]["chess"]["rd"],
            "provisional": True,
            "games": 1,
        }
        assert mine["ratings"]["chess"]["rd"] < 350 and set(mine["ratings"]) == {"chess"}
        listed = api.call("GET", "/v1/players/me/games", token=tokens[color], query={"status": "finished"}).body
        assert [game["rating_change"] for game in listed["games"]] == [points]
    if result == "draw":
        assert points == {"white": 0, "black": 0}  # two equal ratings: a draw moves neither


def test_a_retried_end_applies_the_change_once(api):
    game_id, tokens, _ = rated_game(api, "english")
    first = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["black"])
    for _ in range(3):
        again = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["black"])
        assert again.status == 200 and again.body["rating_change"] == first.body["rating_change"]
    assert me(api, tokens["white"])["ratings"]["english"]["games"] == 1
    assert me(api, tokens["black"])["ratings"]["english"]["games"] == 1


class FailingOnce:
    """The ratings store, failing the second save once (a settle cut short between the two players)."""

    def __init__(self) -> None:
        self.store, self.saves = RatingStore(), 0

    def __getattr__(self, name):
        return getattr(self.store, name)

    def save(self, rating: GameRating, now: int) -> bool:
        self.saves += 1
        if self.saves == 2:
            raise StoreUnavailable("the store failed")
        return self.store.save(rating, now)


def test_a_settle_cut_short_is_finished_by_the_retry(api, handler):
    failing = FailingOnce()
    handler.overrides[routes.rating_repository] = lambda: failing
    flaky = Api(handler)
    game_id, tokens, _ = rated_game(flaky)
    assert flaky.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"]).status == 503
    assert flaky.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"]).status == 200
    ratings = [me(api, tokens[color])["ratings"]["chess"] for color in ("white", "black")]
    assert [rating["games"] for rating in ratings] == [1, 1]
    assert [rating["rating"] - 1500 for rating in ratings] == list(expected_points("black").values())


def test_casual_games_and_timeouts(api, clock):
    game_id, tokens = api.start_game("tanzanian")
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"]).body["rating_change"] is None
    white_id = api.get(game_id).body["players"]["white"]["player_id"]  # the handle, as every answer shows it
    assert me(api, tokens["white"]) == {
        "player_id": white_id,
        "name": "Asha",
        "country": None,  # no CloudFront-Viewer-Country header here
        "country_hidden": False,
        "ratings": {},
    }
    rated_id, rated_tokens, _ = rated_game(api, "tanzanian")
    api.play(rated_id, rated_tokens, [api.get(rated_id).body["legal_moves"][0]])
    clock.advance(days=4)
    claim = api.call("POST", f"/v1/games/{rated_id}/claim-timeout", token=rated_tokens["white"])
    assert claim.status == 200 and claim.body["status"]["reason"] == "timeout"
    assert claim.body["rating_change"] == expected_points(claim.body["status"]["result"])
    assert me(api, rated_tokens["black"])["ratings"]["tanzanian"]["games"] == 1


def test_the_history_has_a_point_per_rated_game(api):
    _state, tokens, _ = ended_by(api, "resignation")
    answer = api.call("GET", "/v1/players/me/ratings/chess", token=tokens["black"])
    assert answer.status == 200 and answer.body["game"] == "chess"
    [(ended, rating)] = answer.body["points"]
    assert rating == 1500 + expected_points("black")["black"] and ended > 0
    assert api.call("GET", "/v1/players/me/ratings/english", token=tokens["black"]).body["points"] == []


def _eligible(player_id: str, name: str, rating: float, games: int, last_game_ms: int) -> GameRating:
    """A rating whose games were each against a different established opponent (the rating list's rule)."""
    history = tuple((last_game_ms - (games - 1 - n) * 86_400_000, round(rating)) for n in range(games))
    earned = tuple((at, f"o{n}") for n, (at, _) in enumerate(history))
    rating_now = glicko2.Rating(rating, 80.0, 0.06)
    return GameRating(player_id, "chess", name, rating_now, games, (), history, 1, earned=earned)


def test_the_leaderboard_lists_the_eligible_best_first(api, clock):
    now = int(clock() * 1000)
    store = RatingStore()
    for number in range(55):
        assert store.save(_eligible(f"p{number}", f"P{number}", 1500 + number, 12, now), now)
    assert store.save(_eligible("few", "Few", 2500, 9, now), now)  # nine games: not yet
    assert store.save(_eligible("old", "Old", 2400, 10, now - 91 * 86_400_000), now)  # lapsed since
    wide = GameRating("wide", "chess", "Wide", glicko2.Rating(2300, 120, 0.06), 30, (), ((now, 2300),) * 30, 1)
    assert store.save(wide, now)
    answer = api.call("GET", "/v1/leaderboard", query={"game": "chess"})
    assert answer.status == 200 and answer.headers["cache-control"] == "public, max-age=60"
    players = answer.body["players"]
    assert len(players) == 50 and players[0] == {
        "id": "p54",
        "name": "P54",
        "rating": 1554,
        "games": 12,
        "lookalike": None,
    }
    assert [player["rating"] for player in players] == list(range(1554, 1504, -1))
    empty: dict[str, object] = {"game": "english", "country": None, "players": []}
    assert api.call("GET", "/v1/leaderboard", query={"game": "english"}).body == empty


@pytest.mark.parametrize(
    ("method", "path", "query", "status", "code"),
    [
        ("GET", "/v1/leaderboard", {"game": "checkers"}, 422, "invalid_request"),
        ("GET", "/v1/leaderboard", None, 422, "invalid_request"),
        ("GET", "/v1/leaderboard", {"game": "chess", "country": "tz"}, 422, "invalid_country"),
        ("GET", "/v1/leaderboard", {"game": "chess", "country": "TZA"}, 422, "invalid_country"),
        ("GET", "/v1/leaderboard", {"game": "chess", "country": "XX"}, 422, "invalid_country"),
        ("GET", "/v1/leaderboard", {"game": "chess", "country": ""}, 422, "invalid_country"),
        ("GET", "/v1/players/me/ratings/go", None, 422, "invalid_request"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(api, method, path, query, status, code):
    token = api.new_player()["token"]
    before = snapshot()
    assert_refused(api.call(method, path, query=query, token=token), status, code)
    assert_refused(api.call("GET", "/v1/players/me"), 401, "unauthorized")
    assert snapshot() == before


def test_a_side_the_computer_stood_in_for_gains_nothing_but_may_lose(api, clock):
    """The attack: let the 30 s (or the days) run out, let the computer win for you, resume. A side the computer
    stood in for gains no rating from the game, even after it came back; the other side still loses."""
    game_id, tokens, ids = rated_game(api, "chess")
    api.play(game_id, tokens, [api.get(game_id).body["legal_moves"][0]])  # White's third move
    clock.advance(days=3, seconds=1)  # Black's time runs out: the computer plays on for Black
    taken = api.call("POST", f"/v1/games/{game_id}/cpu-takeover", token=tokens["white"])
    assert taken.status == 200 and taken.body["cpu_takeover"]["seat"] == "black" and taken.body["ply"] == 6
    assert api.call("POST", f"/v1/games/{game_id}/resume", token=tokens["black"]).status == 200
    ended = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"]).body
    assert ended["status"]["result"] == "black"
    assert ended["rating_change"] == {"white": expected_points("black")["white"], "black": 0}
    assert me(api, tokens["black"])["ratings"]["chess"]["rating"] == 1500
    assert me(api, tokens["white"])["ratings"]["chess"]["rating"] == 1500 + expected_points("black")["white"]

    # The absent side that loses still loses, as a player who leaves loses on time.
    game_id, tokens, _ = rated_game(api, "chess")
    api.play(game_id, tokens, [api.get(game_id).body["legal_moves"][0]])
    clock.advance(days=3, seconds=1)
    api.call("POST", f"/v1/games/{game_id}/cpu-takeover", token=tokens["white"])
    ended = api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["black"]).body
    assert (
        ended["status"]["result"] == "white" and ended["rating_change"]["black"] < 0 < ended["rating_change"]["white"]
    )


def test_a_player_away_grows_less_certain_on_every_read(api, clock):
    game_id, tokens, ids = rated_game(api)
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["black"]).status == 200
    before = me(api, tokens["white"])["ratings"]["chess"]
    clock.advance(days=6)  # less than a rating period (a week): nothing grows
    assert me(api, tokens["white"])["ratings"]["chess"] == before
    clock.advance(days=7 * 20)  # 20 whole weeks and 6 days since the game: 20 periods
    stored = RatingStore().get(player_id_of(ids["white"]), "chess")  # the API shows handles
    assert stored is not None
    grown = me(api, tokens["white"])["ratings"]["chess"]
    assert grown == {**before, "rd": round(glicko2.idle(stored.rating, 20).rd)} and grown["rd"] > before["rd"]
    history = api.call("GET", "/v1/players/me/ratings/chess", token=tokens["white"]).body
    assert history["rating"] == grown and len(history["points"]) == 1


def test_an_idle_player_drops_off_the_leaderboard(api, clock):
    now = int(clock() * 1000)
    store = RatingStore()
    near = replace(_eligible("near", "Near", 1900, 12, now), rating=glicko2.Rating(1900, 98.0, 0.06))
    assert store.save(near, now)
    weeks = glicko2.periods_below(near.rating, 100.0)
    clock.advance(days=7 * weeks - 1)
    listed = api.call("GET", "/v1/leaderboard", query={"game": "chess"}).body["players"]
    assert listed == [{"id": "near", "name": "Near", "rating": 1900, "games": 12, "lookalike": None}]
    clock.advance(days=1)  # its deviation reaches 100 well inside the 90 days of its games
    assert api.call("GET", "/v1/leaderboard", query={"game": "chess"}).body["players"] == []
