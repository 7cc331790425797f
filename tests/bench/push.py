"""`make bench` section "push": what one reminder sweep costs per due game, and what one push costs; and
what push notifications must leave unchanged: the move request's DynamoDB calls, the games and validate cold starts.

The sweep runs on moto over 200 active games whose heads carry the reminder attributes, with 0, 10 and 50
of them due: the DynamoDB calls and the time grow with the due games, not with the 200. One push is
pywebpush's encryption and VAPID signature plus a POST to the local push service (which also verifies and
decrypts), as the notify function sends it.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import tempfile
import time

GAMES = 200
DUE = (0, 10, 50)


def _heads(now_ms: int, due: int) -> list[dict]:
    from notify.service.reminders import HOUR_MS

    heads = []
    for number in range(GAMES):
        # The first ``due`` games are due a minute ago; the others in 1 to 20 hours.
        reminder = now_ms - 60_000 if number < due else now_ms + (1 + number % 20) * HOUR_MS
        deadline = reminder + 24 * HOUR_MS
        heads.append(
            {
                "id": f"bench{due:03d}g{number:04d}",
                "game": "chess",
                "options": {"days_per_move": 3, "swap_colors": True},
                "seq": 3,
                "ply": 2,
                "state": "active",
                "turn": "white",
                "result": "ongoing",
                "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "created": now_ms - HOUR_MS,
                "updated": now_ms - HOUR_MS,
                "white_id": f"w{number}",
                "black_id": f"b{number}",
                "white_name": "Asha",
                "black_name": "Baraka",
                "deadline": deadline,
                "reminder_due": reminder,
                "reminder_hour": reminder // HOUR_MS,
            }
        )
    return heads


def bench_push() -> None:
    from moto import mock_aws

    from tests.bench.common import _moto_environment, heading

    heading("push: a reminder sweep per due game; one push")
    _moto_environment()
    os.environ.update(PUSH_LOCAL_MODE="1", VAPID_KEY_FILE=os.path.join(tempfile.mkdtemp(), "vapid.json"))
    with mock_aws():
        from common.persistence import store
        from games.repository import GameStore
        from notify.repository.games import StoredDueGames
        from notify.repository.sender import WebPushSender
        from notify.service.notifier import Notifier
        from notify.service.reminders import Reminders
        from push.repository import DynamoReminderMarks, DynamoSubscriptions
        from push.vapid import vapid_key

        from local.dynamodb import create_tables, table_definitions

        store.reset_clients()
        create_tables(table_definitions())
        calls: list[str] = []
        store.client().meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
        notifier = Notifier(DynamoSubscriptions(), WebPushSender(vapid_key().signer(), "mailto:bench@ubao.invalid"))
        reminders = Reminders(StoredDueGames(), DynamoReminderMarks(), notifier)
        now_ms = int(time.time() * 1000)
        rows = []
        for due in DUE:
            for head in _heads(now_ms, due):
                GameStore().save_head(head)
            calls.clear()
            started = time.perf_counter()
            report = reminders.sweep(now_ms)
            rows.append((due, report.due, len(calls), time.perf_counter() - started))
            for head in _heads(now_ms, due):  # out of the index again for the next round
                store.client().delete_item(TableName="GamesTable", Key={"pk": {"S": head["id"]}, "sk": {"S": "H"}})
        print(f"{GAMES} active games with a reminder coming; the players have no subscriptions (no pushes)")
        print(f"{'due':>5}{'found':>7}{'DynamoDB calls':>16}{'sweep':>10}")
        for due, found, count, seconds in rows:
            print(f"{due:>5}{found:>7}{count:>16}{seconds * 1e3:>8.1f}ms")
        (_, _, base_calls, base_time), (_, _, top_calls, top_time) = rows[0], rows[-1]
        span = DUE[-1] - DUE[0]
        print(
            f"per due game: {(top_calls - base_calls) / span:.1f} calls, {(top_time - base_time) / span * 1e3:.2f} ms "
            f"on moto; per sweep whatever the games: {base_calls} calls"
        )
        store.reset_clients()
    _bench_one_push()
    bench_push_neighbours()


def _bench_one_push() -> None:
    from notify.repository.sender import Push, WebPushSender
    from push.domain import Subscription
    from push.vapid import vapid_key

    from local.push_service import PushService

    sender = WebPushSender(vapid_key().signer(), "mailto:bench@ubao.invalid")
    payload = {"kind": "your_move", "game": "x" * 12, "url": "/sw/mchezo/?id=x", "title": "Ni zamu yako",
               "body": "Asha amecheza e4 katika Chesi.", "tag": "game:x"}  # fmt: skip
    with PushService() as service:
        browser = service.subscribe()
        info = browser.info()
        subscription = Subscription(
            browser.endpoint, info["keys"]["p256dh"], info["keys"]["auth"], "sw", ("your_move",), 0
        )
        sender.send(subscription, Push(payload, 60, "normal"))  # imports pywebpush, opens the connection
        times = []
        for _ in range(30):
            started = time.perf_counter()
            assert sender.send(subscription, Push(payload, 60, "normal")) == "sent"
            times.append(time.perf_counter() - started)
    print(f"one push (encrypt, sign, POST to the local push service, which verifies and decrypts): "
          f"median {statistics.median(times) * 1e3:.1f} ms of 30")  # fmt: skip


def bench_push_neighbours() -> None:
    """What the reminders must leave as they were: the move request's DynamoDB calls (the reminder attributes ride in
    the head write it already made) and the cold starts of the games and validate functions (they import
    nothing of Web Push), beside the same floor as the serverless section and a games handler that did
    import pywebpush (what it would have cost)."""
    from moto import mock_aws

    from tests.bench.common import _moto_environment, heading

    heading("push: the move request's DynamoDB calls (moto), with the reminder attributes on the head")
    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from games import handler

        from local.dynamodb import create_tables, table_definitions
        from tests.games.client import Api

        store.reset_clients(session=True)
        create_tables(table_definitions())
        api = Api(handler)
        with contextlib.redirect_stdout(io.StringIO()):
            game_id, seats = api.start_game("chess")
        calls: list[str] = []
        store.client().meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
        for ply, move in enumerate(("e4", "e5", "Nf3")):
            calls.clear()
            with contextlib.redirect_stdout(io.StringIO()):  # the metrics' EMF lines
                answer = api.move(seats["white" if ply % 2 == 0 else "black"], game_id, move, ply)
            assert answer.status == 200, answer.body
            print(f"move {move:<4} {len(calls)} calls: {', '.join(calls)}")
        head = store.client().get_item(TableName="GamesTable", Key={"pk": {"S": game_id}, "sk": {"S": "H"}})["Item"]
        print(
            f"the head after them carries reminder_due and reminder_hour: {'reminder_due' in head and 'reminder_hour' in head}"
            " (written in the head's own PutItem; target: 1 read and 2 conditional writes, as without reminders)"
        )
        store.reset_clients(session=True)
    _bench_cold_starts()


def _bench_cold_starts() -> None:
    from pathlib import Path

    from local.template import Template
    from tests.bench.common import _LAMBDA_CONTEXT, _interleaved_process_medians, _lambda_env, _validate_event, heading

    template = Template()
    validate, games = template.functions["ValidateMoveFunction"], template.functions["GamesFunction"]
    floor = "import chess, pydantic; from aws_lambda_powertools.event_handler import APIGatewayHttpResolver"
    push_modules = (
        "import sys; assert not [m for m in sys.modules if m.split('.')[0] in "
        "('pywebpush', 'py_vapid', 'http_ece', 'notify')], 'a Web Push module was imported'\n"
    )
    programs = {
        "floor": floor,
        "validate": (
            f"from {validate.module} import {validate.attribute}\n"
            + _LAMBDA_CONTEXT
            + f"event = {_validate_event({'game': 'chess', 'move': 'e4'})!r}\n"
            + f"assert {validate.attribute}(event, Context())['statusCode'] == 200\n"
            + push_modules
        ),
        "games": f"from {games.module} import {games.attribute}\nimport common.persistence.reminder_schedule\n"
        + push_modules,
        "games+pywebpush": f"from {games.module} import {games.attribute}\nimport pywebpush\n",
    }
    heading("push: cold start of the validate and games functions (fresh process, CPU time, median of 7)")
    with tempfile.TemporaryDirectory() as layer_root:
        for layer in validate.layer_dirs:
            (Path(layer_root) / layer.name).symlink_to(layer, target_is_directory=True)
        medians = _interleaved_process_medians(programs, _lambda_env(games, Path(layer_root)), games.code_dir, runs=7)
    base = medians["floor"]
    print("each process asserts that no module of pywebpush, py_vapid, http_ece or notify was imported")
    print(f"floor: import chess, pydantic, APIGatewayHttpResolver   {base * 1e3:6.0f} ms")
    for name, label in (
        ("validate", "validate handler: import, answer one request"),
        ("games", "games handler: import (with the reminder schedule)"),
        ("games+pywebpush", "the same if it imported pywebpush (not done)"),
    ):
        print(f"{label:<54}{medians[name] * 1e3:6.0f} ms  {medians[name] / base:.2f}x the floor")
