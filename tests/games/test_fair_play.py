"""Fair play (docs/games.md, "Fair play"): each attack of issue 39 played through the handler on moto (the clock
faked), and what it no longer gains. A rated game must be played: ended before each side made two moves it is
aborted; a side the computer stood in for gains nothing; a live table both players left ends unrated; a live
seek lapses in 10 minutes; a stale or forged seeks cursor is a 422."""

from __future__ import annotations

import base64
import json

import pytest

from tests.games.client import Api, snapshot
from tests.games.test_ratings_api import me, rated_game
from tests.stores import STORES, on_each_store


def post(api: Api, game_id: str, action: str, token: str, body: dict | None = None):
    return api.call("POST", f"/v1/games/{game_id}/{action}", body or {}, token=token)


def assert_aborted(state: dict, reason: str = "aborted") -> None:
    assert state["state"] == "finished" and state["status"] == {"result": "aborted", "reason": reason}
    assert state["rating_change"] is None and state["abortable"] is False and state["review"] == "none"


def agree_draw(api: Api, game_id: str, tokens: dict) -> dict:
    assert post(api, game_id, "draw", tokens["white"], {"action": "offer"}).status == 200
    return post(api, game_id, "draw", tokens["black"], {"action": "accept"}).body


@pytest.mark.parametrize("plies", [0, 1, 3])
def test_a_rated_game_resigned_or_drawn_before_two_moves_a_side_is_aborted(api, plies):
    for end in ("resign", "draw"):
        game_id, tokens, _ = rated_game(api, opened=False)
        if plies:
            api.open_moves(game_id, tokens, plies)
        assert api.get(game_id).body["abortable"] is True
        state = (
            post(api, game_id, "resign", tokens["white"]).body if end == "resign" else agree_draw(api, game_id, tokens)
        )
        assert_aborted(state)
        again = post(api, game_id, "resign", tokens["white"])  # a retry: the same answer, nothing more written
        assert again.status == 200 and again.body["status"]["result"] == "aborted"
        for token in tokens.values():
            assert me(api, token)["ratings"] == {}  # no rating item at all: the game is on no list


def test_the_pair_farm_moves_no_rating_with_games_nobody_played(api):
    """The attack: one pair took a player from 1500 to 1855 in 38 requests of ply-0 resignations."""
    winner, loser = api.new_player("Asha"), api.new_player("Baraka")
    for _ in range(19):
        created = api.create(winner["token"], "chess", "white", rated=True).body
        game_id = created["game"]["id"]
        joined = api.join(loser["token"], game_id, created["invite"]["code"]).body["game"]
        ended = post(api, game_id, "resign", loser["token"]).body
        if joined["rated"]:
            assert_aborted(ended)
        else:  # after the pair's 3 rated games of the day the rest are casual: a resignation is a plain loss
            assert joined["casual_reason"] == "repeat_pairing" and ended["rating_change"] is None
    assert me(api, winner["token"])["ratings"] == {} and me(api, loser["token"])["ratings"] == {}


def test_the_abort_route_until_each_side_has_made_two_moves(api):
    game_id, tokens, _ = rated_game(api, opened=False)
    stranger = api.new_player("Juma")
    before = snapshot()
    refused = post(api, game_id, "abort", stranger["token"])
    assert (refused.status, refused.code) == (403, "not_a_player") and snapshot() == before
    state = api.open_moves(game_id, tokens, 3)
    assert state["abortable"] is True
    assert_aborted(post(api, game_id, "abort", tokens["black"]).body)
    assert post(api, game_id, "abort", tokens["black"]).status == 200  # a retry
    assert post(api, game_id, "abort", tokens["white"]).status == 200

    # Four plies in (two moves a side): too late; resigning then counts.
    game_id, tokens, _ = rated_game(api)
    assert api.get(game_id).body["abortable"] is False
    before = snapshot()
    late = post(api, game_id, "abort", tokens["white"])
    assert (late.status, late.code) == (409, "not_abortable") and snapshot() == before
    assert post(api, game_id, "resign", tokens["white"]).body["rating_change"]["white"] < 0


def test_a_casual_game_may_be_aborted_and_otherwise_ends_as_it_ends(api):
    game_id, tokens = api.start_game("english")
    assert post(api, game_id, "resign", tokens["white"]).body["status"] == {"result": "black", "reason": "resignation"}
    game_id, tokens = api.start_game("english")
    assert_aborted(post(api, game_id, "abort", tokens["white"]).body)


def test_a_rated_game_claimed_or_handed_to_the_computer_on_time_that_early_is_aborted(api, clock):
    """The attack: a seeker who is gone; the other lets the days run out and claims, or lets the computer play
    the absent player's whole game. Before two moves a side either ends the game with no result."""
    for action in ("claim-timeout", "cpu-takeover"):
        game_id, tokens, _ = rated_game(api, opened=False)
        api.open_moves(game_id, tokens, 1)  # White moved; Black never came
        clock.advance(days=3, seconds=1)
        state = post(api, game_id, action, tokens["white"]).body
        assert_aborted(state, "no_show")  # Black never came (a tournament scores it lost: tournaments/seated.py)
        assert state["cpu_takeover"] is None and state["ply"] == 1
        assert me(api, tokens["white"])["ratings"] == {}


