"""Section ``serverless``: the functions' cold starts and warm requests as Lambda runs them."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from tests.bench.common import _LAMBDA_CONTEXT, _interleaved_process_medians, _lambda_env, _validate_event, heading


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

    cases: dict[str, dict[str, Any]] = {  # the requests' JSON bodies
        "chess, first move": {"game": "chess", "move": "e4"},
        "chess, 6-move history": {"game": "chess", "moves": ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], "move": "Ba4"},
        "english, first move": {"game": "english", "move": "9-13"},
        "tanzanian, first move": {"game": "tanzanian", "move": "a3-b4"},
    }
    timers: dict[tuple[str, str], Callable[[], object]] = {}
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
        timers[name, "logic"] = partial(validate_move, parsed)
        timers[name, "handler"] = partial(lambda_handler, event, context)
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
