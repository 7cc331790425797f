"""What the bench's sections share: timing helpers, the Lambda-like context and events, and moto without the
per-client limits. ``tests.bench`` re-exports these names for the section modules that import them from there.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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


@contextlib.contextmanager
def _games_on_moto():
    """The games function on moto with the template's tables and no per-client limits: (its API, a
    ``_StoreMeter`` of its DynamoDB calls)."""
    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from games import handler

        from local.dynamodb import create_tables, table_definitions
        from tests.bench.replay import _StoreMeter
        from tests.games.client import Api

        store.reset_clients(session=True)  # a session made now, inside the mock
        create_tables(table_definitions())
        yield Api(_function(handler)), _StoreMeter(store)
    store.reset_clients()


def _no_limits() -> dict:
    """``dependency_overrides`` that give a function buckets that never run out."""
    from common.web import depends

    return {depends.rate_buckets: _NoLimits}


def _function(module):
    """A handler module whose resolvers have no per-client limits (``tests.fixtures.Function``)."""
    from tests.fixtures import Function

    return Function(module, _no_limits())


class _NoLimits:
    """A ``ratelimit.BucketRepository`` whose buckets never run out (the bench's client only)."""

    def take(self, key: str, cost: float, limit, now: float) -> float:
        return 0.0


def _rounds(default: int) -> int:
    """Rounds per cell: BENCH_ROUNDS for a steadier median on a busy machine."""
    import os

    return int(os.environ.get("BENCH_ROUNDS", default))
