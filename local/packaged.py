"""The packaged build served as it would be deployed: each function in its own isolated interpreter.

``make run PACKAGED=1`` (``python -m local.runner --packaged build/host``) and tests/deploy use it. Each
function of ``<build>/template.json`` runs in ``python -I -S local/lambda_host.py`` with only its code
package, the layer's python/ and the runtime stand-in (boto3) importable, so a missing file or dependency
fails here as it would on Lambda, not later in production.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from local.instances import FunctionCrashed, Instance, context_details
from local.package import RUNTIME_DIR_NAME
from local.template import Function, Template

HOST_SCRIPT = Path(__file__).resolve().parent / "lambda_host.py"


def import_paths(function: Function, build: Path) -> list[Path]:
    """What Lambda puts on sys.path: the code package, each layer's python/ (/opt/python), the runtime."""
    return [function.code_dir, *(layer / "python" for layer in function.layer_dirs), build / RUNTIME_DIR_NAME]


class PackagedFunction:
    """One function of the packaged template, started on its first request like a Lambda cold start (one
    instance: ``make run PACKAGED=1`` checks the build, not the speed)."""

    def __init__(self, function: Function, extra_environment: dict[str, str], build: Path):
        self.function = function
        self.environment = {**function.environment, **extra_environment}
        self.build = Path(build).resolve()
        self.instance: Instance | None = None
        self.modules_at_start: list[str] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        # -B: Lambda's code directory is read-only (no __pycache__ written into the build either).
        command = [sys.executable, "-I", "-S", "-B", str(HOST_SCRIPT), self.function.handler]
        command += [str(path) for path in import_paths(self.function, self.build)]
        self.instance = Instance(command, {**os.environ, **self.environment}, cwd=self.build)
        self.modules_at_start = self.instance.modules_at_start

    def invoke(self, event: dict[str, Any]) -> Any:
        answer = self._ask({"event": event, "context": context_details(self.function)})
        if "error" in answer:
            raise FunctionCrashed(answer["error"])
        return answer["result"]

    def loaded_modules(self) -> dict[str, str | None]:
        """{module name: file} of everything this instance has imported so far."""
        modules: dict[str, str | None] = self._ask({"modules": True})["modules"]
        return modules

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self.instance is None or not self.instance.alive():
                self.start()
            assert self.instance is not None
            try:
                return self.instance.ask(request)
            except FunctionCrashed:
                self.instance = None  # started again on the next request
                raise

    def stop(self) -> None:
        instance, self.instance = self.instance, None
        if instance is not None:
            instance.stop()


def packaged_functions(build: Path, extra_environment: dict[str, str]) -> tuple[Template, dict[str, PackagedFunction]]:
    """The packaged template of ``build`` and one PackagedFunction per function in it."""
    template = Template(build / "template.json")
    functions = {
        name: PackagedFunction(function, extra_environment, build) for name, function in template.functions.items()
    }
    return template, functions
