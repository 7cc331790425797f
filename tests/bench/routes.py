"""Section ``routes``: the CPU time of the lobby's, the leaderboard's, a live poll's, a rated end's and the review's
requests in the games function, less moto's (moto serves DynamoDB in-process), beside a validate request in the
same run: the numbers docs/capacity.md turns into GB-seconds (tests/load/costs.py). Median of ``ROUNDS``."""

from __future__ import annotations

import contextlib
import functools
import io
import statistics
import time

from tests.bench.common import _LAMBDA_CONTEXT, _games_on_moto, _validate_event, heading

ROUNDS = 15


def _cpu(meter, call, statuses=(200, 201, 202, 304)) -> tuple[float, object]:
    """The CPU of ``call`` less moto's inside it, and its answer (which must have one of ``statuses``)."""
    with meter, contextlib.redirect_stdout(io.StringIO()):  # the function's EMF metric lines
        started = time.process_time()
        answer = call()
        spent = time.process_time() - started
    assert answer.status in statuses, (answer.status, answer.body)
    return spent - meter.cpu_seconds, answer


def bench_routes() -> None:
    from validate_move.handler import lambda_handler as validate_handler

    from tests.bench.replay import _handler_answer

    namespace: dict = {}
    exec(_LAMBDA_CONTEXT, namespace)
    context = namespace["Context"]()
    with _games_on_moto() as (api, meter):
        heading(f"routes: CPU per request in the function, less moto's (median of {ROUNDS}), beside validate")
        times: dict[str, list[float]] = {}

        def timed(label: str, call, statuses=(200, 201, 202, 304)):
            spent, answer = _cpu(meter, call, statuses)
            times.setdefault(label, []).append(spent)
            return answer

        event = _validate_event({"game": "chess", "move": "e4"})
        for _ in range(ROUNDS):
            timed(
                "POST /v1/validate (the reference)",
                functools.partial(_handler_answer, validate_handler, event, context),
            )
        for _ in range(ROUNDS):
            _lobby_round(api, timed)
            _game_round(api, timed)
        reference = statistics.median(times["POST /v1/validate (the reference)"])
        for label, spent in times.items():
            median = statistics.median(spent)
            print(f"{label:<46} {median * 1e3:7.2f} ms  {median / reference:5.1f}x validate")


def _lobby_round(api, timed) -> None:
    seeker, taker = api.new_player("Asha"), api.new_player("Baraka")
    me = {"token": seeker["token"]}
    made = timed("POST /v1/seeks", lambda: api.call("POST", "/v1/seeks", {"game": "chess", "rated": True}, **me))
    seek_id = made.body["seek"]["id"]
    timed("GET /v1/seeks (the list)", lambda: api.call("GET", "/v1/seeks", query={"game": "chess"}))
    read = timed("GET /v1/seeks/{id}", lambda: api.call("GET", f"/v1/seeks/{seek_id}", **me))
    etag = {"If-None-Match": read.headers["etag"]}
    timed("GET /v1/seeks/{id} (304)", lambda: api.call("GET", f"/v1/seeks/{seek_id}", headers=etag, **me))
    timed("POST /v1/seeks/{id}/accept", lambda: api.call("POST", f"/v1/seeks/{seek_id}/accept", token=taker["token"]))
    other = api.call("POST", "/v1/seeks", {"game": "english", "rated": False}, **me).body["seek"]["id"]
    timed("DELETE /v1/seeks/{id}", lambda: api.call("DELETE", f"/v1/seeks/{other}", **me))
    timed("GET /v1/players/me", lambda: api.call("GET", "/v1/players/me", **me))
    timed("GET /v1/leaderboard", lambda: api.call("GET", "/v1/leaderboard", query={"game": "chess"}))


def _game_round(api, timed) -> None:
    """A live table's poll that finds nothing new, a rated end by resignation, and the review asked and read."""
    white, black = api.new_player("Asha"), api.new_player("Baraka")
    created = api.create(white["token"], "tanzanian", "white", rated=True, options={"turn_seconds": 30}).body
    game_id = created["game"]["id"]
    api.join(black["token"], game_id, created["invite"]["code"])
    api.play(game_id, {"white": white["token"], "black": black["token"]}, ["c3-d4", "f6-e5"])
    path = f"/v1/games/{game_id}"
    fresh = api.call("GET", path, query={"moves_after": "2"}, token=white["token"])
    etag = {"If-None-Match": fresh.headers["etag"]}
    timed(
        "GET /v1/games/{id} (live poll, 304)", lambda: api.call("GET", path, query={"moves_after": "2"}, headers=etag)
    )
    timed("POST /v1/games/{id}/resign (rated end)", lambda: api.call("POST", f"{path}/resign", token=white["token"]))
    timed("POST /v1/games/{id}/review", lambda: api.call("POST", f"{path}/review", token=black["token"]))
    timed("GET /v1/games/{id}/review (pending)", lambda: api.call("GET", f"{path}/review"))
