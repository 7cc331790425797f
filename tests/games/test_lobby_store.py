"""The seek repository's contract on the in-memory repository, moto and dynalite alike; and 30 players
accepting one seek at once on dynalite (whose conditional writes serialise as DynamoDB's do)."""

from __future__ import annotations

import sys

import pytest
from games.lobby.domain import MAX_OPEN_SEEKS, Rating, Seek, Seeker, Taker

from tests.games.client import Api, at_once

NOW = 1_750_000_000_000
WEEK = 7 * 86_400_000


@pytest.fixture(params=["memory", "moto", "dynalite"])
def repository(request):
    from games.lobby.repository import DynamoSeeks, InMemorySeeks

    if request.param == "memory":
        return InMemorySeeks()
    request.getfixturevalue("moto_tables" if request.param == "moto" else "dynalite_tables")
    return DynamoSeeks()


def seek(number: int, owner: str = "asha", game: str = "chess", at: int = NOW, **fields) -> Seek:
    seeker = Seeker(owner, "ab" * 32, owner.title(), Rating(1500, True))
    return Seek(
        id=f"seek{number:08d}", game=game, rated=True, options={"days_per_move": 3}, color=None,
        rating_range=fields.pop("rating_range", None), seeker=seeker, created=at, expires=at + WEEK, **fields,
    )  # fmt: skip


def taker(name: str = "baraka", rating: int | None = 1500, excluded: frozenset[str] = frozenset()) -> Taker:
    return Taker(name, name.title(), rating, excluded)


def test_add_get_and_the_limit_of_open_seeks(repository):
    for number in range(MAX_OPEN_SEEKS):
        assert repository.add(seek(number, at=NOW + number), MAX_OPEN_SEEKS)
    assert not repository.add(seek(9, at=NOW + 9), MAX_OPEN_SEEKS)
    assert repository.get("seek00000009") is None
    stored = repository.get("seek00000001")
    assert stored == seek(1, at=NOW + 1)
    assert repository.add(seek(10, owner="chausiku"), MAX_OPEN_SEEKS)  # another player's places
    # A taken, a withdrawn and an expired seek each free their place.
    assert repository.take("seek00000000", taker(), NOW + 10, "game00000000", "white") is not None
    assert repository.add(seek(11, at=NOW + 11), MAX_OPEN_SEEKS)
    assert repository.cancel("seek00000001", "asha")
    assert repository.add(seek(12, at=NOW + 12), MAX_OPEN_SEEKS)
    assert not repository.add(seek(13, at=NOW + 13), MAX_OPEN_SEEKS)
    assert repository.add(seek(14, at=NOW + 2 + WEEK), MAX_OPEN_SEEKS)  # seek 2 has lapsed by then


def test_the_list_is_open_unexpired_newest_first_by_game_in_pages(repository):
    for number in range(5):
        repository.add(seek(number, owner=f"p{number}", at=NOW + number), MAX_OPEN_SEEKS)
    repository.add(seek(7, owner="p7", game="english"), MAX_OPEN_SEEKS)
    repository.take("seek00000003", taker(), NOW + 10, "game00000000", "black")
    page, after = repository.list_open("chess", NOW + 10, None, 2)
    assert [s.id for s in page] == ["seek00000004", "seek00000002"] and after is not None
    rest, end = repository.list_open("chess", NOW + 10, after, 2)
    assert [s.id for s in rest] == ["seek00000001", "seek00000000"]
    assert end is not None and repository.list_open("chess", NOW + 10, end, 2) == ([], None)  # a full page
    later, _ = repository.list_open("chess", NOW + 2 + WEEK, None, 10)
    assert [s.id for s in later] == ["seek00000004"]  # those made at NOW to NOW + 2 have lapsed
    assert [s.id for s in repository.list_open("english", NOW, None, 10)[0]] == ["seek00000007"]


