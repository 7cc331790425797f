"""A function's instances for the local runner, as Lambda runs them: each instance a process of its own that
answers one invocation at a time, and as many instances at once as requests come at once (up to a limit).

Why processes and not threads: Powertools keeps the event being resolved in class state (``BaseRouter.
current_event``), shared by every resolver and router of a process, so two requests resolved at once in one
process read each other's headers; and each function has its own environment. A process per instance keeps
each request as isolated as on Lambda, and whatever an instance keeps between requests (its recent heads, its
clients) stays its own, as on a warm Lambda instance.

    python -m local.instances HANDLER DIR [DIR ...]      (the runner starts these; never by hand)

An instance speaks local/lambda_host.py's protocol (one JSON line per invocation each way), with what
`make run` adds: each invocation carries the runner's clock offset (local/clock.py), and each answer what the
invocation spent (``usage``: its DynamoDB calls and CPU seconds, for local/probe.py).

``LOCAL_INSTANCES`` caps the instances of each function; by default one per core (at least two). More would
only share the cores: every request would take longer, past its deadline (``common.persistence.deadline``
cuts its store calls: 503s that the phones send again), and a loaded machine would serve fewer requests, not
more. A request that finds them all busy waits for the first free one (its time on Lambda starts when an
instance takes it, as here), like a burst on an account at its concurrency limit.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from local import clock as local_clock
from local.events import LambdaContext
from local.template import ROOT, Function

#: The environment variable that caps each function's instances.
LIMIT_VARIABLE = "LOCAL_INSTANCES"
#: The environment variable that starts this many instances of each function as the runner starts (default 0:
#: every instance starts on a request, as on Lambda), like Lambda's provisioned concurrency.
WARM_VARIABLE = "LOCAL_WARM_INSTANCES"


class FunctionCrashed(RuntimeError):
    """The function raised (Lambda's unhandled error) or its process died; the message has the trace."""


def instance_limit() -> int:
    return max(1, int(os.environ.get(LIMIT_VARIABLE) or max(2, os.cpu_count() or 1)))


def warm_count() -> int:
    """How many instances of each function the runner starts before any request (``WARM_VARIABLE``)."""
    return max(0, int(os.environ.get(WARM_VARIABLE) or 0))


def context_details(function: Any) -> dict[str, Any]:
    """What an instance needs to build the invocation's Lambda context (``function``: a template Function)."""
    context = LambdaContext(
        function_name=function.name, memory_limit_in_mb=function.memory_mb, timeout_seconds=function.timeout_seconds
    )
    return {
        "function_name": context.function_name,
        "memory_limit_in_mb": context.memory_limit_in_mb,
        "timeout_seconds": context.timeout_seconds,
        "aws_request_id": context.aws_request_id,
    }


class Instance:
    """One instance: a process started now (a cold start), answering one request at a time."""

    def __init__(self, command: Sequence[str], environment: dict[str, str], cwd: Path):
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment, text=True, cwd=cwd
        )
        try:
            self.modules_at_start: list[str] = self._read().get("ready", [])
        except FunctionCrashed:
            self.stop()
            raise

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The instance's answer to one request; ``FunctionCrashed`` when its process is gone."""
        assert self.process.stdin
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError) as error:
            raise FunctionCrashed(f"the instance stopped (exit {self.process.poll()}); its output is above") from error
        return self._read()

    def close(self) -> None:
        """Tell it to end (it does after the request in progress)."""
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()

    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout
        line = self.process.stdout.readline()
        if not line:
            raise FunctionCrashed(f"the instance stopped (exit {self.process.wait()}); its output is above")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def stop(self) -> None:
        """Close its stdin (it ends after the request in progress), then wait for it (or kill it)."""
        self.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


