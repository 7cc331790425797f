"""A live table starts when both players have opened it (issue 39, fair play): each player's page says so with
``POST /v1/games/{id}/open``; the first turn's clock runs from the second of them, and a table one of them never
opens is aborted (``no_show``, never rated), lost in a tournament by the side that never came. On moto and on
dynalite, with only the clock faked."""

from __future__ import annotations

import pytest
from games.domain import Aborted, Created, GameHead, Joined, Moved, Opened, Seat, apply_all, live
from tournaments.seated import result_of

from tests.games.client import Api, snapshot
from tests.games.test_live_tables import events_of


@pytest.fixture
def api(backend, handler):
    return Api(handler)


def open_table(api, game_id: str, token: str | None):
    return api.call("POST", f"/v1/games/{game_id}/open", token=token)


def live_table(api, rated: bool = False):
    options = {"turn_seconds": 30}
    if not rated:
        return api.start_game("tanzanian", options=options)
    creator, friend = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(creator["token"], "tanzanian", "white", options=options, rated=True)
    assert created.status == 201, created.body
    game_id = created.body["game"]["id"]
    assert api.join(friend["token"], game_id, created.body["invite"]["code"]).status == 200
    return game_id, {"white": creator["token"], "black": friend["token"]}


def test_the_first_turn_s_clock_starts_when_the_second_player_opens_the_table(api, clock):
    game_id, seats = live_table(api)
    state = api.get(game_id).body
    assert state["unopened"] == ["black", "white"] and state["turn_ms_left"] == 30_000
    clock.advance(seconds=20)
    first = open_table(api, game_id, seats["white"])
    assert first.status == 200 and first.body["unopened"] == ["black"]
    assert first.body["turn_ms_left"] == 10_000  # one seat open: the table still waits, on the same clock
    before = snapshot()
    assert open_table(api, game_id, seats["white"]).status == 200  # a retry (another tab, the socket's page)
    assert snapshot() == before  # writes nothing
    clock.advance(seconds=9)
    second = open_table(api, game_id, seats["black"]).body
    assert second["unopened"] == [] and second["state"] == "active"
    assert second["turn_ms_left"] == 30_000  # White's first turn counts from Baraka's arrival
    assert [event["kind"] for event in events_of(game_id)][-2:] == ["open", "open"]
    clock.advance(seconds=25)
    assert api.get(game_id).body["state"] == "active"  # 54 s after the join, the turn still holds
    assert api.move(seats["white"], game_id, "c3-d4", 0).status == 200


def test_a_table_nobody_opens_is_aborted_when_its_wait_runs_out(api, clock):
    game_id, seats = live_table(api)
    clock.advance(seconds=31)
    state = api.get(game_id).body  # any read settles it (a watcher's, the reminder sweep's)
    assert state["state"] == "finished" and state["status"] == {"result": "aborted", "reason": "no_show"}
    assert state["rating_change"] is None and state["cpu_takeover"] is None  # the computer played for no one
    abort = events_of(game_id)[-1]
    assert abort["kind"] == "abort" and abort.get("by") is None  # neither came: void in a tournament
    assert open_table(api, game_id, seats["black"]).status == 200  # too late: nothing to write
    assert api.get(game_id).body["status"]["result"] == "aborted"


def test_a_rated_table_one_player_never_opens_is_aborted_not_rated(api, clock):
    game_id, seats = live_table(api, rated=True)
    assert open_table(api, game_id, seats["white"]).status == 200
    assert api.move(seats["white"], game_id, "c3-d4", 0).status == 200  # Asha plays; Baraka never comes
    clock.advance(seconds=31)
    claimed = api.call("POST", f"/v1/games/{game_id}/cpu-takeover", token=seats["white"])
    assert claimed.status == 200, claimed.body
    assert claimed.body["status"] == {"result": "aborted", "reason": "no_show"}
    assert claimed.body["rating_change"] is None
    assert events_of(game_id)[-1]["by"] == "white"  # the side that came


def test_a_move_opens_the_table_for_its_player(api, clock):
    game_id, seats = live_table(api)
    assert api.move(seats["white"], game_id, "c3-d4", 0).body["unopened"] == ["black"]
    clock.advance(seconds=20)
    opened = open_table(api, game_id, seats["black"]).body
    assert opened["unopened"] == [] and opened["turn_ms_left"] == 30_000


def test_open_is_for_the_table_s_players_and_writes_nothing_elsewhere(api, clock):
    game_id, seats = live_table(api)
    stranger = api.new_player("Chausiku")["token"]
    assert open_table(api, game_id, None).status == 401
    refused = open_table(api, game_id, stranger)
    assert refused.status == 403 and refused.code
    assert open_table(api, "nosuchgame12", seats["white"]).status == 404
    postal, postal_seats = api.start_game("tanzanian")  # by correspondence: no table to open
    before = snapshot()
    answer = open_table(api, postal, postal_seats["white"])
    assert answer.status == 200 and answer.body["unopened"] == []
    assert snapshot() == before


SEATS = {"white": Seat("asha", b"a" * 32, "Asha"), "black": Seat("baraka", b"b" * 32, "Baraka")}


def table(*later, options=None) -> GameHead:
    """A chess table Asha made at 0 and Baraka joined at 1 s, then ``later`` events (from seq 3)."""
    options = options or {"turn_seconds": 30}
    created = Created(seq=1, at=0, game_id="g1", game="chess", options=options, white=SEATS["white"])
    return apply_all(None, [created, Joined(seq=2, at=1000, by="black", seat=SEATS["black"]), *later])


def test_the_fold_waits_for_both_seats_and_restarts_the_clock_at_the_second():
    head = table()
    assert head.unopened == {"white", "black"} and head.deadline == 31_000
    head = table(Opened(seq=3, at=5_000, by="black"))
    assert head.unopened == {"white"} and head.deadline == 31_000
    head = table(Opened(seq=3, at=5_000, by="black"), Opened(seq=4, at=20_000, by="white"))
    assert head.unopened == frozenset() and head.deadline == 50_000
    assert live.opened(head, "white") is None  # already there: nothing to write
    postal = table(options={"days_per_move": 3})
    assert postal.unopened == frozenset() and live.opened(postal, "white") is None


def test_a_move_marks_its_player_as_come():
    head = table(Moved(seq=3, at=2_000, by="white", move="e4", ply=1, fen=""))
    assert head.unopened == {"black"}


@pytest.mark.parametrize(
    ("opened", "by", "winner", "void"),
    [((), None, None, True), (("white",), "white", "white", False), (("black",), "black", "black", False)],
)
def test_a_table_never_opened_is_scored_in_a_tournament_against_the_side_that_never_came(opened, by, winner, void):
    events = [Opened(seq=3 + index, at=2_000, by=color) for index, color in enumerate(opened)]
    abort = live.timeout_event(table(*events), 40_000, lambda _head, _color: 1)
    assert isinstance(abort, Aborted) and (abort.by, abort.reason) == (by, "no_show")
    abort = Aborted(seq=3 + len(events), at=40_000, by=abort.by, reason="no_show")
    finished = table(*events, abort)
    assert finished.aborted and finished.unopened == frozenset() and finished.rating_change is None
    result = result_of(finished, [*events, abort])
    assert (result.winner, result.void) == (winner, void)
