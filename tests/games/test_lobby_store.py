"""The seek repository's contract on the in-memory repository, moto and dynalite alike (the seeks are games
waiting for their players, written here as the games' write protocol writes them); and races on dynalite
(whose conditional writes serialise as DynamoDB's do): 30 accepts of one seek, offers for the same slots, a
withdrawal against accepts."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from games.domain import Created, GameHead, Seat, SeekAccepted, SeekTerms, SeekWithdrawn, apply, new_game_options
from games.lobby.domain import MAX_OPEN_SEEKS, seek_of
from games.lobby.repository import CLAIM_GRACE_MS

from tests.checks import known
from tests.games.client import Api, at_once
from tests.stores import STORES

NOW = 1_750_000_000_000
WEEK = 7 * 86_400_000


@pytest.fixture(params=STORES)
def stores(request):
    """(the seek repository, the games repository it reads) on one store."""
    from games.lobby.repository import DynamoSeeks, InMemorySeeks
    from games.repository import InMemoryGameStore, dynamodb_games, in_memory_games

    if request.param == "memory":
        records = InMemoryGameStore()
        return InMemorySeeks(records), in_memory_games(records)
    request.getfixturevalue("moto_tables" if request.param == "moto" else "dynalite_tables")
    return DynamoSeeks(), dynamodb_games()


def offered(games, number: int, owner: str = "asha", game: str = "chess", at: int = NOW, **terms) -> GameHead:
    """Seek ``number``'s game stored as offering it stores it: its first event, then its head."""
    seeker = Seat(owner, bytes.fromhex("ab" * 32), owner.title())
    event = Created(
        at=at, seq=1, game_id=f"seek{number:08d}", game=game, options=new_game_options(game, {"days_per_move": 3}, True),
        seek=SeekTerms(seeker, 1500, True, terms.pop("color", None), terms.pop("rating_range", None), at + WEEK, **terms),
    )  # fmt: skip
    head = apply(None, event)
    assert games.append_event(head.id, event) and games.save_head(head)
    return head


def changed(games, head: GameHead, event: SeekAccepted | SeekWithdrawn, at: int = NOW + 10) -> GameHead:
    """The seek's next event appended (conditionally, as every game event) and its new head stored."""
    event = replace(event, seq=head.seq + 1, at=at)
    new = apply(head, event)
    assert games.append_event(head.id, event) and games.save_head(new)
    return new


def taken(games, head: GameHead, taker: str = "baraka") -> GameHead:
    return changed(games, head, SeekAccepted(by="black", seat=Seat(taker, bytes.fromhex("cd" * 32), taker.title())))


def test_slots_hold_three_open_seeks_and_each_way_a_seek_ends_frees_its_slot(stores):
    seeks, games = stores
    made = []
    for number in range(MAX_OPEN_SEEKS):
        assert seeks.claim_slot("asha", f"seek{number:08d}", NOW + number, MAX_OPEN_SEEKS)
        made.append(offered(games, number, at=NOW + number))
    assert not seeks.claim_slot("asha", "seek00000009", NOW + 9, MAX_OPEN_SEEKS)
    assert seeks.claim_slot("chausiku", "seek00000010", NOW + 9, MAX_OPEN_SEEKS)  # another player's slots
    # A taken, a withdrawn and a lapsed seek each free their slot.
    taken(games, made[0])
    assert seeks.claim_slot("asha", "seek00000011", NOW + 11, MAX_OPEN_SEEKS)
    # Seek 11's game is never written: its slot stays held while its request may still write it, then is free.
    assert not seeks.claim_slot("asha", "seek00000012", NOW + 12, MAX_OPEN_SEEKS)
    late = NOW + 11 + CLAIM_GRACE_MS + 1
    assert seeks.claim_slot("asha", "seek00000012", late, MAX_OPEN_SEEKS)
    offered(games, 12, at=late)
    changed(games, made[1], SeekWithdrawn())
    assert seeks.claim_slot("asha", "seek00000013", late, MAX_OPEN_SEEKS)
    offered(games, 13, at=late)
    assert not seeks.claim_slot("asha", "seek00000014", late, MAX_OPEN_SEEKS)
    assert seeks.claim_slot("asha", "seek00000014", NOW + 2 + WEEK, MAX_OPEN_SEEKS)  # seek 2 has lapsed by then


def test_a_seek_reads_back_with_its_terms_and_its_taker(stores):
    seeks, games = stores
    head = offered(games, 1, rating_range=(1400, 1600), excluded=frozenset({"zuberi"}), color="white")
    assert seeks.get("seek00000001") == head and seeks.get("seek00000404") is None
    seek = known(seek_of(seeks.get("seek00000001")))
    assert (seek.rating_range, seek.excluded, seek.color, seek.rated, seek.state) == (
        (1400, 1600), frozenset({"zuberi"}), "white", True, "open",
    )  # fmt: skip
    assert (
        seek.options["days_per_move"] == 3
        and "rated" not in seek.options
        and seek.seeker.player_id == "asha"
        and seek.expires == NOW + WEEK
    )
    taken(games, head)
    seek = known(seek_of(seeks.get("seek00000001")))
    assert (seek.state, seek.taker_id, seek.taker_name, seek.game_id, seek.seeker_color) == (
        "taken", "baraka", "Baraka", "seek00000001", "white",
    )  # fmt: skip