def live_rated_game(api: Api, seconds: int = 30) -> tuple[str, dict]:
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    options = {"turn_seconds": seconds}
    created = api.create(asha["token"], "tanzanian", "white", rated=True, options=options).body
    game_id = created["game"]["id"]
    assert api.join(baraka["token"], game_id, created["invite"]["code"]).status == 200
    return game_id, {"white": asha["token"], "black": baraka["token"]}


def test_a_live_table_whose_first_turns_run_out_is_aborted_not_played_by_the_computer(api, clock):
    game_id, tokens = live_rated_game(api)
    api.open_moves(game_id, tokens, 2)
    clock.advance(seconds=31)  # White never made a second move: the table never really started
    state = api.get(game_id).body
    assert_aborted(state, "no_show")
    assert state["cpu_takeover"] is None and state["ply"] == 2


def test_a_live_table_both_players_left_ends_at_once_unrated(api, clock):
    """The attack: both players leave a rated live table; the one who left first won (+162)."""
    game_id, tokens = live_rated_game(api)
    api.open_moves(game_id, tokens, 4)
    clock.advance(seconds=31)  # White leaves first: the computer plays on for White
    state = api.get(game_id).body
    assert state["cpu_takeover"]["seat"] == "white" and state["turn"] == "black"
    clock.advance(seconds=31)  # then Black leaves too: both seats would be the computer's
    state = api.get(game_id).body
    assert_aborted(state, "abandoned")
    for token in tokens.values():
        assert me(api, token)["ratings"] == {}


def test_a_live_seek_lapses_after_ten_minutes_and_frees_its_slot(api, clock):
    asha = api.new_player("Asha")
    live = {"game": "tanzanian", "rated": True, "options": {"turn_seconds": 30}}
    made = [api.call("POST", "/v1/seeks", live, token=asha["token"]).body["seek"] for _ in range(3)]
    assert all(seek["expires"] for seek in made)
    listed = api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"]
    assert {seek["id"] for seek in listed} == {seek["id"] for seek in made}
    clock.advance(seconds=10 * 60 + 1)
    assert api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"] == []
    assert api.call("GET", f"/v1/seeks/{made[0]['id']}").status == 404
    taker = api.new_player("Baraka")
    assert api.call("POST", f"/v1/seeks/{made[0]['id']}/accept", token=taker["token"]).code == "seek_not_found"
    # The three lapsed seeks hold no slot: a fourth is made.
    assert api.call("POST", "/v1/seeks", live, token=asha["token"]).status == 201
    # A seek by correspondence stays open its 7 days.
    slow = api.call("POST", "/v1/seeks", {"game": "chess", "rated": False}, token=taker["token"]).body["seek"]
    clock.advance(days=6)
    assert api.call("GET", f"/v1/seeks/{slow['id']}").status == 200


def _cursor(created_ms: int, seek_id: str = "AAAAAAAAAAAA") -> str:
    raw = json.dumps([created_ms, seek_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_stale_or_forged_seeks_cursor_is_a_422(api, clock):
    """The attack: a cursor older than the 7 days answered 500 (dynalite's ValidationException)."""
    now = int(clock() * 1000)
    for cursor in (_cursor(now - 8 * 86_400_000), _cursor(now + 86_400_000), "forged", _cursor(0)):
        answer = api.call("GET", "/v1/seeks", query={"game": "chess", "cursor": cursor})
        assert (answer.status, answer.code) == (422, "invalid_cursor"), (cursor, answer.body)
    assert api.call("GET", "/v1/seeks", query={"game": "chess", "cursor": _cursor(now - 1000)}).status == 200


# ------------------------------------------------------------------------------- repetition does not pay
def rated_between(api: Api, white: dict, black: dict, game: str = "chess") -> tuple[str, dict, dict]:
    """A rated game White made and Black joined: (id, {color: token}, the state after the join)."""
    created = api.create(white["token"], game, "white", rated=True).body
    joined = api.join(black["token"], created["game"]["id"], created["invite"]["code"])
    assert joined.status == 200, joined.body
    return created["game"]["id"], {"white": white["token"], "black": black["token"]}, joined.body["game"]


def test_the_pair_farm_gains_what_three_genuine_games_would_a_day(api, clock):
    """The attack: the same two players, rated game after rated game. Only the first 3 of a game in any 24 hours
    are rated; later ones start casual and say so before the first move; a day later the pair is rated again."""
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    changes = []
    for number in range(8):
        game_id, tokens, started = rated_between(api, asha, baraka)
        counted = number < 3
        assert started["rated"] is counted and started["ply"] == 0
        assert started["casual_reason"] == (None if counted else "repeat_pairing")
        api.open_moves(game_id, tokens)
        ended = post(api, game_id, "resign", tokens["black"]).body
        assert ended["rated"] is counted and (ended["rating_change"] is not None) is counted
        if counted:
            changes.append(ended["rating_change"]["white"])
        clock.advance(seconds=60)
    mine = me(api, asha["token"])["ratings"]["chess"]
    assert mine["games"] == 3 and mine["rating"] - 1500 in range(sum(changes) - 2, sum(changes) + 3)
    # Another game is rated between them as usual; and once 24 hours have passed since the first, the pair again.
    other_game, _, started = rated_between(api, asha, baraka, "english")
    assert started["rated"] is True
    clock.advance(days=1)
    assert rated_between(api, asha, baraka)[2]["rated"] is True


def test_a_rematch_and_a_taken_seek_count_among_the_pairs_rated_games(api, clock):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    for _ in range(2):
        rated_between(api, asha, baraka)
    seek = api.call("POST", "/v1/seeks", {"game": "chess", "rated": True}, token=asha["token"]).body["seek"]
    taken = api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).body["game"]
    assert taken["rated"] is True  # the third
    game_id = taken["id"]
    tokens = {color: (asha if taken["players"][color]["name"] == "Asha" else baraka)["token"] for color in COLOURS}
    assert post(api, game_id, "abort", tokens["white"]).status == 200
    assert post(api, game_id, "rematch", tokens["white"]).status == 200
    rematch = api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "accept"}, token=tokens["black"])
    assert rematch.status == 201 and rematch.body["game"]["rated"] is False
    assert rematch.body["game"]["casual_reason"] == "repeat_pairing"


