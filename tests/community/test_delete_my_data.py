"""Delete my data (DELETE /v1/players/me) on moto and dynalite: Asha's name, follows (hers and those of her),
card, challenges, clubs (hers closed, those she joined left), ratings and rate-limit buckets go, her token
stops working and her profile answers 404; her finished and running games keep their moves with her seat as
"a former player" (the running one resigned), and no table keeps her id, name or token hash any more. A second
delete answers the same."""

from __future__ import annotations

import hashlib
import os

from tests.community.test_challenges import CHALLENGES, challenge, friends
from tests.community.test_follows_api import FOLLOWS, Community
from tests.fixtures import Function, on_clock
from tests.games.client import Answer, Api, invoke

ME = "/v1/players/me"


def tables_mention(*needles: str) -> list[tuple[str, dict]]:
    """Every item of the test's tables (each function's ``*_TABLE``: every table of the template, under the
    test's names, on a dynalite server other tests share) whose text holds one of ``needles``."""
    from common.persistence import store

    client = store.client()
    found = []
    for table in sorted({value for name, value in os.environ.items() if name.endswith("_TABLE")}):
        for item in client.scan(TableName=table)["Items"]:
            text = repr(item)
            if any(needle in text for needle in needles):
                found.append((table, item))
    return found


def run_delete(api: Api, community: Community, clock) -> None:
    from clubs import handler as clubs_module

    asha, baraka = friends(api, community, "Wanjiru", "Baraka")  # a name no other test gives: dynalite is shared
    clubs = Function(clubs_module, on_clock(clock)).create_app()
    made = invoke(
        clubs, "ClubsFunction", "POST", "/v1/clubs", body={"name": "Simba", "game": "all"}, token=asha["token"]
    )
    assert made.status == 201, made.body
    club_id, code = made.body["invite"].split("-")
    joined = invoke(
        clubs, "ClubsFunction", "POST", f"/v1/clubs/{club_id}/join", body={"code": code}, token=baraka["token"]
    )
    assert joined.status == 201
    finished = api.create(asha["token"], "chess", "white", rated=True).body
    finished_id = finished["game"]["id"]
    assert api.join(baraka["token"], finished_id, finished["invite"]["code"]).status == 200
    seats = {"white": asha["token"], "black": baraka["token"]}
    api.play(finished_id, seats, ["f3", "e5", "g4", "Qh4#"])
    running = api.create(baraka["token"], "english", "white").body
    running_id = running["game"]["id"]
    assert api.join(asha["token"], running_id, running["invite"]["code"]).status == 200
    assert challenge(community, asha, baraka).status == 201
    seek = api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": False}, token=asha["token"])
    assert seek.status == 201, seek.body
    token_hash = hashlib.sha256(asha["token"].encode()).hexdigest()
    needles = (asha["player_id"], "'Wanjiru'", token_hash, repr(bytes.fromhex(token_hash))[2:-1])
    before = {table for table, _item in tables_mention(*needles)}
    assert {"PlayersTable", "GamesTable", "CommunityTable", "RatingsTable", "ClubsTable"} <= {
        table.split("_")[0] for table in before
    }

    gone = community.call("DELETE", ME, token=asha["token"])
    assert gone.status == 200 and gone.body == {"deleted": True}
    again = community.call("DELETE", ME, token=asha["token"])
    assert again.status == 200 and again.body == gone.body  # idempotent: the same answer
    assert community.call("GET", FOLLOWS, token=asha["token"]).status == 401  # the token stops working
    assert api.call("GET", f"/v1/players/{asha['player_id']}").status == 404  # no profile
    assert community.follows(baraka["token"])["follows"] == []
    assert community.call("GET", CHALLENGES, token=baraka["token"]).body == {"received": [], "sent": []}
    assert invoke(clubs, "ClubsFunction", "GET", f"/v1/clubs/{club_id}", token=baraka["token"]).status == 404
    for game_id, her_seat in ((finished_id, "white"), (running_id, "black")):
        state = api.get(game_id).body
        assert state["state"] == "finished" and state["players"][her_seat]["former"] is True
        assert state["players"][her_seat]["name"] is None
    assert api.all_moves(finished_id) == ["f3", "e5", "g4", "Qh4#"]  # the moves stay
    assert api.get(running_id).body["status"]["reason"] == "resignation"
    assert api.call("GET", "/v1/seeks", query={"game": "tanzanian"}).body["seeks"] == []  # withdrawn
    # Nothing of hers is left anywhere: not her id, her name, her token's hash (as text or as the seats' bytes).
    assert tables_mention(*needles) == []


def test_delete_my_data_on_moto(api, community, clock):
    run_delete(api, Community(community), clock)


def test_delete_my_data_on_dynalite(dynalite_tables, handler, community, clock):
    run_delete(Api(handler), Community(community), clock)


def test_a_delete_without_a_token_is_refused(api, community):
    assert Community(community).call("DELETE", ME).status == 401


class StoreTime:
    """The deadline's clock (``common.persistence.deadline``'s ``time.monotonic``), moved on a little at each
    read, as a request's store calls spend its time: a delete with many games then runs out of it."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def test_a_delete_cut_short_by_its_deadline_answers_503_and_finishes_when_sent_again(
    api, community, clock, monkeypatch
):
    """A player of many games: one request cannot rewrite them all in the function's time. It answers 503 with
    Retry-After (JSON, inside the time), keeps the player's token working, and each new send goes on from where
    the last stopped, until the 200."""
    from common.persistence import deadline

    asha, baraka = api.new_player("Wambui"), api.new_player("Baraka")
    games = []
    for _ in range(24):  # games still going: each is resigned, then her seat forgotten
        created = api.create(asha["token"], "english", "white").body
        assert api.join(baraka["token"], created["game"]["id"], created["invite"]["code"]).status == 200
        games.append(created["game"]["id"])
        clock.advance(60)  # the games' creation limit refills
    monkeypatch.setattr(deadline, "time", StoreTime(step=0.05))  # about 160 store calls fit in a request
    community = Community(community)
    answers: list[Answer] = []
    while not answers or answers[-1].status == 503:
        assert len(answers) < 10, [answer.body for answer in answers]
        answers.append(community.call("DELETE", ME, token=asha["token"]))
    first = answers[0]
    assert first.status == 503 and first.code == "store_unavailable" and first.headers["retry-after"] == "1"
    assert answers[-1].status == 200 and answers[-1].body == {"deleted": True} and len(answers) >= 3
    formers = [api.get(game_id).body["players"]["white"]["former"] for game_id in games]
    assert formers == [True] * len(games)
    assert community.call("GET", FOLLOWS, token=asha["token"]).status == 401  # the token goes last
