"""A cup's knockout round deadline through the routes, on moto and dynalite: the group games resigned and
counted from the games' stream, the semi-finals made; past the round's deadline (ten days at one day a move)
the first read of the cup (or the 15-minute schedule's sweep of the public ones) ends each leg still going on as lost on time by the side to move, as the games'
own claim on time would (a rated leg begun: a timeout; one never begun: the absent White's no-show), counts
them, and makes the level match's live decider, with only the calls its role allows; a second read and the
stream's records of those games change nothing."""

from __future__ import annotations

import os

import pytest
from common.persistence import store

from tests.iam import DynamoCalls, denied, grants
from tests.tournaments.test_tournaments_api import feed_stream

NAMES = tuple(f"K{n}" for n in range(8))  # the strongest first: in a group game the weaker resigns


@pytest.mark.parametrize("by", ["read", "schedule"])
def test_legs_unfinished_at_the_rounds_deadline_are_lost_on_time_by_the_side_to_move(backend, apis, by):
    players = [apis.games.new_player(name) for name in NAMES]
    body = {"format": "cup", "game": "chess", "groups": 2, "players": 4, "options": {"days_per_move": 1}}
    body["public"] = by == "schedule"  # the schedule sweeps the listed (public) cups
    made = apis.call("POST", "/v1/tournaments", body, token=players[0]["token"]).body
    cup_id, code = made["tournament"]["id"], (made["invite"] or {}).get("code")
    for who in players:
        joined = apis.call(
            "POST", f"/v1/tournaments/{cup_id}/join", {"invite": code} if code else {}, token=who["token"]
        )
        assert joined.status == 200, joined.body
    view = apis.call("GET", f"/v1/tournaments/{cup_id}").body
    name_of = {row["seat"]: row["name"] for row in view["players"]}
    token_of = {seat: players[NAMES.index(name)]["token"] for seat, name in name_of.items()}
    for row in view["games"]:
        weaker = max(row["white"], row["black"], key=lambda seat: NAMES.index(name_of[seat]))
        assert apis.games.call("POST", f"/v1/games/{row['id']}/resign", token=token_of[weaker]).status == 200
    feed_stream([row["id"] for row in view["games"]])
    view = apis.call("GET", f"/v1/tournaments/{cup_id}").body
    first, second, final = view["bracket"]
    assert len(first["games"]) == 2 and len(second["games"]) == 2 and first["deadline"] is not None
    one, other = first["seats"]
    begun, never = first["games"]  # the first leg: two moves a side, White (one) to move; the second untouched
    state = apis.games.open_moves(begun, {"white": token_of[one], "black": token_of[other]})
    assert state["turn"] == "white"
    winner, loser = second["seats"]  # the other semi-final: 2-0 (the first leg White is the better placed)
    for leg, (white, black) in zip(second["games"], ((winner, loser), (loser, winner)), strict=True):
        apis.games.open_moves(leg, {"white": token_of[white], "black": token_of[black]})
        assert apis.games.call("POST", f"/v1/games/{leg}/resign", token=token_of[loser]).status == 200
    feed_stream(second["games"])

    apis.clock.advance(days=9)  # the deadline not reached: nothing ends
    assert apis.call("GET", f"/v1/tournaments/{cup_id}").body["bracket"][0]["score"] == "-"
    apis.clock.advance(days=1, seconds=1)
    names = {os.environ[f"{kind}_TABLE"]: f"{kind.title()}Table" for kind in ("GAMES", "RATINGS", "TOURNAMENTS")}
    with DynamoCalls(store.client(), names) as recorded:  # moto and dynalite check no IAM: the role must allow it
        if by == "schedule":
            from tournaments.schedule import create_handler

            assert create_handler(clock=apis.clock)({}, None)["deadlines"] == 1
        view = apis.call("GET", f"/v1/tournaments/{cup_id}").body
    assert {table for _, table, _ in recorded.calls} >= {"GamesTable", "RatingsTable", "TournamentsTable"}
    role = "TournamentScheduleFunction" if by == "schedule" else "TournamentsFunction"
    assert denied(recorded.calls, grants("TournamentsFunction") & grants(role)) == set(), recorded.calls
    first, second, final = view["bracket"]
    assert (first["score"], first["winner"], len(first["games"])) == ("1-1", None, 3)  # each leg lost by its White
    assert (second["score"], second["winner"]) == ("2-0", winner)
    assert final["seats"] == [None, winner] and final["deadline"] is None
    timed_out = apis.games.get(begun).body
    assert timed_out["status"]["reason"] == "timeout" and timed_out["status"]["result"] == "black", timed_out
    assert timed_out["rating_change"] is not None  # a rated leg: its rating change, as any time loss
    assert apis.games.get(never).body["status"]["reason"] == "no_show"
    decider = apis.games.get(first["games"][2]).body
    assert decider["options"]["turn_seconds"] == 60  # the live decider, which has no deadline
    again = apis.call("GET", f"/v1/tournaments/{cup_id}").body
    feed_stream([begun, never])  # the stream's records of the ended legs: counted already
    assert apis.call("GET", f"/v1/tournaments/{cup_id}").body == again == view
