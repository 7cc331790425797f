"""Section ``ratings``: what a rated game's end costs beside a casual one's (DynamoDB calls, on moto), and the
leaderboard's one Query."""

from __future__ import annotations

import contextlib
import io

from tests.bench.common import _games_on_moto, heading

#: The target: a rated end writes at most this many items more than a casual one.
MORE_WRITES_TARGET = 3


def bench_ratings() -> None:
    with _games_on_moto() as (api, meter):
        heading("ratings: DynamoDB calls of a game's end, rated beside casual (moto)")
        costs: dict[tuple[str, bool], tuple[int, int]] = {}
        quiet = contextlib.redirect_stdout(io.StringIO())  # the function's EMF metric lines
        for how in ("resignation", "checkmate", "agreement"):
            for rated in (False, True):
                with quiet:
                    game_id, tokens = _started(api, rated)
                    if how == "checkmate":
                        api.play(game_id, tokens, ["f3", "e5", "g4"])
                    elif how == "agreement":
                        api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=tokens["white"])
                    with meter:
                        answer = _end(api, game_id, tokens, how)
                assert answer.status == 200 and answer.body["state"] == "finished", answer.body
                costs[(how, rated)] = (meter.reads, meter.writes)
            (casual_reads, casual_writes), (rated_reads, rated_writes) = costs[(how, False)], costs[(how, True)]
            print(
                f"end by {how:<12} casual: {casual_reads} read(s), {casual_writes} write(s); rated: {rated_reads} "
                f"read(s), {rated_writes} write(s): {rated_writes - casual_writes} more write(s) "
                f"(target: at most {MORE_WRITES_TARGET})"
            )
        with meter:
            api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=tokens["black"])
        print(f"a retried rated end: {meter.reads} read(s), {meter.writes} write(s) (the change is applied already)")
        with meter:
            board = api.call("GET", "/v1/leaderboard", query={"game": "chess"})
        assert board.status == 200
        queries = [name for name, _ in meter.calls]
        print(f"GET /v1/leaderboard: {queries} (target: one Query, never a Scan)")
        with meter:
            board = api.call("GET", "/v1/leaderboard", query={"game": "chess", "country": "TZ"})
        assert board.status == 200
        print(f"GET /v1/leaderboard?country=TZ: {[name for name, _ in meter.calls]} (target: one Query)")
        with meter:
            hidden = api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=tokens["white"])
        assert hidden.status == 200
        calls = [name for name, _ in meter.calls]
        print(
            f"hide your country (one rating item, not listed): {calls} (the token's read, the player, the card, then its copies)"
        )


def _started(api, rated: bool) -> tuple[str, dict]:
    white, black = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(white["token"], "chess", "white", rated=rated).body
    api.join(black["token"], created["game"]["id"], created["invite"]["code"])
    return created["game"]["id"], {"white": white["token"], "black": black["token"]}


def _end(api, game_id: str, tokens: dict, how: str):
    if how == "resignation":
        return api.call("POST", f"/v1/games/{game_id}/resign", token=tokens["white"])
    if how == "checkmate":
        return api.move(tokens["black"], game_id, "Qh4#", 3)
    return api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=tokens["black"])
