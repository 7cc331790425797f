"""The packaged build served as it would be deployed: each function in its own isolated interpreter.

``make run PACKAGED=1`` (``python -m local.runner --packaged build/host``) and tests/deploy use it. Each
function of ``<build>/template.json`` runs in ``python -I -S local/lambda_host.py`` with only its code
package, the layer's python/ and the runtime stand-in (boto3) importable, so a missing file or dependency
fails here as it would on Lambda, not later in production.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from local.events import LambdaContext
from local.package import RUNTIME_DIR_NAME
from local.template import Function, Template

HOST_SCRIPT = Path(__file__).resolve().parent / "lambda_host.py"


class FunctionCrashed(RuntimeError):
    """The function raised (Lambda's unhandled error) or its process died; the message has the trace."""


def import_paths(function: Function, build: Path) -> list[Path]:
    """What Lambda puts on sys.path: the code package, each layer's python/ (/opt/python), the runtime."""
    return [function.code_dir, *(layer / "python" for layer in function.layer_dirs), build / RUNTIME_DIR_NAME]


class PackagedFunction:
    """One function of the packaged template, started on its first request like a Lambda cold start."""

    def __init__(self, function: Function, extra_environment: dict[str, str], build: Path):
        self.function = function
        self.environment = {**function.environment, **extra_environment}
        self.build = Path(build).resolve()
        self.process: subprocess.Popen[str] | None = None
        self.modules_at_start: list[str] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        # -B: Lambda's code directory is read-only (no __pycache__ written into the build either).
        command = [sys.executable, "-I", "-S", "-B", str(HOST_SCRIPT), self.function.handler]
        command += [str(path) for path in import_paths(self.function, self.build)]
        environment = {**os.environ, **self.environment}
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment, text=True, cwd=self.build
        )
        self.modules_at_start = self._read().get("ready", [])

    def invoke(self, event: dict[str, Any]) -> Any:
        context = LambdaContext(
            function_name=self.function.name,
            memory_limit_in_mb=self.function.memory_mb,
            timeout_seconds=self.function.timeout_seconds,
        )
        details = {
            "function_name": context.function_name,
            "memory_limit_in_mb": context.memory_limit_in_mb,
            "timeout_seconds": context.timeout_seconds,
            "aws_request_id": context.aws_request_id,
        }
        answer = self._ask({"event": event, "context": details})
        if "error" in answer:
            raise FunctionCrashed(answer["error"])
        return answer["result"]

    def loaded_modules(self) -> dict[str, str | None]:
        """{module name: file} of everything this instance has imported so far."""
        modules: dict[str, str | None] = self._ask({"modules": True})["modules"]
        return modules

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self.process is None or self.process.poll() is not None:
                self.start()
            assert self.process and self.process.stdin
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            return self._read()

    def _read(self) -> dict[str, Any]:
        assert self.process and self.process.stdout
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self.process = None
            raise FunctionCrashed(f"{self.function.name} stopped (exit {code}); its output is above")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.stdin:
            process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def packaged_functions(build: Path, extra_environment: dict[str, str]) -> tuple[Template, dict[str, PackagedFunction]]:
    """The packaged template of ``build`` and one PackagedFunction per function in it."""
    template = Template(build / "template.json")
    functions = {
        name: PackagedFunction(function, extra_environment, build) for name, function in template.functions.items()
    }
    return template, functions
