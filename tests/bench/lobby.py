"""Section ``lobby``: the DynamoDB calls of the lobby's requests on moto (accepting a seek beside creating a
game, its reference: both start a game and check a token). A count, not a time."""

from __future__ import annotations

from tests.bench.common import _games_on_moto, heading


def bench_lobby() -> None:
    with _games_on_moto() as (api, meter):
        heading("lobby: DynamoDB calls per request (moto, per-client limits apart)")
        seeker, taker = api.new_player("Asha"), api.new_player("Baraka")
        rows = []
        with meter:
            api.create(seeker["token"], "tanzanian")
        rows.append(("create a game (the reference)", meter.calls))
        with meter:
            made = api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": True}, token=seeker["token"])
        rows.append(("offer a seek", meter.calls))
        seek_id = made.body["seek"]["id"]
        with meter:
            api.call("GET", "/v1/seeks", query={"game": "tanzanian"})
        rows.append(("list the open seeks", meter.calls))
        with meter:
            accepted = api.call("POST", f"/v1/seeks/{seek_id}/accept", token=taker["token"])
        assert accepted.status == 201, accepted.body
        rows.append(("accept a seek", meter.calls))
        with meter:
            refused = api.call("POST", f"/v1/seeks/{seek_id}/accept", token=seeker["token"])
        assert refused.status == 409, refused.body
        rows.append(("accept a taken seek (409)", meter.calls))
        ranged = api.call(
            "POST", "/v1/seeks", {"game": "chess", "rated": True, "rating_range": [1400, 1600]}, token=seeker["token"]
        )
        with meter:
            accepted = api.call("POST", f"/v1/seeks/{ranged.body['seek']['id']}/accept", token=taker["token"])
        assert accepted.status == 201, accepted.body
        rows.append(("accept a seek with a range", meter.calls))
        for label, calls in rows:
            names = ", ".join(name for name, _ in calls)
            print(f"{label:<32} {len(calls)} call(s): {names}")
        accept_calls = len(rows[3][1])
        print(
            f"accepting: {accept_calls} calls (the issue's target: at most 3; the seek is a waiting game: the taker "
            f"and its head in one read, the joining event and the new head), {accept_calls - len(rows[0][1])} "
            f"beside creating a game; with a range: {len(rows[5][1])} (the taker's rating, known only after that read)"
        )