class InstancePool:
    """A function's instances: an idle one takes the request (the last used first: the warmest), else the
    first to be free does, while a new one starts if fewer than ``limit`` run."""

    def __init__(self, start: Callable[[], Instance], limit: int):
        self.start = start
        self.limit = limit
        self.started = 0  # instances started so far (each a cold start)
        self._idle: list[Instance] = []
        self._all: set[Instance] = set()  # idle and busy, so that stopping leaves no process behind
        self._running = 0
        self._failure: str | None = None  # why the last cold start failed, for a request waiting
        self._stopped = False
        self._changed = threading.Condition()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        instance = self._take()
        try:
            answer = instance.ask(request)
        except BaseException:
            self._drop(instance)
            raise
        self._give_back(instance)
        return answer

    def warm(self, count: int) -> None:
        """Start instances now, one after another, until ``count`` have started (never over ``limit``): the
        requests that come meanwhile are served as usual. A cold start that fails is left to the first request."""
        while True:
            with self._changed:
                if self._stopped or self.started >= min(count, self.limit):
                    return
                self._running += 1
                self.started += 1
            self._start_one()

    def _take(self) -> Instance:
        """The first instance free: an idle one, or one that ends its request or its cold start first (a new
        one starts, beside the others, while fewer than ``limit`` run: a request never waits for a cold start
        when a warm instance is free sooner)."""
        with self._changed:
            while True:
                if self._idle:
                    return self._idle.pop()
                if self._stopped:
                    raise FunctionCrashed("the runner is stopping")
                if self._failure is not None:
                    failure, self._failure = self._failure, None
                    raise FunctionCrashed(failure)
                if self._running < self.limit:
                    self._running += 1
                    self.started += 1
                    threading.Thread(target=self._start_one, name="local-cold-start", daemon=True).start()
                self._changed.wait()

    def _start_one(self) -> None:
        try:
            instance = self.start()
        except Exception as error:  # the function cannot even be imported: the request waiting is told
            with self._changed:
                self._running -= 1
                self._failure = str(error)
                self._changed.notify_all()
            return
        with self._changed:
            self._all.add(instance)
        self._give_back(instance)

    def _give_back(self, instance: Instance) -> None:
        with self._changed:
            if not self._stopped and instance.alive():
                self._idle.append(instance)
                self._changed.notify()
                return
        self._drop(instance)

    def _drop(self, instance: Instance) -> None:
        instance.stop()
        with self._changed:
            self._all.discard(instance)
            self._running -= 1
            self._changed.notify()

    def stop(self) -> None:
        """Stop every instance: each ends after the request in progress, or is killed 5 s later."""
        with self._changed:
            self._stopped = True
            self._idle = []
            every = list(self._all)
        for instance in every:  # all told first, so that they end together
            instance.close()
        for instance in every:
            instance.stop()


class LocalFunction:
    """One function of the template, from the source tree, in instances of its own (an ``InstancePool``): each a
    process answering one request at a time, started on demand like a Lambda cold start."""

    isolated = True  # its instances share nothing with the runner or each other: any number may run at once

    def __init__(self, function: Function, extra_environment: dict[str, str]):
        self.function = function
        self.environment = {**function.environment, **extra_environment}
        self.on_usage: Callable[[dict[str, Any]], None] | None = None  # told what each invocation spent (probe)
        self.instances = InstancePool(self._start_instance, instance_limit())
        self._last = threading.local()

    def invoke(self, event: dict[str, Any]) -> Any:
        request = {
            "event": event,
            "context": context_details(self.function),
            "clock": local_clock.CLOCK.offset,
            "pace": local_clock.PACE.offset,
        }
        self._last.writes = None
        answer = self.instances.ask(request)
        usage = answer.get("usage") or {}
        self._last.writes = usage.pop("writes", None) if usage.get("dynamodb") else None
        if self.on_usage is not None and "usage" in answer:
            self.on_usage(answer["usage"])
        if "error" in answer:
            raise FunctionCrashed(answer["error"])
        return answer["result"]

    def writes(self) -> list[dict[str, Any]] | None:
        """The items this thread's last invocation wrote (``local.probe.Meter``); None when it cannot tell."""
        found: list[dict[str, Any]] | None = getattr(self._last, "writes", None)
        return found

    def stop(self) -> None:
        self.instances.stop()

    def warm(self, count: int) -> None:
        self.instances.warm(count)

    def _start_instance(self) -> Instance:
        command = [sys.executable, "-m", "local.instances", self.function.handler]
        command += [str(path) for path in self.function.import_paths]
        return Instance(command, {**os.environ, **self.environment}, cwd=ROOT)


def main(argv: list[str]) -> int:
    """One instance of a function of the source tree: local/lambda_host.py's loop, with the runner's clock and
    the probe's meter around each invocation."""
    import signal

    from local import lambda_host
    from local.probe import Meter

    handler_name, directories = argv[0], argv[1:]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner stops its instances by closing their stdin
    sys.path[:0] = directories
    protocol = lambda_host.protocol_stream()
    module_name, _, attribute = handler_name.rpartition(".")
    module = importlib.import_module(module_name)
    handler = getattr(module, attribute)
    if local_clock.enabled():  # a clock the tests move: the runner's offset comes with each invocation
        handler = local_clock.give_to(module, attribute)
    meter = Meter()
    meter.listen()

    def around(request: dict[str, Any], run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        local_clock.CLOCK.offset = float(request.get("clock") or 0.0)
        local_clock.PACE.offset = float(request.get("pace") or 0.0)
        return meter.measure(run)

    lambda_host.serve(handler, protocol, around)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