def test_take_is_conditional_on_everything_it_checks(repository):
    repository.add(seek(1, rating_range=(1400, 1600)), MAX_OPEN_SEEKS)
    assert repository.take("seek00000001", taker("asha"), NOW, "g1", "white") is None  # own
    assert repository.take("seek00000001", taker(rating=1601), NOW, "g1", "white") is None  # above the range
    assert repository.take("seek00000001", taker(rating=None), NOW, "g1", "white") is None  # a range needs a rating
    assert repository.take("seek00000001", taker(excluded=frozenset({"asha"})), NOW, "g1", "white") is None
    assert repository.take("seek00000001", taker(), NOW + WEEK, "g1", "white") is None  # lapsed
    assert repository.take("seek00000404", taker(), NOW, "g1", "white") is None
    assert repository.get("seek00000001").state == "open"
    taken = repository.take("seek00000001", taker(rating=1600), NOW, "g1", "black")
    assert (taken.state, taken.taker_id, taken.taker_name, taken.game_id, taken.seeker_color) == (
        "taken", "baraka", "Baraka", "g1", "black",
    )  # fmt: skip
    assert repository.get("seek00000001") == taken
    assert repository.take("seek00000001", taker("chausiku"), NOW, "g2", "white") is None
    assert not repository.cancel("seek00000001", "asha")
    repository.add(seek(2, excluded=frozenset({"baraka"})), MAX_OPEN_SEEKS)
    assert repository.take("seek00000002", taker(), NOW, "g3", "white") is None  # the seeker excluded him
    assert not repository.cancel("seek00000002", "baraka")  # not his
    assert repository.cancel("seek00000002", "asha")
    assert repository.get("seek00000002").state == "cancelled"


# ------------------------------------------------------------------------------------------- races
@pytest.fixture
def unlimited(handler):
    """The games function without per-client limits: 31 players from one test address exceed them."""
    from tests.bench.common import _no_limits
    from tests.games.conftest import Function

    return Function(handler.module, {**handler.overrides, **_no_limits()})


@pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")
def test_thirty_accepts_of_one_seek_make_one_game(dynalite_tables, unlimited, monkeypatch):
    from games.repository import GameStore

    from tests.games import client

    # Thirty processes on one dynalite on a shared machine: a longer Lambda timeout than template.yaml's, so the
    # store's deadline (a 503) does not cut a slow but sound request short.
    monkeypatch.setattr(client, "TIMEOUT_SECONDS", 60)
    api = Api(unlimited)
    seeker = api.new_player("Asha")
    tokens = [api.new_player(f"Taker {index}")["token"] for index in range(30)]
    made = api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": True}, token=seeker["token"])
    seek_id = made.body["seek"]["id"]
    path = f"/v1/seeks/{seek_id}/accept"
    answers = at_once(lambda: Api(unlimited), [lambda a, t=t: a.call("POST", path, token=t) for t in tokens])
    assert sorted(answer.status for answer in answers) == [201] + [409] * 29, [(a.status, a.code) for a in answers]
    assert {answer.code for answer in answers if answer.status == 409} == {"seek_taken"}
    [winner] = [answer for answer in answers if answer.status == 201]
    game_id = winner.body["game"]["id"]
    head, events = GameStore().load(game_id)
    assert len(events) == 1 and head["state"] == "active"
    polled = api.call("GET", f"/v1/seeks/{seek_id}", token=seeker["token"]).body["seek"]
    assert polled["game_id"] == game_id


def test_the_taker_and_the_seek_come_in_one_read(repository):
    from common.players.repository import PlayerStore

    players = getattr(repository, "players", None) or PlayerStore()
    assert players.create({"token_hash": "cd" * 32, "player_id": "baraka", "name": "Baraka", "created": NOW})
    assert repository.add(seek(1), MAX_OPEN_SEEKS)
    record, found = repository.taker_and_seek("cd" * 32, "seek00000001")
    assert record is not None and record["player_id"] == "baraka" and found == seek(1)
    assert repository.taker_and_seek("ef" * 32, "seek00000002") == (None, None)
    record, found = repository.taker_and_seek("cd" * 32, None)
    assert record is not None and record["name"] == "Baraka" and found is None