COLOURS = ("white", "black")


@pytest.fixture(params=STORES)
def ratings_store(request):
    from games.ratings.repository import InMemoryRatings, RatingStore

    return on_each_store(request, InMemoryRatings, RatingStore)


def test_a_pairs_claims_on_every_store(ratings_store):
    day = 86_400_000
    claim = ratings_store.claim_pairing
    assert [claim("pair#a#b", "chess", f"g{n}", 1_000 + n, day, 3) for n in range(4)] == [True, True, True, False]
    assert claim("pair#a#b", "chess", "g1", 5_000, day, 3) is True  # a claim kept: asked again, the same answer
    assert claim("pair#a#b", "chess", "g3", 5_000, day, 3) is False
    assert claim("pair#a#b", "english", "g9", 5_000, day, 3) is True  # another game of theirs
    assert claim("pair#a#b", "chess", "g4", 1_000 + day, day, 3) is True  # the first has left the window


# ----------------------------------------------------------------------------------- the lobby cannot be steered
def test_one_address_cannot_fill_the_lobby(api):
    """The attack: 46 seeks from one address (ranges admitting nobody) filled three pages of a lobby. Ranges must
    reach ±100 around the seeker's rating, and one address has at most 10 open seeks, whoever makes them."""
    answers = []
    for number in range(6):
        token = api.new_player(f"Farm {number}")["token"]
        for _ in range(3):
            answer = api.call("POST", "/v1/seeks", {"game": "english", "rated": False}, token=token)
            answers.append(answer.code if answer.status != 201 else "made")
    assert answers.count("made") == 10 and set(answers) == {"made", "too_many_seeks"}
    listed = api.call("GET", "/v1/seeks", query={"game": "english"}).body["seeks"]
    assert len(listed) == 10


# ------------------------------------------------------------------------------ every paged route, stale cursors
def _encoded(data) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_forged_or_stale_cursor_is_a_422_on_every_paged_route(dynalite_api, clock):
    """On dynalite, whose Query refuses an ``ExclusiveStartKey`` outside its key condition (the 500 of issue 39):
    every route that pages answers a cursor it did not give, or one older than its window, with 422."""
    api = dynalite_api
    asha = api.new_player("Asha")
    now = int(clock() * 1000)
    week_ago = now - 7 * 86_400_000 - 1
    routes = {
        "/v1/seeks": (
            {"game": "chess"},
            [_encoded([week_ago, "AAAAAAAAAAAA"]), _encoded([0, "A"]), _encoded({"s": 1})],
        ),
        "/v1/players/me/games": (
            {"status": "active"},
            [_encoded({"s": "active", "w": [0, "A"], "b": None}), _encoded({"s": "finished", "w": None, "b": None})],
        ),
        "/v1/players/me/history": ({}, [_encoded({"h": "0#A"}), _encoded({"h": 5}), _encoded([week_ago, "A"])]),
        f"/v1/players/{asha['player_id']}/games": ({}, [_encoded({"h": "x"}), _encoded([0, "A"])]),
    }
    for path, (query, stale) in routes.items():
        for cursor in [*stale, "forged!", "A" * 1000, _encoded(None)]:
            answer = api.call("GET", path, query={**query, "cursor": cursor}, token=asha["token"])
            assert (answer.status, answer.code) == (422, "invalid_cursor") or (
                answer.status == 422 and cursor == "A" * 1000  # longer than the route takes: the request's own 422
            ), (path, cursor, answer.status, answer.body)
        assert api.call("GET", path, query=query, token=asha["token"]).status == 200
