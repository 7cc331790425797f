"""The lobby's routes on moto: offering, listing, polling, accepting and withdrawing seeks; refusals as JSON
with nothing written; the calls an acceptance costs; the limits."""

from __future__ import annotations

import os
import secrets

import pytest

from tests.games.client import Api

DAY = 86_400


def seeks_table() -> list[dict]:
    """Every item the lobby writes: the seek slots and the games table (a seek is a game waiting for its
    players), to prove that a refused request wrote nothing."""
    from common.persistence import store

    items = []
    for table in (os.environ["SEEKS_TABLE"], os.environ["GAMES_TABLE"]):
        answer = store.client().scan(TableName=table, ConsistentRead=True)
        items += [store.from_item(item) for item in answer["Items"]]
    return sorted(items, key=repr)


def offer(api: Api, token: str, **fields) -> dict:
    answer = api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": True, **fields}, token=token)
    assert answer.status == 201, answer.body
    return answer.body["seek"]


def test_a_seek_is_listed_without_any_id_that_acts_and_accepted_into_a_game(api):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    seek = offer(api, asha["token"], options={"days_per_move": 5}, color="white")
    assert seek["mine"] and seek["state"] == "open" and seek["options"]["days_per_move"] == 5
    listed = api.call("GET", "/v1/seeks", query={"game": "tanzanian"})
    assert listed.status == 200 and listed.body["next"] is None
    [public] = listed.body["seeks"]
    assert public["seeker"] == {"name": "Asha", "rating": 1500, "provisional": True}
    assert not public["mine"] and public["game_id"] is None
    assert asha["player_id"] not in listed.text and asha["token"] not in listed.text
    assert api.call("GET", f"/v1/games/{seek['id']}").code == "game_not_found"  # a seek is no game until taken
    accepted = api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"])
    assert accepted.status == 201 and accepted.body["seat"] == "black"
    game = accepted.body["game"]
    assert game["state"] == "active" and game["game"] == "tanzanian" and game["rated"] is True
    assert game["players"]["white"]["name"] == "Asha" and game["players"]["black"]["name"] == "Baraka"
    assert api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"] == []
    polled = api.call("GET", f"/v1/seeks/{seek['id']}", token=asha["token"])
    assert polled.body["seek"]["state"] == "taken" and polled.body["seek"]["game_id"] == game["id"]
    assert api.call("GET", f"/v1/seeks/{seek['id']}").body["seek"]["game_id"] is None  # not to strangers
    again = api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"])
    assert again.status == 200 and again.body["game"]["id"] == game["id"]


def test_the_seeker_polls_with_an_etag_until_the_seek_is_taken(api):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    seek = offer(api, asha["token"])
    first = api.call("GET", f"/v1/seeks/{seek['id']}", token=asha["token"])
    etag = first.headers["etag"]
    assert (
        api.call("GET", f"/v1/seeks/{seek['id']}", token=asha["token"], headers={"if-none-match": etag}).status == 304
    )
    api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"])
    changed = api.call("GET", f"/v1/seeks/{seek['id']}", token=asha["token"], headers={"if-none-match": etag})
    assert changed.status == 200 and changed.body["seek"]["game_id"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "tanzanian"}, 422, "invalid_request"),  # rated is required
        ({"game": "go", "rated": True}, 422, "invalid_request"),
        ({"game": "chess", "rated": "yes"}, 422, "invalid_request"),
        ({"game": "chess", "rated": True, "rating_range": [1800, 1600]}, 422, "invalid_request"),
        ({"game": "chess", "rated": True, "rating_range": [1600]}, 422, "invalid_request"),
        ({"game": "chess", "rated": True, "color": "red"}, 422, "invalid_request"),
        ({"game": "chess", "rated": True, "options": {"days_per_move": 0}}, 422, "invalid_option"),
        ({"game": "chess", "rated": True, "options": {"mandatory_capture": True}}, 422, "invalid_option"),
        ({"game": "chess", "rated": True, "surprise": 1}, 422, "invalid_request"),
    ],
)
def test_bad_input_is_a_json_4xx_and_writes_nothing(api, body, status, code):
    asha = api.new_player("Asha")
    answer = api.call("POST", "/v1/seeks", body, token=asha["token"])
    assert (answer.status, answer.code) == (status, code), answer.body
    assert seeks_table() == []


def test_refusals_by_code(api):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    assert api.call("POST", "/v1/seeks", {"game": "chess", "rated": False}).code == "unauthorized"
    before = seeks_table()
    for steered in ([1600, 2000], [1500, 1500], [0, 0], [1401, 1700]):  # each must reach ±100 around her 1500
        answer = api.call(
            "POST", "/v1/seeks", {"game": "tanzanian", "rated": True, "rating_range": steered}, token=asha["token"]
        )
        assert (answer.status, answer.code) == (422, "invalid_rating_range"), answer.body
    assert seeks_table() == before
    seek = offer(api, asha["token"], rating_range=[1400, 1600])
    before = seeks_table()
    for token, status, code in ((asha["token"], 409, "own_seek"),):
        answer = api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=token)
        assert (answer.status, answer.code) == (status, code)
    assert api.call("DELETE", f"/v1/seeks/{seek['id']}", token=baraka["token"]).code == "not_your_seek"
    for path in ("/v1/seeks/AAAAAAAAAAAA/accept", "/v1/seeks/short/accept"):
        assert api.call("POST", path, token=baraka["token"]).code == "seek_not_found"
    assert api.call("GET", "/v1/seeks", query={"game": "chess", "cursor": "forged"}).code == "invalid_cursor"
    assert api.call("GET", "/v1/seeks").status == 422
    assert seeks_table() == before
    assert api.call("DELETE", f"/v1/seeks/{seek['id']}", token=asha["token"]).status == 200
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).code == "seek_not_found"
    assert api.call("DELETE", f"/v1/seeks/{seek['id']}", token=asha["token"]).code == "seek_not_found"


