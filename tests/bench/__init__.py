"""``make bench``: every speed claim, measured side by side with its reference in the same run.

Each section prints its numbers and the ratio that its target is about. Nothing here is a test: timings on
a shared machine vary, ratios measured in one run are what we compare. Run one section:
``python -m tests.bench rules`` (names: ``SECTIONS``).

One module per section (``tests/bench/<module>.py``, its function named in ``SECTIONS``); what sections
share is in ``common`` (re-exported here) and ``replay``. A new section is a module and one line in
``SECTIONS``: modules are imported only when their section runs.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from tests.bench.common import (
    _LAMBDA_CONTEXT,
    ROOT,
    _function,
    _interleaved_process_medians,
    _lambda_env,
    _moto_environment,
    _no_limits,
    _rounds,
    _validate_event,
    best_of,
    heading,
    median_process_time,
)

__all__ = [
    "ROOT",
    "SECTIONS",
    "_LAMBDA_CONTEXT",
    "_function",
    "_interleaved_process_medians",
    "_lambda_env",
    "_moto_environment",
    "_no_limits",
    "_rounds",
    "_validate_event",
    "best_of",
    "heading",
    "main",
    "median_process_time",
]

#: Each section's name, and where its function is: "module:function", the module under ``tests.bench``.
SECTIONS: dict[str, str] = {
    "rules": "rules:bench_rules",
    "package": "package:bench_package",
    "serverless": "serverless:bench_serverless",
    "games": "games:bench_games",
    "length": "length:bench_game_length",
    "engine": "engine:bench_engine",
    "puzzles": "puzzles:bench_puzzles",
    "offline": "offline:bench_offline",
    "push": "push:bench_push",
    "capacity": "capacity:bench_capacity",
    "review": "review:bench_review",
    "live": "live:bench_live",
    "live_socket": "live_socket:bench_live_socket",
    "lobby": "lobby:bench_lobby",
    "history": "history:bench_history",
    "ratings": "ratings:bench_ratings",
    "routes": "routes:bench_routes",
    "verify": "verify:bench_verify",
    "tournaments": "tournaments:bench_tournaments",
}


def section(name: str) -> Callable[[], None]:
    """The function that runs section ``name``."""
    module, function = SECTIONS[name].split(":")
    found: Callable[[], None] = getattr(importlib.import_module(f"tests.bench.{module}"), function)
    return found


def main(argv: list[str] | None = None) -> None:
    names = (argv if argv is not None else sys.argv[1:]) or list(SECTIONS)
    for name in names:
        if name not in SECTIONS:
            raise SystemExit(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}")
        section(name)()
