"""One packaged function in a process of its own, as a Lambda instance runs it: stdlib only.

    python -I -S -B local/lambda_host.py HANDLER DIR [DIR ...]

``-I -S``: no site-packages, no PYTHONPATH, no current directory; the only importable code is the standard
library and the DIRs (the function's package, the layer's python/, and the stand-in for the runtime's
boto3). It imports HANDLER (``games.handler.lambda_handler``) and then answers one invocation per line of
stdin, ``{"event": {...}, "context": {...}}``, with one line ``{"result": ...}`` or ``{"error": "..."}`` on
the protocol stream (the original stdout). Whatever the function prints or logs goes to stderr, as
Lambda sends it to CloudWatch. The local runner (``make run PACKAGED=1``) and tests/deploy use it.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, TextIO


class Context:
    """The parts of Lambda's context object the functions read."""

    def __init__(self, details: dict[str, Any]):
        self.function_name = details.get("function_name", "function")
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = int(details.get("memory_limit_in_mb", 128))
        self.aws_request_id = details.get("aws_request_id", "local")
        self.invoked_function_arn = f"arn:aws:lambda:local:000000000000:function:{self.function_name}"
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = "local"
        self._deadline = time.monotonic() + float(details.get("timeout_seconds", 3))

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def main(argv: list[str]) -> int:
    handler_name, directories = argv[0], argv[1:]
    # Ctrl-C reaches the whole terminal group: the runner stops this process by closing its stdin, after
    # the request in progress, instead of each function dying with a KeyboardInterrupt trace.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.path[:0] = directories  # Lambda: the code package first, then /opt/python, then the runtime
    # No system time-zone database, as on Lambda's minimal image: zoneinfo must find the package's tzdata.
    import zoneinfo

    zoneinfo.reset_tzpath(to=[])
    protocol = protocol_stream()
    module_name, _, attribute = handler_name.rpartition(".")
    serve(getattr(importlib.import_module(module_name), attribute), protocol)
    return 0


def protocol_stream() -> TextIO:
    """The original stdout, for the protocol; from now on whatever the function prints goes to stderr."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol


def serve(
    handler: Callable[[Any, Any], Any],
    protocol: TextIO,
    around: Callable[[dict[str, Any], Callable[[], dict[str, Any]]], dict[str, Any]] = lambda request, run: run(),
) -> None:
    """Say ready, then answer each line of stdin until it closes (``around`` wraps each invocation)."""
    protocol.write(json.dumps({"ready": sorted(sys.modules)}) + "\n")
    protocol.flush()
    for line in sys.stdin:
        request = json.loads(line)
        answer: dict[str, Any]
        if request.get("modules"):  # what this instance has imported so far, and from where
            files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
            answer = {"modules": files}
        else:
            answer = around(request, functools.partial(_invoke, handler, request))
        protocol.write(json.dumps(answer, default=str) + "\n")
        protocol.flush()


def _invoke(handler: Callable[[Any, Any], Any], request: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"result": handler(request["event"], Context(request.get("context") or {}))}
    except Exception:  # Lambda reports an unhandled error; API Gateway answers a bare 500
        return {"error": traceback.format_exc()}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