def test_three_open_seeks_at_most(api):
    asha = api.new_player("Asha")
    for _ in range(3):
        offer(api, asha["token"])
    refused = api.call("POST", "/v1/seeks", {"game": "chess", "rated": False}, token=asha["token"])
    assert (refused.status, refused.code) == (409, "too_many_seeks")


def test_a_seek_past_its_seven_days_is_neither_listed_nor_accepted(api, clock):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    seek = offer(api, asha["token"])
    clock.advance(days=7, seconds=-1)
    assert len(api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"]) == 1
    clock.advance(seconds=1)
    assert api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"] == []
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).code == "seek_not_found"
    assert api.call("GET", f"/v1/seeks/{seek['id']}").code == "seek_not_found"


def test_accepting_costs_one_read_and_four_writes(api, count_calls, monkeypatch):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    seek = offer(api, asha["token"])
    monkeypatch.delenv("RATE_LIMIT_TABLE")  # the limits' own writes are measured apart (docs/limits.md)
    count_calls.calls.clear()
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).status == 201
    # The taker's item and the seek's head in one read; the pair's rated games of the day (a read and the
    # claim's conditional write: docs/games.md, "Fair play"); the join: the game's next event (conditional),
    # each player's listing of the game (their history: a seat was taken) and the head.
    assert count_calls.calls == ["BatchGetItem", "GetItem", "PutItem", "PutItem", "PutItem", "PutItem", "PutItem"]
    for token, code in ((asha["token"], "seek_taken"), (api.new_player()["token"], "seek_taken")):
        count_calls.calls.clear()
        assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=token).code == code
        assert count_calls.calls == ["BatchGetItem"]  # a refusal is decided on that read alone
    count_calls.calls.clear()
    unknown = "ubao_" + secrets.token_urlsafe(32)  # a token's shape, but no player's
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=unknown).code == "unauthorized"
    assert count_calls.calls == ["BatchGetItem"]


def test_seeking_and_accepting_are_rate_limited_per_player(api):
    asha, baraka = api.new_player("Asha"), api.new_player("Baraka")
    answers = []
    for _ in range(12):
        seek = api.call("POST", "/v1/seeks", {"game": "chess", "rated": False}, token=asha["token"])
        answers.append(seek.code)
        if seek.status == 201:
            api.call("DELETE", f"/v1/seeks/{seek.body['seek']['id']}", token=asha["token"])
    assert answers[:10] == [None] * 10 and answers[10:] == ["rate_limited"] * 2
    # Baraka's own bucket is full: his challenge goes through, and Asha's accept is limited as her offers are.
    seek = offer(api, baraka["token"])
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=asha["token"]).code == "rate_limited"


def test_ratings_come_from_the_ratings_store_and_a_range_reads_the_takers(api, clock, count_calls, monkeypatch):
    from common.players.handles import player_id_of
    from common.ratings import glicko2
    from games.ratings.domain import GameRating
    from games.ratings.repository import RatingStore

    asha, baraka, chausiku = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Chausiku")
    store, now = RatingStore(), int(clock() * 1000)
    for player, rating in ((asha, 1712.4), (chausiku, 1650.0)):
        player_id = player_id_of(player["player_id"])  # the API shows handles; the store keeps ids
        rated = GameRating(player_id, "chess", None, glicko2.Rating(rating, 80.0, 0.06), 12, version=1)
        assert store.save(rated, now)
    seek = offer(api, asha["token"], game="chess", rating_range=[1600, 1850])
    assert seek["seeker"] == {"name": "Asha", "rating": 1712, "provisional": False}
    assert api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=baraka["token"]).code == "out_of_range"
    monkeypatch.delenv("RATE_LIMIT_TABLE")
    count_calls.calls.clear()
    accepted = api.call("POST", f"/v1/seeks/{seek['id']}/accept", token=chausiku["token"])
    assert accepted.status == 201 and accepted.body["game"]["rated"] is True
    # A ranged seek: the taker's rating is read once the first read shows the range; the join succeeds.
    assert count_calls.calls == ["BatchGetItem", "GetItem", "GetItem", *["PutItem"] * 5]


def test_players_who_block_each_other_never_meet_in_the_lobby(api):
    asha, baraka, chausiku = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Chausiku")
    first = offer(api, asha["token"], rated=False)
    game = api.call("POST", f"/v1/seeks/{first['id']}/accept", token=baraka["token"]).body["game"]
    blocked = api.call("POST", "/v1/players/me/blocks", {"game": game["id"]}, token=asha["token"])
    assert blocked.status == 201, blocked.body
    # Asha's new challenge: Baraka, whom she blocked, cannot take it; anyone else can.
    mine = offer(api, asha["token"])
    before = seeks_table()
    refused = api.call("POST", f"/v1/seeks/{mine['id']}/accept", token=baraka["token"])
    assert refused.status == 404 and refused.body["error"]["code"] == "seek_not_found"
    assert seeks_table() == before  # nothing written
    # Baraka's challenge: Asha, who blocked him, does not take it either.
    his = offer(api, baraka["token"])
    refused = api.call("POST", f"/v1/seeks/{his['id']}/accept", token=asha["token"])
    assert refused.status == 404 and refused.body["error"]["code"] == "seek_not_found"
    taken = api.call("POST", f"/v1/seeks/{mine['id']}/accept", token=chausiku["token"])
    assert taken.status == 201 and taken.body["game"]["players"]["white"]["name"] in ("Asha", "Chausiku")