def test_the_list_is_open_unexpired_newest_first_by_game_in_pages(stores):
    seeks, games = stores
    made = [offered(games, number, owner=f"p{number}", at=NOW + number) for number in range(6)]
    offered(games, 7, owner="p7", game="english")
    taken(games, made[3])
    changed(games, made[5], SeekWithdrawn())
    page, after = seeks.list_open("chess", NOW + 10, None, 2)
    assert [head.id for head in page] == ["seek00000004", "seek00000002"] and after is not None
    rest, end = seeks.list_open("chess", NOW + 10, after, 2)
    assert [head.id for head in rest] == ["seek00000001", "seek00000000"]
    assert end is not None and seeks.list_open("chess", NOW + 10, end, 2) == ([], None)  # a full page
    later, _ = seeks.list_open("chess", NOW + 2 + WEEK, None, 10)
    assert [head.id for head in later] == ["seek00000004"]  # those made at NOW to NOW + 2 have lapsed
    assert [head.id for head in seeks.list_open("english", NOW, None, 10)[0]] == ["seek00000007"]


def test_the_taker_and_the_seek_come_in_one_read(stores):
    from common.players.domain import Player
    from common.players.repository import PlayerStore

    seeks, games = stores
    players = getattr(seeks, "players", None) or PlayerStore()
    assert players.create(Player("baraka", "cd" * 32, "Baraka", created=NOW))
    head = offered(games, 1)
    taker, found = seeks.taker_and_seek("cd" * 32, "seek00000001")
    assert taker is not None and taker.player_id == "baraka" and found == head
    assert seeks.taker_and_seek("ef" * 32, "seek00000002") == (None, None)
    taker, found = seeks.taker_and_seek("cd" * 32, None)
    assert taker is not None and taker.name == "Baraka" and found is None


# ------------------------------------------------------------------------------------------- races
@pytest.fixture
def unlimited(handler):
    """The games function without per-client limits: 31 players from one test address exceed them."""
    from tests.bench.common import _no_limits
    from tests.fixtures import Function

    return Function(handler.module, {**handler.overrides, **_no_limits()})


@pytest.fixture
def race(dynalite_tables, unlimited, monkeypatch):
    """Start a race on dynalite: ``race(takers, seek)`` makes Asha, that many takers and Asha's seek; (the api,
    Asha, the takers' tokens, the seek's id). Racers run as processes of their own: ``at_once(race.api, ...)``."""
    from tests.games import client

    # Up to thirty processes on one dynalite on a shared machine: a longer Lambda timeout than template.yaml's,
    # so the store's deadline (a 503) does not cut a slow but sound request short.
    monkeypatch.setattr(client, "TIMEOUT_SECONDS", 60)

    def start(takers: int, seek: dict) -> tuple[Api, dict, list[str], str]:
        api = Api(unlimited)
        seeker = api.new_player("Asha")
        tokens = [api.new_player(f"Taker {index}")["token"] for index in range(takers)]
        seek_id = api.call("POST", "/v1/seeks", seek, token=seeker["token"]).body["seek"]["id"]
        return api, seeker, tokens, seek_id

    start.api = lambda: Api(unlimited)  # type: ignore[attr-defined]  # the race's fresh client, on the fixture itself
    return start


@pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")
def test_thirty_accepts_of_one_seek_make_one_game(race):
    from games.repository import GameStore

    api, seeker, tokens, seek_id = race(30, {"game": "tanzanian", "rated": True})
    path = f"/v1/seeks/{seek_id}/accept"
    answers = at_once(race.api, [lambda a, t=t: a.call("POST", path, token=t) for t in tokens])
    assert sorted(answer.status for answer in answers) == [201] + [409] * 29, [(a.status, a.code) for a in answers]
    assert {answer.code for answer in answers if answer.status == 409} == {"seek_taken"}
    [winner] = [answer for answer in answers if answer.status == 201]
    game_id = winner.body["game"]["id"]
    assert game_id == seek_id  # the seek was the game, waiting for its players
    head, events = GameStore().load(game_id)
    assert [event["kind"] for event in events] == ["create", "accept_seek"] and known(head)["state"] == "active"
    polled = api.call("GET", f"/v1/seeks/{seek_id}", token=seeker["token"]).body["seek"]
    assert polled["game_id"] == game_id


@pytest.mark.skipif(sys.platform == "win32", reason="forks one process per simulated Lambda instance")
def test_a_withdrawal_racing_accepts_and_offers_racing_for_slots(race):
    api, seeker, tokens, seek_id = race(5, {"game": "chess", "rated": False})
    withdraw = [lambda a: a.call("DELETE", f"/v1/seeks/{seek_id}", token=seeker["token"])]
    accepts = [lambda a, t=t: a.call("POST", f"/v1/seeks/{seek_id}/accept", token=t) for t in tokens]
    answers = at_once(race.api, withdraw + accepts)
    codes = [(answer.status, answer.code) for answer in answers]
    assert sum(1 for status, _ in codes if status in (200, 201)) == 1, codes  # exactly one wins
    if answers[0].status == 200:  # withdrawn first: no game is made from it
        assert {code for _, code in codes[1:]} == {"seek_not_found"}, codes
        assert api.call("GET", f"/v1/games/{seek_id}").status == 404
    else:
        assert {code for status, code in codes if status != 201} == {"seek_taken"}, codes
    assert api.call("GET", "/v1/seeks", query={"game": "chess"}).body["seeks"] == []  # never listed once decided
    # Six offers of one player at once: three slots, three seeks; the others are refused.
    offers = [lambda a: a.call("POST", "/v1/seeks", {"game": "english", "rated": False}, token=tokens[0])] * 6
    made = at_once(race.api, offers)
    assert sorted((answer.status, answer.code) for answer in made) == [(201, None)] * 3 + [(409, "too_many_seeks")] * 3
    assert len(api.call("GET", "/v1/seeks", query={"game": "english"}).body["seeks"]) == 3
