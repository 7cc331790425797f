"""`make bench` section "capacity": each HTTP function's cold start (a fresh interpreter importing its handler,
as Lambda's INIT phase does) in CPU time, beside the bare interpreter in the same run, and what that CPU time
becomes at 256, 512, 1,024 and 1,769 MB on Lambda, where a function gets CPU in proportion to its memory
(one full vCPU at 1,769 MB). docs/capacity.md reads these numbers, with the warm CPU time per route that
`make load` measures.

The mapping assumes Lambda's core runs Python as fast as this machine's (unknown for Graviton; the ratio
between functions holds either way) and that INIT gets the same share of CPU as a request.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The functions behind the HTTP API (the stream and schedule functions are not on a player's path).
FUNCTIONS = (
    "ValidateMoveFunction",
    "RulesPageFunction",
    "GamesFunction",
    "PuzzlesFunction",
    "PushFunction",
    "ApiFallbackFunction",
)
MEMORY_SIZES = (256, 512, 1024, 1769)
FULL_VCPU_MB = 1769


def wall_ms(cpu_ms: float, memory_mb: int) -> float:
    """The wall time of ``cpu_ms`` of single-threaded CPU work at ``memory_mb`` (its share of one vCPU)."""
    return cpu_ms * FULL_VCPU_MB / min(memory_mb, FULL_VCPU_MB)


def gb_seconds(cpu_ms: float, memory_mb: int) -> float:
    """What Lambda bills for that work: memory in GB times the wall time."""
    return memory_mb / 1024 * wall_ms(cpu_ms, memory_mb) / 1000


@contextlib.contextmanager
def lambda_layers(function: Any) -> Iterator[Path]:
    """A directory holding the function's layers under their package names, as /opt/python holds them."""
    with tempfile.TemporaryDirectory() as layer_root:
        for layer in function.layer_dirs:
            (Path(layer_root) / layer.name).symlink_to(layer, target_is_directory=True)
        yield Path(layer_root)


def cold_start_environment(function: Any, layer_root: Path) -> dict[str, str]:
    """A fresh Lambda interpreter's environment (``_lambda_env``), with the repository standing in for the puzzle
    sets that travel beside the code (make package copies puzzles/)."""
    from tests.bench.common import ROOT, _lambda_env

    env = _lambda_env(function, layer_root)
    env["PYTHONPATH"] += os.pathsep + str(ROOT)
    return env


def bench_capacity() -> None:
    from local.template import Template
    from tests.bench.common import _interleaved_process_medians, heading

    heading("capacity: cold start (import the handler) per function, CPU time, median of 7")
    template = Template()
    print(
        f"{'function':22} {'MB':>5} {'import':>7} {'-floor':>7}  wall ms at "
        + " ".join(f"{m:>6}" for m in MEMORY_SIZES)
    )
    for name in FUNCTIONS:
        function = template.functions[name]
        programs = {"floor": "pass", "handler": f"from {function.module} import {function.attribute}"}
        with lambda_layers(function) as layer_root:
            env = cold_start_environment(function, layer_root)
            medians = _interleaved_process_medians(programs, env, function.code_dir, runs=7)
        cpu_ms = medians["handler"] * 1000
        above = cpu_ms - medians["floor"] * 1000
        walls = " ".join(f"{wall_ms(cpu_ms, memory):6.0f}" for memory in MEMORY_SIZES)
        print(f"{name:22} {function.memory_mb:5d} {cpu_ms:7.0f} {above:7.0f}  {'':10} {walls}")
        billed = gb_seconds(cpu_ms, function.memory_mb)
        print(
            f"{'':22} at its {function.memory_mb} MB: {wall_ms(cpu_ms, function.memory_mb):.0f} ms, {billed:.3f} GB-s"
        )
    print("below 1,769 MB the GB-seconds of a CPU-bound cold start are the same at any size (time x memory is")
    print("constant); above it the time stops falling and the bill grows with the memory")
    bench_validate_layers()


#: Where a frame's time is counted, by the first matching part of its file name (cProfile's own time).
_LAYERS = (
    ("aws_lambda_powertools", "Powertools (routing, validation, logger, metrics)"),
    ("pydantic", "pydantic (models in and out)"),
    ("/functions/common/", "ours: common (edge, errors, Api)"),
    ("/functions/validate_move/", "ours: validate_move"),
    ("shared_rules", "the rules layer"),
    ("/json/", "json"),
    ("/logging/", "logging"),
)


def _layer(filename: str) -> str:
    for part, layer in _LAYERS:
        if part in filename:
            return layer
    return "the rest (stdlib, builtins)"


def bench_validate_layers() -> None:
    """Where a warm English draughts validate spends its time, by layer: cProfile's own time per frame,
    grouped by package, scaled to the request's CPU time measured without the profiler."""
    import cProfile
    import pstats

    from local.template import Template
    from tests.bench.common import _LAMBDA_CONTEXT, _validate_event, heading

    heading("capacity: a warm validate (English draughts, first move), CPU time by layer")
    os.environ.update(Template().functions["ValidateMoveFunction"].environment)
    from validate_move.handler import lambda_handler

    namespace: dict = {}
    exec(_LAMBDA_CONTEXT, namespace)
    context = namespace["Context"]()
    event = _validate_event({"game": "english", "move": "9-13"})
    best = float("inf")
    for _ in range(7):
        started = time.process_time()
        for _ in range(200):
            lambda_handler(event, context)
        best = min(best, (time.process_time() - started) / 200)
    profile = cProfile.Profile()
    profile.runcall(lambda: [lambda_handler(event, context) for _ in range(1000)])
    layers: dict[str, float] = {}
    rest: dict[str, float] = {}
    for (filename, _, name), (_, _, own, _, _) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        layer = _layer(filename)
        layers[layer] = layers.get(layer, 0.0) + own
        if layer.startswith("the rest"):
            rest[name] = rest.get(name, 0.0) + own
    total = sum(layers.values())
    print(f"one request: {best * 1e6:.0f} us of CPU (best of 7 rounds of 200, no profiler; its log line written)")
    for layer, own in sorted(layers.items(), key=lambda item: -item[1]):
        print(f"  {layer:52} {own / total * best * 1e6:6.0f} us  {own / total:5.1%}")
    for name, own in sorted(rest.items(), key=lambda item: -item[1])[:4]:
        print(f"    of the rest: {name[:60]:60} {own / total * best * 1e6:6.0f} us")
