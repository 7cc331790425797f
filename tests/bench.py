"""``make bench``: every speed claim, measured side by side with its reference in the same run.

Each section prints its numbers and the ratio that the issue's target is about. Nothing here is a
test: timings on a shared machine vary, ratios measured in one run are what we compare.
Run one section: ``python -m tests.bench rules`` (names: see SECTIONS).
"""

from __future__ import annotations

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
        print(f"ubao {variant.name:<10} depth 8: {leaves:>9,} leaves in {elapsed:6.2f} s = {rates[variant.name]:>10,.0f} leaves/s")
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
        print(f"pydraughts english depth {depth}: {leaves:>9,} leaves in {elapsed:6.2f} s = {reference:>10,.0f} leaves/s")
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
    ours = median_process_time("import chess, shared_rules; from shared_rules import get_game; "
                               "[get_game(n).start() for n in ('chess', 'english', 'tanzanian')]")
    print(f"import chess: {floor * 1e3:.0f} ms; with the rules layer and all three games set up: {ours * 1e3:.0f} ms; "
          f"added {max(0.0, ours - floor) * 1e3:.0f} ms (target < 60 ms)")


# ------------------------------------------------------------------ the serverless skeleton (issue 3)

_LAMBDA_CONTEXT = """
class Context:
    function_name = "ValidateMoveFunction"
    memory_limit_in_mb = 1024
    aws_request_id = "bench"
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:ValidateMoveFunction"
"""


