"""Section ``length``: a request at ply 10 and at ply 3,000, and the export at the longest game."""

from __future__ import annotations

import contextlib
import functools
import io
import statistics

from tests.bench.common import _LAMBDA_CONTEXT, _function, _moto_environment, _rounds, _validate_event, heading
from tests.bench.replay import _answer_of, _cpu_of, _games_event, _Replay, _StoreMeter


def bench_game_length() -> None:
    """A move, a GET of the game and a validate request of the same move in the same position, at ply 10 and
    ply 3,000 of a chess and a draughts game: CPU time and DynamoDB calls per request, side by side.

    CPU time rather than wall time (the machine is shared), less DynamoDB's part. Each request is first made
    on another instance of the function against moto, whose answers are recorded (``_Replay``); the timed
    request then gets the same answers from botocore's ``before-send`` hook, so it runs all of botocore's own
    work and no moto code (a micro-benchmark showed moto's work slowing botocore's own by about 0.15 ms a
    call; the ratios below came out about the same either way). The window from ``before-call`` to ``after-call`` (signing, the send, parsing: on AWS, the network)
    is left out, as round one's 53x left out moto's. The requests take turns, round after round, and each cell
    is the median of its rounds, so a load that comes and goes weighs on all of them alike."""
    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from games import handler
        from games.domain import forget_positions, rules_options
        from games.repository import GameStore
        from validate_move.handler import lambda_handler as validate_handler

        from local.dynamodb import create_tables, table_definitions
        from local.events import LambdaContext
        from tests.games import client
        from tests.games.client import Api
        from tests.games.long_game import long_game, write_records

        client.TIMEOUT_SECONDS = 900  # moto's Query of a 3,000-event partition is slow on a shared machine
        store.reset_clients(session=True)
        create_tables(table_definitions())
        api, recorder = Api(_function(handler)), Api(_function(handler))  # two instances
        meter, replay = _StoreMeter(store), _Replay(store.client())
        namespace: dict = {}
        exec(_LAMBDA_CONTEXT, namespace)
        context = namespace["Context"]()
        games_context = LambdaContext(function_name="GamesFunction", timeout_seconds=client.TIMEOUT_SECONDS)
        tokens = {"white": api.new_player()["token"], "black": api.new_player()["token"]}
        heading("games: a request at ply 10 and at ply 3,000 (CPU time less DynamoDB's, median of rounds)")
        print(
            f"{'game':<10}{'ply':>6}{'move':>20}{'move, kept':>20}{'GET game':>20}{'validate':>10}"
            f"{'move/val':>10}{'kept/val':>9}{'GET/val':>9}"
        )
        for game in ("chess", "tanzanian"):
            for plies in (10, 3_000):
                head, records = long_game("benchgame000", tokens, plies, game=game)
                position = head.position()
                move = position.notation(position.legal_moves()[0])
                body = {"game": game, "fen": head.snapshot.fen, "move": move, "options": rules_options(head.options)}
                validate_event = _validate_event(body)
                cells: dict[str, list[float]] = {"move": [], "kept": [], "get": [], "validate": []}
                calls: dict[str, tuple[int, int]] = {}
                for round_ in range(_rounds(9 if plies < 1_000 else 5)):
                    # "move": on an instance that has not seen the game (it reads the head); "kept": after this
                    # instance's GET of the game, as a page's move follows its GET (``games.service.protocol.RecentHeads``).
                    cold, kept = (f"{prefix}{game[:4]}{plies:04d}{round_:03d}" for prefix in "bk")
                    for game_id in (cold, kept):
                        write_records(GameStore(), game_id, head, records)
                    # Each request is the function's own work on an event built beforehand, as for validate.
                    move_event = functools.partial(
                        _games_event, "POST", tail="/moves", body={"move": move, "ply": plies}, token=tokens[head.turn]
                    )
                    events = {"move": move_event(cold), "get": _games_event("GET", kept), "kept": move_event(kept)}
                    with contextlib.redirect_stdout(io.StringIO()):  # the functions' EMF metric lines
                        answers = {
                            name: replay.record(functools.partial(recorder.app.lambda_handler, event, games_context))
                            for name, event in events.items()
                        }
                    requests = {"validate": functools.partial(validate_handler, validate_event, context)}
                    requests.update(
                        (
                            name,
                            functools.partial(
                                replay.replay, answers[name], api.app.lambda_handler, event, games_context
                            ),
                        )
                        for name, event in events.items()
                    )
                    for name, request in requests.items():
                        if name in ("validate", "get"):
                            forget_positions()  # no warm position: another instance served the last request
                        with contextlib.redirect_stdout(io.StringIO()):
                            cells[name].append(_cpu_of(meter, functools.partial(_answer_of, request)))
                        calls[name] = (meter.reads, meter.writes)
                median = {name: statistics.median(values) for name, values in cells.items()}
                print(
                    f"{game:<10}{plies:>6}"
                    + "".join(
                        f"{median[name] * 1e3:7.2f}ms {calls[name][0]}r {calls[name][1]}w{'':>4}"
                        for name in ("move", "kept", "get")
                    )
                    + f"{median['validate'] * 1e3:7.2f}ms"
                    + "".join(f"{median[name] / median['validate']:8.1f}x " for name in ("move", "kept", "get"))
                )
        print("r/w: DynamoDB reads and writes of the request (validate makes none). A move reads the head only, and")
        print("not even that on an instance that kept the game's head from its last read or write ('kept'); a GET")
        print(f"reads the head and the latest {_moves_page()} moves at most (older moves: GET .../moves?before=, one")
        print("Query a page). DynamoDB's answers are replayed from moto's (see the docstring). Target: a move within")
        print("2x of validate, the same at both plies.")
        _bench_export(api, meter, tokens)
    store.reset_clients()


def _bench_export(api, meter, tokens) -> None:
    """The PGN/PDN export stays whole: its cost at the longest game (1,000 plies) beside a 10-ply game."""
    from games.repository import GameStore

    from tests.games.long_game import long_game, write_records

    for plies in (10, 1_000):
        head, records = long_game("benchexport0", tokens, plies, game="chess")
        write_records(GameStore(), f"bexport{plies:05d}", head, records)
        path = f"/v1/games/bexport{plies:05d}/export"
        cpu = statistics.median(_cpu_of(meter, lambda path=path: api.call("GET", path)) for _ in range(3))
        print(f"export (PGN), chess, ply {plies:>5}: {cpu * 1e3:7.2f}ms CPU, {meter.reads} read(s)")


def _moves_page() -> int:
    from games.views.pages import MOVES_PAGE

    return MOVES_PAGE
