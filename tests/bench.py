"""``make bench``: every speed claim, measured side by side with its reference in the same run.

Each section prints its numbers and the ratio that the issue's target is about. Nothing here is a
test: timings on a shared machine vary, ratios measured in one run are what we compare.
Run one section: ``python -m tests.bench rules`` (names: see SECTIONS).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "functions"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))


def best_of(function, repeat: int = 5, number: int = 1) -> float:
    """The fastest of ``repeat`` timings of ``number`` calls, per call, in seconds."""
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(number):
            function()
        timings.append((time.perf_counter() - started) / number)
    return min(timings)


def median_process_time(code: str, runs: int = 7) -> float:
    """Median wall time of a fresh ``python -c code`` (cold imports), in seconds."""
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def heading(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 70 - len(title)))


# ------------------------------------------------------------------ the rules layer


def _pydraughts_perft(board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)  # the last ply in bulk, as ours
    total = 0
    for move in moves:
        board.push(move)
        total += _pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def bench_rules() -> None:
    from shared_rules.draughts.engine import engine_for
    from shared_rules.draughts.variants import ENGLISH, TANZANIAN

    heading("draughts perft from the start (last ply counted in bulk)")
    rates = {}
    for variant in (ENGLISH, TANZANIAN):
        engine = engine_for(variant)
        start = engine.start_state()
        started = time.perf_counter()
        leaves = engine.perft(start, 8)
        elapsed = time.perf_counter() - started
        rates[variant.name] = leaves / elapsed
        print(
            f"ubao {variant.name:<10} depth 8: {leaves:>9,} leaves in {elapsed:6.2f} s = {rates[variant.name]:>10,.0f} leaves/s"
        )
    try:
        from draughts import Board
    except ImportError:
        print("pydraughts is not installed: no reference ratio")
    else:
        depth = 5
        started = time.perf_counter()
        leaves = _pydraughts_perft(Board(variant="english"), depth)
        elapsed = time.perf_counter() - started
        reference = leaves / elapsed
        print(
            f"pydraughts english depth {depth}: {leaves:>9,} leaves in {elapsed:6.2f} s = {reference:>10,.0f} leaves/s"
        )
        print(f"ratio ubao/pydraughts (english, leaves/s): {rates['english'] / reference:,.0f}x  (target >= 300x)")

    heading("one validate request in the rules layer (parse FEN, play a move, outcome)")
    from shared_rules import get_game

    cases = {
        "chess": ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "O-O"),
        "english": ("B:W19,20,22,25,26,27,29,30,31:B2,3,4,5,7,8,10,11,16,21", "16x23x32"),
        "tanzanian": ("W:Wa3,b2,b4,c1,d2,e1,f2,g1,g3,h6:Bb8,c5,c7,d4,d6,e7,f6,f8,g7,h8", "g3-f4"),
    }
    for name, (fen, move) in cases.items():
        game = get_game(name)

        def validate(game=game, fen=fen, move=move):
            after = game.from_fen(fen).play(move)
            after.status()
            after.legal_notations()

        seconds = best_of(validate, repeat=5, number=200)
        print(f"{name:<10} {seconds * 1e6:8.1f} us per request (target for draughts: < 100 us)")

    heading("import cost of the rules layer on top of python-chess")
    floor = median_process_time("import chess")
    ours = median_process_time(
        "import chess, shared_rules; from shared_rules import get_game; "
        "[get_game(n).start() for n in ('chess', 'english', 'tanzanian')]"
    )
    print(
        f"import chess: {floor * 1e3:.0f} ms; with the rules layer and all three games set up: {ours * 1e3:.0f} ms; "
        f"added {max(0.0, ours - floor) * 1e3:.0f} ms (target < 60 ms)"
    )


# ------------------------------------------------------------------ the serverless skeleton (issue 3)

_LAMBDA_CONTEXT = """
class Context:
    function_name = "ValidateMoveFunction"
    memory_limit_in_mb = 1024
    aws_request_id = "bench"
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:ValidateMoveFunction"
"""

#: The headers of a phone browser's POST as API Gateway passes them on behind CloudFront (origin request
#: policy AllViewerExceptHostHeader): Powertools' event handling touches them, so the bench sends them.
_VIEWER_HEADERS = {
    "accept": "*/*",
    "accept-encoding": "gzip, deflate, br",
    "accept-language": "sw-TZ,sw;q=0.9,en;q=0.8",
    "content-type": "application/json",
    "host": "abcdef1234.execute-api.eu-west-1.amazonaws.com",
    "origin": "https://d111111abcdef8.cloudfront.net",
    "referer": "https://d111111abcdef8.cloudfront.net/sw/mchezo/",
    "sec-fetch-dest": "empty",
    "sec-fetch-mode": "cors",
    "sec-fetch-site": "same-origin",
    "user-agent": "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile",
    "via": "2.0 0123456789abcdef0123456789abcdef.cloudfront.net (CloudFront)",
    # What CloudFront adds (template.yaml): the viewer's host, and the origin secret the functions check.
    "x-forwarded-host": "d111111abcdef8.cloudfront.net",
    "x-origin-verify": "00000000-0000-4000-8000-000000000000",  # local.template.LOCAL_STACK_UUID
    "x-amz-cf-id": "Rr7vJ0v2u2Hq5zKXk2rNo1bM0xQ4pQmZ8y6lq0s2oP3wT7V9aB1cDe==",
    "x-amzn-trace-id": "Root=1-66a0b8c2-0123456789abcdef01234567",
    "x-forwarded-for": "197.250.12.34, 15.158.41.22",
    "x-forwarded-port": "443",
    "x-forwarded-proto": "https",
}


def _validate_event(request: dict) -> dict:
    """A payload-2.0 event as API Gateway sends it (built inline: the cold-start child must not import more)."""
    import json

    body = json.dumps(request)
    return {
        "version": "2.0",
        "routeKey": "POST /v1/validate",
        "rawPath": "/v1/validate",
        "rawQueryString": "",
        "headers": {**_VIEWER_HEADERS, "content-length": str(len(body))},
        "requestContext": {
            "accountId": "000000000000",
            "apiId": "abcdef1234",
            "domainName": _VIEWER_HEADERS["host"],
            "domainPrefix": "abcdef1234",
            "requestId": "bench-request",
            "routeKey": "POST /v1/validate",
            "stage": "$default",
            "http": {
                "method": "POST",
                "path": "/v1/validate",
                "protocol": "HTTP/1.1",
                "sourceIp": "197.250.12.34",
                "userAgent": _VIEWER_HEADERS["user-agent"],
            },
            "time": "01/Jan/2030:00:00:00 +0000",
            "timeEpoch": 1893456000000,
        },
        "body": body,
        "isBase64Encoded": False,
    }


def _child_cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _interleaved_process_medians(
    programs: dict[str, str], env: dict[str, str], cwd: Path, runs: int = 11
) -> dict[str, float]:
    """Median CPU time (user + system) of a fresh ``python -c`` per program, the programs taking turns.

    CPU time rather than wall time: a cold start is CPU-bound work (reading, unmarshalling and running
    modules), and on a machine shared with other jobs the wall time mostly measures the waiting.
    """
    timings: dict[str, list[float]] = {name: [] for name in programs}
    for code in programs.values():  # once untimed: bytecode caches written, files in the page cache
        subprocess.run([sys.executable, "-c", code], check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    for _ in range(runs):
        for name, code in programs.items():
            started = _child_cpu_seconds()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
            timings[name].append(_child_cpu_seconds() - started)
    return {name: statistics.median(values) for name, values in timings.items()}


def _lambda_env(function, layer_root: Path) -> dict[str, str]:
    """The environment of a Lambda process, as far as it matters here, for the floor and the handler alike.

    sys.path as on Lambda: the working directory is the function's code (``python -c`` puts it first, as
    Lambda puts /var/task), then the layer's ``python/`` directory (``layer_root``, holding ``shared_rules``
    as /opt/python does), then the interpreter's site-packages standing in for the packaged dependencies.
    Nothing from the developer's shell that changes Python, Powertools or pydantic; the function's
    environment from template.yaml, as deployed.
    """
    import os

    ignored = ("PYTHON", "POWERTOOLS_", "PYDANTIC_")
    env = {key: value for key, value in os.environ.items() if not key.startswith(ignored)}
    env.update(function.environment)
    env["PYTHONPATH"] = str(layer_root)
    return env


def bench_serverless() -> None:
    import os
    import tempfile

    from local.template import Template

    function = Template().functions["ValidateMoveFunction"]
    request = {"game": "chess", "move": "e4"}
    floor = "import chess, pydantic; from aws_lambda_powertools.event_handler import APIGatewayHttpResolver"
    with_model = floor + "\nclass Probe(pydantic.BaseModel):\n    x: int\n"
    programs = {
        "floor": floor,
        "pydantic": with_model,
        "validation": with_model + "APIGatewayHttpResolver(enable_validation=True)\n",
        "handler": (
            f"from {function.module} import {function.attribute}\n"
            + _LAMBDA_CONTEXT
            + f"event = {_validate_event(request)!r}\n"
            + f"assert {function.attribute}(event, Context())['statusCode'] == 200\n"
        ),
    }
    heading("serverless: cold start of the validate function (fresh process, CPU time, median of 11)")
    with tempfile.TemporaryDirectory() as layer_root:
        for layer in function.layer_dirs:  # the layer's content under its package name, as in /opt/python
            (Path(layer_root) / layer.name).symlink_to(layer, target_is_directory=True)
        medians = _interleaved_process_medians(programs, _lambda_env(function, Path(layer_root)), function.code_dir)
    base = medians["floor"]
    print("each process: cwd = functions/ (Lambda's /var/task), PYTHONPATH = the layer, the template's environment")
    print(f"floor: import chess, pydantic, APIGatewayHttpResolver     {base * 1e3:6.0f} ms")
    print(
        f"floor + one pydantic model (pydantic's lazy core)          {medians['pydantic'] * 1e3:6.0f} ms"
        f"  {medians['pydantic'] / base:.2f}x the floor"
    )
    print(
        f"floor + model + a resolver with enable_validation=True     {medians['validation'] * 1e3:6.0f} ms"
        f"  {medians['validation'] / base:.2f}x the floor"
    )
    print(
        f"validate handler: import it, answer one request           {medians['handler'] * 1e3:6.0f} ms"
        f"  {medians['handler'] / base:.2f}x the floor (target <= 1.3x)"
    )
    print(
        f"where the time goes: the floor {base * 1e3:.0f} ms; pydantic's model machinery, which the floor's lazy"
        f" `import pydantic` leaves out and any model needs, +{(medians['pydantic'] - base) * 1e3:.0f} ms;"
        f" Powertools' validation and OpenAPI modules +{(medians['validation'] - medians['pydantic']) * 1e3:.0f} ms;"
        f" ours (rules layer, models, Api, the first request) +{(medians['handler'] - medians['validation']) * 1e3:.0f} ms"
    )

    heading("serverless: warm request through the handler vs the rules-layer call it wraps (CPU time)")
    os.environ.update(function.environment)  # the log level and pydantic settings Lambda runs with
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
    from validate_move.handler import lambda_handler
    from validate_move.models import ValidateRequest
    from validate_move.service import validate_move

    from shared_rules import get_game

    namespace: dict = {}
    exec(_LAMBDA_CONTEXT, namespace)
    context = namespace["Context"]()
    noop = APIGatewayHttpResolver(enable_validation=True)

    @noop.post("/v1/validate")
    def _noop(request: ValidateRequest) -> dict:
        return {}

    cases = {
        "chess, first move": {"game": "chess", "move": "e4"},
        "chess, 6-move history": {"game": "chess", "moves": ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "move": "Ba4"},
        "english, first move": {"game": "english", "move": "9-13"},
        "tanzanian, first move": {"game": "tanzanian", "move": "a3-b4"},
    }
    timers: dict[tuple[str, str], object] = {}
    for name, case in cases.items():
        event = _validate_event(case)

        def rules_call(case=case):
            # The rules work validate_move does: the game, the history, is it over, the move, what follows.
            position = get_game(case["game"], case.get("options")).replay(case.get("moves", ()), case.get("fen"))
            position.status()
            move = position.parse_move(case["move"])
            after = position.play(move)
            return position.notation(move), after.fen(), after.status(), after.legal_notations()

        parsed = ValidateRequest.model_validate(case)
        timers[name, "rules"] = rules_call
        timers[name, "logic"] = lambda request=parsed: validate_move(request)
        timers[name, "handler"] = lambda event=event: lambda_handler(event, context)
    noop_event = _validate_event(cases["english, first move"])
    timers["noop", "noop"] = lambda: noop.resolve(noop_event, context)
    best: dict[tuple[str, str], float] = {}
    for _ in range(7):  # rounds: every timer in each, so a busy moment slows all of them alike
        for key, timer in timers.items():
            started = time.process_time()  # CPU time: what the machine's other jobs take is not ours
            for _ in range(150):
                timer()
            best[key] = min(best.get(key, float("inf")), (time.process_time() - started) / 150)
    print(f"{'case':<24}{'rules call':>12}{'handler':>12}{'ratio':>8}   (target <= 2x)")
    for name in cases:
        raw, handled = best[name, "rules"], best[name, "handler"]
        print(f"{name:<24}{raw * 1e6:10.0f}us{handled * 1e6:10.0f}us{handled / raw:7.2f}x")
    for name in ("english, first move", "tanzanian, first move"):
        raw, logic, handled = best[name, "rules"], best[name, "logic"], best[name, "handler"]
        print(
            f"where the time goes ({name.split(',')[0]}): rules {raw * 1e6:.0f} us; our logic and response models"
            f" +{(logic - raw) * 1e6:.0f} us; the HTTP layer (event in, Powertools routing, request and response"
            f" validation, JSON, logging, response out) +{(handled - logic) * 1e6:.0f} us"
        )
    print(
        f"reference: Powertools' own validated resolve with a no-op route: {best['noop', 'noop'] * 1e6:.0f} us per"
        " request (every route goes through Powertools' public chain)"
    )


# ------------------------------------------------------------------ correspondence games (issue 4)


def _moto_environment() -> None:
    """Fake credentials and no local endpoint: the sections that follow talk to moto only."""
    import os

    os.environ.update(
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        AWS_DEFAULT_REGION="us-east-1",
        AWS_REGION="us-east-1",
        POWERTOOLS_LOG_LEVEL="ERROR",
    )
    os.environ.pop("DYNAMODB_ENDPOINT", None)
    # The sections measure what requests cost, not the per-client limits (tests/ratelimit): one bench client
    # makes far more players and games a second than the limits allow one address.
    from validate_move import handler

    handler.app.dependency_overrides.update(_no_limits())


def _no_limits() -> dict:
    """``dependency_overrides`` that give a function buckets that never run out."""
    from common.web import depends

    return {depends.rate_buckets: _NoLimits}


def _function(module):
    """A handler module whose resolvers have no per-client limits (``tests.games.conftest.Function``)."""
    from tests.games.conftest import Function

    return Function(module, _no_limits())


class _NoLimits:
    """A ``ratelimit.BucketRepository`` whose buckets never run out (the bench's client only)."""

    def take(self, key: str, cost: float, limit, now: float) -> float:
        return 0.0


def bench_games() -> None:
    """DynamoDB reads, writes and item sizes per games request, and the warm move request on moto."""
    import random

    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from games import handler

        from local.dynamodb import create_tables, table_definitions
        from tests.games.client import Api

        store.reset_clients(session=True)  # a session made now, inside the mock
        create_tables(table_definitions())
        api = Api(_function(handler))
        meter = _StoreMeter(store)

        heading("games: DynamoDB calls and item sizes per request (moto)")
        per_move: list[tuple[int, int]] = []
        head_sizes: dict[str, int] = {}
        event_sizes: dict[str, int] = {}
        for game, fen in (
            ("chess", None),
            ("english", None),
            ("tanzanian", None),
            ("chess", "8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1"),
        ):
            game_id, seats = api.start_game(game, fen=fen)
            chooser = random.Random(4)
            state = api.get(game_id).body
            while state["state"] == "active" and state["ply"] < 300:
                move = chooser.choice(state["legal_moves"])
                with meter:
                    answer = api.move(seats[state["turn"]], game_id, move, state["ply"])
                assert answer.status == 200, answer.body
                per_move.append((meter.reads, meter.writes))
                label = f"{game}{' (minor pieces)' if fen else ''}"
                head_sizes[label] = max(head_sizes.get(label, 0), meter.largest("H"))
                event_sizes[label] = max(event_sizes.get(label, 0), meter.largest("E"))
                state = answer.body
            print(
                f"{label:<24} {state['ply']:>4} plies, ended {state['status']['reason'] or 'ongoing':<22}"
                f" largest head {head_sizes[label]:>4} B, largest move item {event_sizes[label]:>4} B"
            )
        reads = max(read for read, _ in per_move)
        writes = max(write for _, write in per_move)
        print(
            f"{len(per_move)} move requests on one instance: at most {reads} read(s) and {writes} write(s) each "
            f"(target: at most 1 read and 2 writes, every item under 1,024 B; it keeps each game's head, an "
            f"instance that has not seen the game reads it)"
        )
        print(
            f"worst case of a chess head, by construction: {_worst_head_size(store)} B (99 repetition keys, the "
            f"last two moves, 24-character names in 2-byte letters, the longest FEN and options)"
        )

        game_id, seats = api.start_game("chess")
        api.move(seats["white"], game_id, "e4", 0)
        for name, call in (
            ("retry of an accepted move", lambda: api.move(seats["white"], game_id, "e4", 0)),
            ("stale ply (409)", lambda: api.move(seats["white"], game_id, "d4", 0)),
            ("poll, unchanged (304)", lambda: api.get(game_id, headers={"if-none-match": '"1.3"'})),
            ("GET the whole game", lambda: api.get(game_id)),
            ("list my games (two seats)", lambda: api.call("GET", "/v1/players/me/games", token=seats["white"])),
        ):
            with meter:
                call()
            print(f"{name:<28} {meter.reads} read(s), {meter.writes} write(s)")

        heading("games: a move request beside a validate request (CPU time less DynamoDB's, median)")
        from games import domain
        from validate_move.handler import lambda_handler as validate_handler

        from local.events import LambdaContext

        namespace: dict = {}
        exec(_LAMBDA_CONTEXT, namespace)
        context = namespace["Context"]()
        games_context = LambdaContext(function_name="GamesFunction", timeout_seconds=900)

        recorder, replay = Api(_function(handler)), _Replay(store.client())

        def move(game_id: str, token: str, text: str, state: dict) -> tuple[float, float, dict]:
            """The CPU of a move request and of a validate request of the same move in the same position, taken
            in turn (so that a load that comes and goes weighs on both alike), and the game after the move. The
            move is made on two instances that keep the same heads: on ``recorder`` against moto, then on ``api``
            with moto's answers replayed (``_Replay``, as in section length)."""
            validate_event = _validate_event({"game": "chess", "fen": state["fen"], "move": text})
            validate = _cpu_of(meter, functools.partial(_handler_answer, validate_handler, validate_event, context))
            event = _games_event("POST", game_id, "/moves", body={"move": text, "ply": state["ply"]}, token=token)
            with contextlib.redirect_stdout(io.StringIO()):  # the function's EMF metric lines
                answers = replay.record(functools.partial(recorder.app.lambda_handler, event, games_context))
                domain._POSITIONS.clear()  # each request restores its position
                request = functools.partial(replay.replay, answers, api.app.lambda_handler, event, games_context)
                cpu, answer = _cpu_and_answer(meter, functools.partial(_answer_of, request))
            return cpu, validate, json.loads(answer.body)

        first = []
        for _ in range(60):
            game_id, seats = api.start_game("chess")
            state = recorder.get(game_id).body  # the recorder keeps the head too
            first.append(move(game_id, seats["white"], "e4", state)[:2])
        long_id, long_seats = api.start_game("chess", fen="8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1")
        state = recorder.get(long_id).body
        chooser, late = random.Random(9), []
        while state["state"] == "active" and state["ply"] < 90:
            quiet = [move for move in state["legal_moves"] if "x" not in move] or state["legal_moves"]
            *cpu, state = move(long_id, long_seats[state["turn"]], chooser.choice(quiet), state)
            late.append(cpu)
        print(f"{'':<44}{'move':>9}{'validate':>10}")
        for label, pairs in (
            ("chess, e4 (a new game)", first),
            (f"chess, quiet endgame (to ply {state['ply']})", late[-20:]),
        ):
            moved, validated = (statistics.median(cpu[index] for cpu in pairs) for index in (0, 1))
            print(f"{label:<44}{moved * 1e3:7.2f}ms{validated * 1e3:8.2f}ms{moved / validated:6.1f}x")
        print(
            "Each move on the instance that created the game or served the last move (2 DynamoDB calls; section"
            " length has an instance that reads the head too). Round one measured 53x at ply 90."
        )
    store.reset_clients()


class _StoreMeter:
    """Counts the DynamoDB calls made inside ``with meter:`` and the size of each item written."""

    READS = {"GetItem", "Query", "Scan", "BatchGetItem"}
    WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"}

    def __init__(self, store):
        self.store = store
        self.calls: list[tuple[str, dict]] = []
        events = store.client().meta.events
        events.register("before-parameter-build.dynamodb", self._seen)
        events.register("before-call.dynamodb", self._start)
        events.register("after-call.dynamodb", self._stop)
        self._active = False
        self.seconds = self.cpu_seconds = 0.0
        self._started = self._started_cpu = 0.0

    def _start(self, **_):
        self._started = time.perf_counter()
        self._started_cpu = time.process_time()

    def _stop(self, **_):
        if self._active:
            self.seconds += time.perf_counter() - self._started
            self.cpu_seconds += time.process_time() - self._started_cpu

    def _seen(self, params, model, **_):
        if self._active:
            self.calls.append((model.name, params))

    def __enter__(self):
        self.calls, self._active, self.seconds, self.cpu_seconds = [], True, 0.0, 0.0
        return self

    def __exit__(self, *exc_info):
        self._active = False

    @property
    def reads(self) -> int:
        return sum(1 for name, _ in self.calls if name in self.READS)

    @property
    def writes(self) -> int:
        return sum(1 for name, _ in self.calls if name in self.WRITES)

    def largest(self, kind: str) -> int:
        sizes = [
            self.store.item_size(self.store.from_item(params["Item"]))
            for name, params in self.calls
            if name == "PutItem" and params["Item"].get("sk", {}).get("S", "").startswith(kind)
        ]
        return max(sizes, default=0)


def _worst_head_size(store) -> int:
    """The largest head of a chess game the games function can write: every field at its longest, and the
    fifty-move rule's 99 earlier repetition keys (a draughts game with the repetition rule keeps 25 B per
    position since the last irreversible move, bounded by the 1,000-ply limit)."""
    from games.codec import head_record
    from games.domain import GameHead, PlayedMove, Seat

    from shared_rules import Snapshot

    name = "Ŵ" * 24
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 99 100"
    seat = Seat("x" * 12, b"x" * 32, name)
    last = PlayedMove(99_998, "white", "Qxh8+", "h1h8", fen)
    head = GameHead(
        id="x" * 12,
        game="chess",
        options={"days_per_move": 14, "swap_colors": False},
        seq=999_999,
        ply=99_999,
        state="active",
        turn="white",
        result="ongoing",
        reason=None,
        white=seat,
        black=seat,
        snapshot=Snapshot(fen, 99_999, b"k" * 8 * 99),
        created=4_102_444_800_000,
        updated=4_102_444_800_000,
        last_moves=(last, last),
        deadline=4_102_444_800_000,
        draw_offer="white",
        rematch="x" * 12,
        rematch_of="x" * 12,
        max_plies=100_000,
        start_fen=fen,  # a game from a position of its own
    )
    record = head_record(head)
    return store.item_size({**record, "pk": record.pop("id"), "sk": "H"})


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
        from common.persistence.store import GameStore
        from games import domain, handler
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
                body = {"game": game, "fen": head.snapshot.fen, "move": move, "options": _rules_options(head.options)}
                validate_event = _validate_event(body)
                cells: dict[str, list[float]] = {"move": [], "kept": [], "get": [], "validate": []}
                calls: dict[str, tuple[int, int]] = {}
                for round_ in range(_rounds(9 if plies < 1_000 else 5)):
                    # "move": on an instance that has not seen the game (it reads the head); "kept": after this
                    # instance's GET of the game, as a page's move follows its GET (``games.protocol.RecentHeads``).
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
                            domain._POSITIONS.clear()  # no warm position: another instance served the last request
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
    from common.persistence.store import GameStore

    from tests.games.long_game import long_game, write_records

    for plies in (10, 1_000):
        head, records = long_game("benchexport0", tokens, plies, game="chess")
        write_records(GameStore(), f"bexport{plies:05d}", head, records)
        path = f"/v1/games/bexport{plies:05d}/export"
        cpu = statistics.median(_cpu_of(meter, lambda path=path: api.call("GET", path)) for _ in range(3))
        print(f"export (PGN), chess, ply {plies:>5}: {cpu * 1e3:7.2f}ms CPU, {meter.reads} read(s)")


def _rounds(default: int) -> int:
    """Rounds per cell: BENCH_ROUNDS for a steadier median on a busy machine."""
    import os

    return int(os.environ.get("BENCH_ROUNDS", default))


def _moves_page() -> int:
    from games.service import MOVES_PAGE

    return MOVES_PAGE


def _rules_options(options: dict) -> dict:
    return {key: value for key, value in options.items() if key not in ("days_per_move", "swap_colors")}


def _handler_answer(handler, event, context) -> _Answer:
    return _Answer(handler(event, context))


def _answer_of(request) -> _Answer:
    return _Answer(request())


class _Replay:
    """DynamoDB's answers to a request, recorded from moto and then given back to the same request.

    ``record`` runs a request against moto and keeps each HTTP answer; ``replay`` runs the same request with
    those answers handed to botocore by its ``before-send`` hook, in order, so that botocore does all of its
    own work (building, signing, parsing) and moto none. A replayed request must make the same calls."""

    def __init__(self, client):
        self._recorded: list[tuple[int, dict, bytes]] | None = None
        self._replayed: list[tuple[int, dict, bytes]] | None = None
        self._events = client.meta.events
        self._events.register_first("before-send.dynamodb", self._send)
        self._events.register("after-call.dynamodb", self._keep)

    def record(self, call) -> list[tuple[int, dict, bytes]]:
        self._recorded = []
        try:
            call()
            return self._recorded
        finally:
            self._recorded = None

    def replay(self, answers: list[tuple[int, dict, bytes]], call, *args):
        from moto.core.models import botocore_stubber

        # botocore calls every ``before-send`` handler and keeps the first answer: moto's must not run at all.
        self._events.unregister("before-send", botocore_stubber)
        self._replayed = list(answers)
        try:
            result = call(*args)
            assert not self._replayed, "the replayed request made fewer DynamoDB calls than the recorded one"
            return result
        finally:
            self._replayed = None
            self._events.register("before-send", botocore_stubber)

    def _send(self, request, **_):
        if self._replayed is None:
            return None  # to moto
        assert self._replayed, "the replayed request made more DynamoDB calls than the recorded one"
        status, headers, body = self._replayed.pop(0)
        return _recorded_response(request.url, status, headers, body)

    def _keep(self, http_response, **_):
        if self._recorded is not None:
            self._recorded.append((http_response.status_code, dict(http_response.headers), http_response.content))


def _recorded_response(url: str, status: int, headers: dict, body: bytes):
    from botocore.awsrequest import AWSResponse

    class Raw:  # what botocore reads an answer's body from (``AWSResponse.content``)
        def stream(self, **_):
            yield body

    return AWSResponse(url, status, headers, Raw())


def _games_event(method: str, game_id: str, tail: str = "", body: dict | None = None, token: str | None = None):
    """A games request as API Gateway passes it behind CloudFront: a phone's headers, like validate's."""
    import json

    from local.events import http_api_event

    headers = dict(_VIEWER_HEADERS)
    if body is None:
        headers.pop("content-type")
    if token:
        headers["authorization"] = f"Bearer {token}"
    return http_api_event(
        method,
        f"/v1/games/{game_id}{tail}",
        route_key=f"{method} /v1/games/{{id}}{tail}",
        path_parameters={"id": game_id},
        headers=headers,
        body=json.dumps(body) if body is not None else None,
        source_ip="197.250.12.34",
    )


class _Answer:
    """A validate handler's result as the bench's ``_cpu_of`` reads answers."""

    def __init__(self, result: dict):
        self.status, self.body = result["statusCode"], result.get("body")


def _cpu_of(meter, call) -> float:
    """The CPU time of ``call`` less moto's inside it: the function's own work (moto serves DynamoDB in-process)."""
    return _cpu_and_answer(meter, call)[0]


def _cpu_and_answer(meter, call):
    """``_cpu_of`` and the answer of ``call``, which must be a 200 or a 304."""
    with meter:
        started = time.process_time()
        answer = call()
        spent = time.process_time() - started
    assert answer.status in (200, 304), answer.body
    return spent - meter.cpu_seconds, answer


# ------------------------------------------------------------------ the computer opponent


def bench_engine() -> None:
    """The level ladder (issue 7): each level against the one below, level 1 against a random mover, and
    chess level 5 against Stockfish's lowest skill when Stockfish is installed.

    BENCH_GAMES sets the games per pairing (default 100; BENCH_GAMES=10 for a quick look),
    BENCH_GAME_NAMES picks games, BENCH_WORKERS the processes playing at once (default: every core).
    Each game runs on one core; the seconds per move are measured first, alone."""
    import os

    from shared_rules import get_game
    from shared_rules.search.ladder import OPENING_PLIES, RANDOM, MatchScore, match_tasks, openings, play_all
    from shared_rules.search.levels import choose_move

    games = int(os.environ.get("BENCH_GAMES", "100"))
    names = os.environ.get("BENCH_GAME_NAMES", "chess,english,tanzanian").split(",")
    workers = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
    heading("engine: seconds per move (median over 12 opening positions, one core)")
    for name in names:
        game = get_game(name)
        starts = openings(game, 12, seed=99)
        cells = []
        for level in (1, 3, 4, 5):
            timings = []
            for position in starts:
                started = time.perf_counter()
                choose_move(game, position, level, seed=1)
                timings.append(time.perf_counter() - started)
            cells.append(f"level {level} {statistics.median(timings):5.3f}s (max {max(timings):.2f}s)")
        print(f"{name:<10} " + "   ".join(cells))
    _bench_worst_positions(names)
    _bench_level_estimate(names)
    heading(
        f"engine: the level ladder, {games} games per pairing, {workers} processes "
        f"(colours alternate; {OPENING_PLIES} random balanced opening plies, each opening played twice)"
    )
    pairings = [(name, a, b) for name in names for a, b in ((5, 4), (4, 3), (3, 2), (2, 1), (1, RANDOM))]
    tasks = [task for name, a, b in pairings for task in match_tasks(get_game(name), a, b, games, seed=1)]
    scores = {pairing: MatchScore(pairing[1], pairing[2]) for pairing in pairings}
    started = time.perf_counter()
    for done, outcome in enumerate(play_all(tasks, workers), 1):
        pairing = (outcome.task.game_name, outcome.task.a, outcome.task.b)
        scores[pairing].add(outcome)
        if scores[pairing].games == games:  # as each pairing ends, for progress; the table follows
            elapsed = time.perf_counter() - started
            print(
                f"  {done}/{len(tasks)} games, {elapsed:.0f} s: {pairing[0]} {scores[pairing].line()}",
                file=sys.stderr,
                flush=True,
            )
    for pairing in sorted(scores, key=lambda p: (names.index(p[0]), p[1])):
        score = scores[pairing]
        plies = statistics.median(score.plies)
        print(f"{pairing[0]:<10} {score.line():<78} median {plies:.0f} plies")
    print(f"{len(tasks)} games in {time.perf_counter() - started:.0f} s")
    if "chess" in names:
        _bench_stockfish(min(games, 20))


def _bench_worst_positions(names: list[str]) -> None:
    """Issue 17: the seconds a move takes in positions whose nodes are dearest (boards of flying kings, of
    queens), the worst of three runs, beside the level's time budget; the promise is at most twice it."""
    from shared_rules import get_game
    from shared_rules.search.levels import LEVELS, choose_move, level_settings
    from tests.engine.worst_positions import WORST_POSITIONS

    heading("engine: the worst positions, CPU seconds per move (worst of 3) / the level's time budget")
    worst_ratio = 0.0
    for name in names:
        game = get_game(name)
        for fen in WORST_POSITIONS.get(name, ()):
            position = game.from_fen(fen)
            choose_move(game, position, 1, seed=1)  # warm the caches, as a running function has them
            cells = []
            for level in LEVELS:
                timings = []
                for seed in range(3):
                    started = time.process_time()  # the clock the budget is read on
                    choose_move(game, position, level, seed=seed)
                    timings.append(time.process_time() - started)
                budget = level_settings(name, level).seconds
                worst_ratio = max(worst_ratio, max(timings) / budget)
                cells.append(f"L{level} {max(timings):.3f}/{budget:g}")
            print(f"{name:<10} {fen[:34]:<34} " + "  ".join(cells))
    print(f"worst time / budget: {worst_ratio:.2f} (the promise: at most 2)")


def middlegames(game, count: int) -> list:
    """Varied positions 10 to 25 plies in: balanced openings played on by level 3 (seeded)."""
    from shared_rules.search.ladder import openings
    from shared_rules.search.levels import choose_move

    positions = []
    for index, position in enumerate(openings(game, count, seed=77)):
        for ply in range(6 + index % 16):
            if position.status().is_over:
                break
            position = position.play(choose_move(game, position, 3, seed=index * 100 + ply).move)
        if not position.status().is_over:
            positions.append(position)
    return positions


def _bench_level_estimate(names: list[str]) -> None:
    """What a takeover reads from a player's moves: each level's mean loss per move against the reference
    search, next to the TYPICAL_LOSS the estimate matches it to, and the level it would be estimated at."""
    from shared_rules import get_game
    from shared_rules.search.levels import LEVELS, TYPICAL_LOSS, choose_move, estimate_level, family, move_loss

    heading("engine: mean loss per move by level, as a takeover estimates a player's level (30 middlegames)")
    for name in names:
        game = get_game(name)
        positions = middlegames(game, 30)
        typical = TYPICAL_LOSS[family(name)]
        cells = []
        for level in LEVELS:
            played = [(p, choose_move(game, p, level, seed=i).move) for i, p in enumerate(positions)]
            mean = statistics.mean(move_loss(game, p, move) for p, move in played)
            groups = [estimate_level(game, played[i : i + 8]) for i in range(0, len(played) - 7, 8)]
            cells.append(f"L{level} {mean:5.1f} (table {typical[level]}, read as {'/'.join(map(str, groups))})")
        print(f"{name:<10} " + "  ".join(cells))


def _bench_stockfish(games: int) -> None:
    import shutil

    path = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)
    heading(f"engine: chess level 5 against Stockfish at Skill Level 0, 50 ms a move ({games} games)")
    if path is None:
        print("skipped: Stockfish is not installed (apt-get install stockfish puts it in /usr/games)")
        return
    import chess.engine

    from shared_rules import get_game
    from shared_rules.search.ladder import MAX_MATCH_PLIES, GameOutcome, LadderGame, MatchScore, openings
    from shared_rules.search.levels import choose_move

    game = get_game("chess")
    starts = openings(game, (games + 1) // 2, seed=5)
    score = MatchScore(5, -1)
    with chess.engine.SimpleEngine.popen_uci(path) as stockfish:
        stockfish.configure({"Skill Level": 0, "Threads": 1})
        for number in range(games):
            task = LadderGame("chess", (), 5, -1, number, games, 5)
            position = starts[number // 2]
            while not position.status().is_over and position.ply < MAX_MATCH_PLIES:
                if position.turn == task.a_colour:
                    move = choose_move(game, position, 5, seed=number).move
                else:
                    move = stockfish.play(position.board, chess.engine.Limit(time=0.05)).move
                position = position.play(move)
            result = position.status().result
            score.add(GameOutcome(task, "draw" if result == "ongoing" else result, position.status().reason, []))
    print(score.line().replace("level -1", "Stockfish skill 0").replace(", 0 adjudicated", ""))


# ------------------------------------------------------------------------------------- puzzles (issue 5)


class _BenchClock:
    """The real time, moved on by the bench to end a puzzle's rating period without waiting."""

    def __init__(self):
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def bench_puzzles() -> None:
    """DynamoDB reads and writes per puzzles request, item sizes, and the warm attempt vs the validate request."""

    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from common.players.repository import PlayerStore
        from common.players.service import hash_token
        from games import handler as games_handler
        from puzzles_api import handler, puzzle_rating
        from validate_move.handler import lambda_handler as validate_handler

        from local.dynamodb import create_tables, table_definitions
        from local.events import LambdaContext
        from puzzles.catalog import find, load
        from tests.puzzles_api.client import PuzzlesApi

        store.reset_clients(session=True)
        create_tables(table_definitions())
        from tests.games.conftest import Function, on_clock

        clock = _BenchClock()
        api = PuzzlesApi(Function(handler, {**_no_limits(), **on_clock(clock)}), _function(games_handler))
        meter = _StoreMeter(store)
        token = api.new_player()
        puzzle = find("chess-000Zo")  # Re1+ Kf2 Rf1#

        heading("puzzles: DynamoDB calls per request (moto)")
        steps = [
            ("daily puzzle", lambda: api.daily("chess")),
            ("puzzle by id", lambda: api.call("GET", f"/v1/puzzles/{puzzle.id}")),
            ("attempt, going on, no token", lambda: api.attempt(puzzle.id, ["Re1+"])),
            ("attempt, going on, with a token", lambda: api.attempt(puzzle.id, ["Re1+"], token)),
            ("attempt, finished, first (counts)", lambda: api.attempt(puzzle.id, ["Re1+", "Rf1#"], token)),
            ("attempt, finished, played again", lambda: api.attempt(puzzle.id, ["Re1+", "Rf1#"], token)),
            ("next puzzle", lambda: api.call("GET", "/v1/puzzles/next", token=token, query={"game": "chess"})),
            (
                "next puzzle with a theme",
                lambda: api.call("GET", "/v1/puzzles/next", token=token, query={"game": "chess", "theme": "fork"}),
            ),
            (
                "pack of 20 (offline)",
                lambda: api.call("GET", "/v1/puzzles/pack", token=token, query={"game": "english", "count": 20}),
            ),
            ("progress, new time zone", lambda: api.progress(token, "Asia/Manila")),
            ("progress", lambda: api.progress(token, "Asia/Manila")),
        ]
        print(f"{'request':<40}{'reads':>7}{'writes':>8}")
        for label, step in steps:
            with meter:
                step()
            print(f"{label:<40}{meter.reads:>7}{meter.writes:>8}")
        for other in load("english")[:22]:  # a full history: the progress at its usual largest
            api.attempt(other.id, list(other.solution[::2]), token)
        import gzip

        packs = [
            api.call("GET", "/v1/puzzles/pack", token=token, query={"game": game, "count": 20}).text.encode()
            for game in ("chess", "english", "tanzanian")
        ]
        print(
            f"offline puzzles (20 per game, three games): {sum(map(len, packs)) / 1024:.1f} KB of JSON, "
            f"{sum(len(gzip.compress(p)) for p in packs) / 1024:.1f} KB gzipped"
        )
        clock.advance(puzzle_rating.FOLD_SECONDS + puzzle_rating.CACHE_SECONDS + 1)
        with meter:
            api.call("GET", f"/v1/puzzles/{puzzle.id}")
        print(f"{'puzzle by id, its period over (a fold)':<40}{meter.reads:>7}{meter.writes:>8}")
        player = PlayerStore().get(hash_token(token))
        attempt = store.from_item(store.client().scan(TableName="PuzzleProgressTable", Limit=1)["Items"][0])
        print(
            f"item sizes: player with its puzzle progress {store.item_size(player)} B (limit 1,024), "
            f"an attempt {store.item_size(attempt)} B"
        )

        heading("puzzles: warm attempt request vs the validate request (the same chess position; moto)")
        context = LambdaContext(function_name="bench")
        validate_event = _validate_event({"game": "chess", "fen": puzzle.fen, "move": "Re1+"})
        validate = best_of(lambda: validate_handler(validate_event, context), repeat=5, number=200)
        going_on = best_of(lambda: api.attempt(puzzle.id, ["Re1+"]), repeat=5, number=200)
        print(f"validate request (Re1+)            {validate * 1e3:7.2f} ms")
        print(f"attempt request (Re1+, no token)   {going_on * 1e3:7.2f} ms  {going_on / validate:.2f}x validate")


# ------------------------------------------------------------------ offline first (issue 12)

#: The link of the issue: 400 kbit/s down (and up), 400 ms latency, in Chromium's network emulation.
SLOW_LINK = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
OFFLINE_PAGES = ("/sw/sheria/chess/", "/tl/jifunze/english/", "/en/sheria/tanzanian/", "/sw/fumbo/", "/en/mchezo/")


class _CountingProxy:
    """A TCP relay in front of the local server that counts the bytes the server sends: what went over the
    network, whoever asked (the page or its service worker, which Chromium's page-level events do not show).
    Bytes are told apart by the path of the request they answer: ``api`` (/v1/) or ``site`` (the rest)."""

    _REQUEST_LINE = re.compile(rb"(?:^|\r\n)(?:GET|POST|HEAD|PUT|PATCH|DELETE|OPTIONS) (\S+) HTTP/1")

    def __init__(self, target_port: int):
        import socket
        import threading

        self._socket, self._threading = socket, threading
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received = {"site": 0, "api": 0}
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = self._socket.create_connection(("127.0.0.1", self.target_port))
            answering = {"kind": "site"}  # HTTP/1.1 answers in order: bytes belong to the last request sent
            for ends in ((client, upstream, False), (upstream, client, True)):
                self._threading.Thread(target=self._pump, args=(*ends, answering), daemon=True).start()

    def _pump(self, source, target, downstream: bool, answering: dict) -> None:
        try:
            while data := source.recv(65536):
                if downstream:
                    with self._lock:
                        self.received[answering["kind"]] += len(data)
                else:
                    for path in self._REQUEST_LINE.findall(data):
                        answering["kind"] = "api" if path.startswith(b"/v1/") else "site"
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(self._socket.SHUT_RDWR)

    def take_split(self) -> dict[str, int]:
        with self._lock:
            counts, self.received = self.received, {"site": 0, "api": 0}
        return counts

    def take(self) -> int:
        return sum(self.take_split().values())

    def close(self) -> None:
        self.listener.close()


def _slow_page(context):
    """A page of ``context`` on the slow link, and a counter of the bytes its own requests transferred:
    ``bytes`` in all, ``api`` of them for /v1/ (the page's data, not the page)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
    transferred = {"bytes": 0, "api": 0}
    urls: dict[str, str] = {}

    def finished(event) -> None:
        transferred["bytes"] += event["encodedDataLength"]
        if "/v1/" in urls.get(event["requestId"], ""):
            transferred["api"] += event["encodedDataLength"]

    cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    cdp.on("Network.loadingFinished", finished)
    return page, transferred


def _poll(page, expression: str, timeout: float = 30.0) -> None:
    """Wait until ``expression`` (maybe a promise) is true: ``wait_for_function`` evaluates with eval, which
    the site's Content-Security-Policy forbids."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.1)


def _load_ms(page) -> float:
    return page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()"
    )


def bench_offline() -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import LocalSite, launch_browser, missing_chromium, missing_dynamodb

    heading("offline first: pages on a 400 kbit/s, 400 ms link (headless Chromium, CDP network emulation)")
    if missing_chromium():
        print(missing_chromium())
        return
    with LocalSite(with_dynamodb=missing_dynamodb() is None) as site, sync_playwright() as playwright:
        proxy = _CountingProxy(site.port)
        origin = f"http://127.0.0.1:{proxy.port}"
        browser = launch_browser(playwright)
        try:
            _bench_offline_pages(browser, origin, proxy)
            _bench_offline_pack(browser, origin, proxy, site)
        finally:
            browser.close()
            proxy.close()


def _bench_offline_pages(browser, origin: str, proxy) -> None:
    import urllib.request

    for path in OFFLINE_PAGES:  # the server compresses a file once: measure the link, not that first time
        for encoding in ("br", "identity"):
            request = urllib.request.Request(origin + path, headers={"Accept-Encoding": encoding})
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
    print("median of 3 fresh visits (the slowest in brackets); bytes: the page and its files, then the API's")
    print(f"{'page':<22} {'first visit':>29} {'uncompressed, no SW':>20} {'repeat visit':>29} {'precache':>9}")
    for path in OFFLINE_PAGES:
        runs = [_visit_twice(browser, origin, proxy, path) for _ in range(3)]
        middle = sorted(runs, key=lambda run: run["first_ms"])[1]
        first_ms = statistics.median(run["first_ms"] for run in runs)
        repeat_ms = statistics.median(run["repeat_ms"] for run in runs)
        print(
            f"{path:<22} {middle['first_site'] / 1024:5.1f}+{middle['first_api'] / 1024:4.1f} KB "
            f"{first_ms:5.0f} ({max(run['first_ms'] for run in runs):5.0f}) ms "
            f"{middle['plain_bytes'] / 1024:6.1f} KB {middle['plain_ms']:5.0f} ms "
            f"{middle['repeat_site']:5d}+{middle['repeat_api']:5d} B {repeat_ms:4.0f} ({max(run['repeat_ms'] for run in runs):4.0f}) ms"
            f" {middle['precache'] / 1024:6.1f} KB"
        )
    print("targets: first visit < 30 KB and < 1500 ms; repeat visit <= 1 KB and < 300 ms; precache: the shell only,")
    print("         fetched by the service worker after the first page's load event. Fumbo and Mchezo also ask the")
    print("         API on every visit (the puzzles' legal moves, the games): those bytes are the second number.")


def _visit_twice(browser, origin: str, proxy, path: str) -> dict:
    """One fresh visitor: the reference visit (no compression, no worker), the first visit, the repeat visit."""
    # The reference: the same page as the issue found it (no compression), in the same run.
    reference = browser.new_context(base_url=origin, service_workers="block")
    reference.set_extra_http_headers({"Accept-Encoding": "identity"})
    page, plain = _slow_page(reference)
    page.goto(path, wait_until="load")
    run = {"plain_ms": _load_ms(page), "plain_bytes": plain["bytes"]}
    reference.close()

    context = browser.new_context(base_url=origin)
    page, first = _slow_page(context)
    proxy.take()
    page.goto(path, wait_until="load")
    run["first_ms"] = _load_ms(page)
    _poll(page, "navigator.serviceWorker.controller !== null")
    _poll(page, "caches.open('ubao-pages').then(c => c.match(location.origin + location.pathname)).then(r => !!r)")
    page.wait_for_timeout(1500)  # the precache and the API calls of the page settle
    run["first_site"], run["first_api"] = first["bytes"] - first["api"], first["api"]
    run["precache"] = max(proxy.take() - first["bytes"], 0)
    page.goto("about:blank")
    proxy.take()
    page.goto(origin + path, wait_until="load")
    run["repeat_ms"] = _load_ms(page)
    page.wait_for_timeout(1500)  # stale-while-revalidate: the page is checked after it is shown
    repeat = proxy.take_split()
    run["repeat_site"], run["repeat_api"] = repeat["site"], repeat["api"]
    context.close()
    return run


def _bench_offline_pack(browser, origin: str, proxy, site) -> None:
    import json as json_module
    import re

    import brotli

    heading("offline first: the whole offline pack of one language (Swahili), over the network")
    context = browser.new_context(base_url=origin)
    page = context.new_page()
    proxy.take()
    page.goto("/sw/jifunze/", wait_until="load")
    _poll(page, "navigator.serviceWorker.controller !== null")
    page.click("#save-offline")
    _poll(page, "document.getElementById('save-offline-status').textContent.length > 12", timeout=60)
    page.wait_for_timeout(1000)
    pack = proxy.take()
    cached = page.evaluate(
        "caches.open('ubao-pages').then(c => c.keys()).then(k => k.map(r => new URL(r.url).pathname))"
    )
    shell = json_module.loads(re.search(r"const SETTINGS = (\{.*?\});", (site.site_dir / "sw.js").read_text()).group(1))
    shell_bytes = sum(
        len(brotli.compress((site.site_dir / url.lstrip("/")).read_bytes()))
        if (site.site_dir / url.lstrip("/")).stat().st_size >= 1000
        else (site.site_dir / url.lstrip("/")).stat().st_size
        for url in shell["shell"]
    )
    context.close()
    print(f"pages kept: {len(cached)} ({', '.join(sorted(cached))})")
    print(
        f"shell precached: {len(shell['shell'])} files + 3 offline pages, {shell_bytes / 1024:.1f} KB Brotli (files alone)"
    )
    print(f"whole pack over the network: {pack / 1024:.1f} KB (target < 400 KB); 20 puzzles per game: section puzzles")


def bench_package() -> None:
    """Each function's code package as `make package` builds it for Lambda (arm64), beside Lambda's limit."""
    import tempfile
    import zipfile

    from local.package import build, package_sizes

    heading("package: each function's code package and the layer, as deployed (make package, arm64)")
    limit = 250 * 1024 * 1024  # Lambda: a function's code and its layers, unzipped
    with tempfile.TemporaryDirectory() as out:
        built = build(Path(out) / "build")
        sizes = package_sizes(built)
        layer = sizes.pop("RulesLayer")
        for name, size in [*sizes.items(), ("RulesLayer", layer)]:
            directory = built / ("layer" if name == "RulesLayer" else f"functions/{name}")
            zipped = Path(out) / f"{name}.zip"
            with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in sorted(directory.rglob("*")):
                    if path.is_file():
                        archive.write(path, path.relative_to(directory))
            with_layer = size + (layer if name != "RulesLayer" else 0)
            print(f"{name:22} {size / 1e6:6.2f} MB unzipped, {zipped.stat().st_size / 1e6:5.2f} MB zipped;"
                  f" with the layer {with_layer / limit:6.1%} of Lambda's 250 MB")  # fmt: skip


from tests.bench_push import bench_push  # noqa: E402 - a section in its own module

SECTIONS = {
    "rules": bench_rules,
    "package": bench_package,
    "serverless": bench_serverless,
    "games": bench_games,
    "length": bench_game_length,
    "engine": bench_engine,
    "puzzles": bench_puzzles,
    "offline": bench_offline,
    "push": bench_push,
}


def main(argv: list[str] | None = None) -> None:
    names = (argv if argv is not None else sys.argv[1:]) or list(SECTIONS)
    for name in names:
        if name not in SECTIONS:
            raise SystemExit(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}")
        SECTIONS[name]()


if __name__ == "__main__":
    main()