def _validate_event(request: dict) -> dict:
    """A payload-2.0 event as API Gateway sends it (built inline: the cold-start child must not import more)."""
    import json

    return {
        "version": "2.0",
        "routeKey": "POST /v1/validate",
        "rawPath": "/v1/validate",
        "rawQueryString": "",
        "headers": {"content-type": "application/json", "host": "bench"},
        "requestContext": {
            "requestId": "bench-request",
            "stage": "$default",
            "http": {"method": "POST", "path": "/v1/validate", "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
            "timeEpoch": 0,
        },
        "body": json.dumps(request),
        "isBase64Encoded": False,
    }


def _interleaved_process_medians(programs: dict[str, str], env: dict[str, str], runs: int = 11) -> dict[str, float]:
    """Median wall time of a fresh ``python -c`` per program, the programs taking turns so load hits all alike."""
    timings: dict[str, list[float]] = {name: [] for name in programs}
    for _ in range(runs):
        for name, code in programs.items():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
            timings[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in timings.items()}


def bench_serverless() -> None:
    import os

    from local.template import Template

    function = Template().functions["ValidateMoveFunction"]
    env = {**os.environ, **function.environment}  # the function's environment from template.yaml, as deployed
    request = {"game": "chess", "move": "e4"}
    floor = "import chess, pydantic; from aws_lambda_powertools.event_handler import APIGatewayHttpResolver"
    programs = {
        "floor": floor,
        "pydantic": floor + "\nclass Probe(pydantic.BaseModel):\n    x: int\n",
        "handler": (
            f"import sys\nsys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'functions')!r}]\n"
            "from validate_move.handler import lambda_handler\n"
            + _LAMBDA_CONTEXT
            + f"event = {_validate_event(request)!r}\n"
            + "assert lambda_handler(event, Context())['statusCode'] == 200\n"
        ),
    }
    heading("serverless: cold start of the validate function (fresh process, median of 11, interleaved)")
    medians = _interleaved_process_medians(programs, env)
    print(f"floor: import chess, pydantic, APIGatewayHttpResolver     {medians['floor'] * 1e3:6.0f} ms")
    print(
        f"floor + one pydantic model (pydantic's lazy core)          {medians['pydantic'] * 1e3:6.0f} ms"
        f"  {medians['pydantic'] / medians['floor']:.2f}x the floor"
    )
    print(
        f"validate handler: import it, answer one request           {medians['handler'] * 1e3:6.0f} ms"
        f"  {medians['handler'] / medians['floor']:.2f}x the floor (target <= 1.3x),"
        f" {medians['handler'] / medians['pydantic']:.2f}x floor + pydantic model"
    )

    heading("serverless: warm request through the handler vs the rules-layer call it wraps")
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
    from validate_move.handler import lambda_handler
    from validate_move.models import ValidateRequest

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
    print(f"{'case':<24}{'rules call':>12}{'handler':>12}{'ratio':>8}   (target <= 2x)")
    for name, case in cases.items():
        event = _validate_event(case)

        def rules_call(case=case):
            position = get_game(case["game"], case.get("options")).replay(case.get("moves", ()), case.get("fen"))
            move = position.parse_move(case["move"])
            after = position.play(move)
            return position.notation(move), after.fen(), after.status(), after.legal_notations()

        def through_handler(event=event):
            return lambda_handler(event, context)

        raw = best_of(rules_call, repeat=5, number=200)
        handled = best_of(through_handler, repeat=5, number=200)
        print(f"{name:<24}{raw * 1e6:10.0f}us{handled * 1e6:10.0f}us{handled / raw:7.2f}x")
    floor_event = _validate_event(cases["english, first move"])
    powertools = best_of(lambda: noop.resolve(floor_event, context), repeat=5, number=200)
    print(f"reference: Powertools' own validated resolve with a no-op route: {powertools * 1e6:.0f} us per request")


# ------------------------------------------------------------------ correspondence games (issue 4)


def bench_games() -> None:
    """DynamoDB reads, writes and item sizes per games request, and the warm move request on moto."""
    import os
    import random

    from moto import mock_aws

    os.environ.update(
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        AWS_DEFAULT_REGION="us-east-1",
        AWS_REGION="us-east-1",
        POWERTOOLS_LOG_LEVEL="ERROR",
    )
    os.environ.pop("DYNAMODB_ENDPOINT", None)
    with mock_aws():
        from common import store
        from games import handler

        from local.dynamodb import table_definitions
        from tests.games.client import Api

        store.reset_clients(session=True)  # a session made now, inside the mock
        store.create_tables(table_definitions())
        handler.configure()
        api = Api(handler)
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
            f"{len(per_move)} move requests: at most {reads} read(s) and {writes} write(s) each "
            f"(target: at most 1 read and 2 writes, every item under 1,024 B)"
        )
        print(
            f"worst case of a head, by construction: {_worst_head_size(store)} B (128 B of move indexes, "
            f"24-character names in 2-byte letters, the longest FEN and options)"
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

        heading("games: warm move request through the handler (moto) beside the validate function's")
        from validate_move.handler import lambda_handler as validate_handler

        namespace: dict = {}
        exec(_LAMBDA_CONTEXT, namespace)
        context = namespace["Context"]()
        validate_event = _validate_event({"game": "chess", "move": "e4"})
        validate = best_of(lambda: validate_handler(validate_event, context), repeat=5, number=200)
        fresh = [api.start_game("chess") for _ in range(60)]
        timings, in_store = [], []
        for game_id, seats in fresh:
            with meter:
                started = time.perf_counter()
                answer = api.move(seats["white"], game_id, "e4", 0)
                timings.append(time.perf_counter() - started)
            in_store.append(meter.seconds)
            assert answer.status == 200
        first_move, first_store = statistics.median(timings), statistics.median(in_store)
        long_id, long_seats = api.start_game("chess", fen="8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1")
        state = api.get(long_id).body
        chooser, late, late_store = random.Random(9), [], []
        while state["state"] == "active" and state["ply"] < 90:
            quiet = [move for move in state["legal_moves"] if "x" not in move] or state["legal_moves"]
            with meter:
                started = time.perf_counter()
                answer = api.move(long_seats[state["turn"]], long_id, chooser.choice(quiet), state["ply"])
                late.append(time.perf_counter() - started)
            late_store.append(meter.seconds)
            state = answer.body
        late_move, late_in_store = statistics.median(late[-20:]), statistics.median(late_store[-20:])
        print(f"{'':<44}{'total':>9}{'in moto':>10}{'function':>10}{'vs validate':>13}")
        print(f"{'validate request (chess, e4)':<44}{validate * 1e3:7.2f}ms{'':>10}{validate * 1e3:8.2f}ms")
        for label, total, stored in (
            ("move request (chess, e4)", first_move, first_store),
            (f"move request, quiet endgame (ply {state['ply']})", late_move, late_in_store),
        ):
            own = total - stored
            print(f"{label:<44}{total * 1e3:7.2f}ms{stored * 1e3:8.2f}ms{own * 1e3:8.2f}ms{own / validate:11.1f}x")
        print(
            "'in moto' is the time inside the 3 DynamoDB calls (moto serves them in-process; on AWS each is a "
            "few ms of network instead); 'function' is the rest: Powertools, pydantic, the rules, the fold."
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
        self.seconds = 0.0
        self._started = 0.0

    def _start(self, **_):
        self._started = time.perf_counter()

    def _stop(self, **_):
        if self._active:
            self.seconds += time.perf_counter() - self._started

    def _seen(self, params, model, **_):
        if self._active:
            self.calls.append((model.name, params))

    def __enter__(self):
        self.calls, self._active, self.seconds = [], True, 0.0
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
    """The largest head the games function can write: every field at its longest."""
    from games.logic import RECENT_MAX_BYTES

    name = "Ŵ" * 24
    fen = (
        "W:W"
        + ",".join(f"K{c}{r}" for c in "abcd" for r in (1, 3, 5))
        + ":B"
        + ",".join(f"K{c}{r}" for c in "efgh" for r in (2, 4, 6))
    )
    head = {
        "id": "x" * 12,
        "seq": 999_999,
        "game": "tanzanian",
        "options": {"threefold_repetition": True, "thirty_moves": True, "days_per_move": 14, "swap_colors": False},
        "state": "finished",
        "ply": 99_999,
        "turn": "white",
        "result": "draw",
        "reason": "three_kings_countdown",
        "anchor_fen": fen,
        "anchor_ply": 99_998,
        "recent": b"\xfe" * RECENT_MAX_BYTES,
        "recent_check": b"x" * 8,
        "created": 4_102_444_800_000,
        "updated": 4_102_444_800_000,
        "deadline": 4_102_444_800_000,
        "draw_offer": "white",
        "rematch": "x" * 12,
        "rematch_of": "x" * 12,
    }
    for color in ("white", "black"):
        head.update(
            {
                f"{color}_id": "x" * 12,
                f"{color}_key": b"x" * 32,
                f"{color}_name": name,
                f"{color}_order": 3 * 10**13 + 4_102_444_800_000,
            }
        )
    return store.item_size({**head, "pk": head.pop("id"), "sk": "H"})


SECTIONS = {"rules": bench_rules, "serverless": bench_serverless, "games": bench_games}


def main(argv: list[str] | None = None) -> None:
    names = (argv if argv is not None else sys.argv[1:]) or list(SECTIONS)
    for name in names:
        if name not in SECTIONS:
            raise SystemExit(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}")
        SECTIONS[name]()


if __name__ == "__main__":
    main()
