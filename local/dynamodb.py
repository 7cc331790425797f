"""The local DynamoDB: dynalite (npm, pinned in package-lock.json) with its data under ``.local/dynalite/``,
and the tables of ``template.yaml`` created in it.

* ``make run`` starts it through the runner's hook (``local_dynamodb``, with ``LOCAL_DYNAMODB_DIR`` set to
  ``.local/dynalite``): a free port on 127.0.0.1, the same data directory every time (games survive a
  restart), every table the template declares created if missing, ``DYNAMODB_ENDPOINT`` set for the
  functions, and the server stopped with the runner.
  With ``DYNAMODB_ENDPOINT`` already set (DynamoDB Local, another dynalite, AWS), nothing is started:
  only the missing tables are created there.
* The tests start their own servers with ``Dynalite`` (in memory or on a directory they choose) and
  create tables with ``table_definitions``: the template is the one schema.

    python -m local.dynamodb            # start dynalite on .local/dynalite and wait (Ctrl-C stops it)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from local.template import ROOT, Template

DATA_DIR = ROOT / ".local" / "dynalite"
CLI = ROOT / "node_modules" / "dynalite" / "cli.js"
ENDPOINT_VARIABLE = "DYNAMODB_ENDPOINT"
TABLE_TYPES = ("AWS::DynamoDB::Table", "AWS::Serverless::SimpleTable")
#: CreateTable takes these properties of AWS::DynamoDB::Table as they are; the others (point-in-time
#: recovery, tags, deletion protection, TTL) are not part of creating a table.
_CREATE_TABLE_PROPERTIES = (
    "AttributeDefinitions",
    "KeySchema",
    "BillingMode",
    "ProvisionedThroughput",
    "LocalSecondaryIndexes",
    "GlobalSecondaryIndexes",
)
_SIMPLE_TYPES = {"String": "S", "Number": "N", "Binary": "B"}


class DynaliteUnavailable(RuntimeError):
    """Node.js or the dynalite package is missing (the message says how to get them)."""


# ------------------------------------------------------------------------------------------- tables
def table_definitions(template: Template | None = None, suffix: str = "") -> list[dict[str, Any]]:
    """``CreateTable`` arguments for every table in the template, named by logical id (plus ``suffix``)."""
    template = template or Template()
    definitions = []
    for name, resource in template.resources.items():
        kind = resource.get("Type")
        if kind not in TABLE_TYPES:
            continue
        properties = resource.get("Properties") or {}
        if kind == "AWS::Serverless::SimpleTable":
            definition = _simple_table(properties)
        else:
            definition = {key: properties[key] for key in _CREATE_TABLE_PROPERTIES if key in properties}
            stream = properties.get("StreamSpecification")
            if stream:
                definition["StreamSpecification"] = {"StreamEnabled": True, **stream}
        definition.setdefault(
            "BillingMode", "PROVISIONED" if "ProvisionedThroughput" in definition else "PAY_PER_REQUEST"
        )
        definitions.append({"TableName": name + suffix, **_plain(definition)})
    return definitions


def _simple_table(properties: dict[str, Any]) -> dict[str, Any]:
    key = properties.get("PrimaryKey") or {"Name": "id", "Type": "String"}
    definition: dict[str, Any] = {
        "AttributeDefinitions": [{"AttributeName": key["Name"], "AttributeType": _SIMPLE_TYPES[key["Type"]]}],
        "KeySchema": [{"AttributeName": key["Name"], "KeyType": "HASH"}],
    }
    if properties.get("ProvisionedThroughput"):
        definition["ProvisionedThroughput"] = properties["ProvisionedThroughput"]
    return definition


def _plain(value: Any) -> Any:
    """cfn-lint's decoded nodes as plain dicts, lists, strings and ints (what botocore validates)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    return str(value)


def create_tables(definitions: list[dict[str, Any]]) -> list[str]:
    """Create each table (``CreateTable`` arguments from the template) that does not exist yet; the names
    created. Table administration lives here and in the tests, not in the functions: they only use tables.
    """
    store = _store()
    store.reset_clients()  # the endpoint and region as the environment says now
    existing = set(_list_tables(store.client()))
    created = []
    for definition in definitions:
        if definition["TableName"] in existing:
            continue
        try:
            store.client().create_table(**definition)
        except Exception as error:
            if getattr(error, "response", {}).get("Error", {}).get("Code") != "ResourceInUseException":
                raise
        created.append(definition["TableName"])
    for name in created:
        waiter = store.client().get_waiter("table_exists")
        waiter.wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
    return created


def delete_tables(names: list[str]) -> None:
    client = _store().client()
    for name in names:
        client.delete_table(TableName=name)


def _store() -> Any:
    """The functions' data-access module (its client: the endpoint, region and credentials they use)."""
    functions = str(ROOT / "functions")
    if functions not in sys.path:
        sys.path.insert(0, functions)
    from common.persistence import store

    return store


def _list_tables(client: Any) -> list[str]:
    names: list[str] = []
    params: dict[str, Any] = {}
    while True:
        answer = client.list_tables(**params)
        names.extend(answer.get("TableNames", ()))
        if "LastEvaluatedTableName" not in answer:
            return names
        params["ExclusiveStartTableName"] = answer["LastEvaluatedTableName"]


# ----------------------------------------------------------------------------------------- dynalite
def node_executable() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ------------------------------------------------------------------------------ a dynalite left behind
def dynalites_on(path: Path) -> list[int]:
    """Process ids of dynalite servers running on the data directory ``path`` (from their command lines).

    A runner killed hard (``kill -9``, a closed terminal on a system without parent-death signals) leaves its
    dynalite running, and that one holds the directory's LevelDB lock, so no second server can open it.
    """
    wanted = str(Path(path).resolve())
    found = []
    for pid, arguments in command_lines():
        if pid == os.getpid() or not any(part.endswith(os.path.join("dynalite", "cli.js")) for part in arguments):
            continue
        if "--path" in arguments[:-1] and str(Path(arguments[arguments.index("--path") + 1]).resolve()) == wanted:
            found.append(pid)
    return found


def command_lines() -> list[tuple[int, list[str]]]:
    """(pid, argv) of this user's processes: /proc on Linux, `ps` elsewhere."""
    proc = Path("/proc")
    if proc.is_dir():
        lines = []
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                raw = (entry / "cmdline").read_bytes()
            except OSError:  # gone meanwhile, or not ours to read
                continue
            if raw:
                lines.append((int(entry.name), raw.rstrip(b"\0").decode("utf-8", "replace").split("\0")))
        return lines
    listing = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=False).stdout
    return [(int(pid), args.split()) for pid, _, args in (line.strip().partition(" ") for line in listing.splitlines())]


class DataDirectoryInUse(RuntimeError):
    """A live runner's dynalite has the data directory: not stale, so not ours to stop."""


def owning_runner(pid: int) -> int | None:
    """The id of the live local runner (or `python -m local.dynamodb`) that started dynalite ``pid``, if any."""
    parent = parent_of(pid)
    if parent is None or parent <= 1:
        return None  # orphaned: its runner is gone
    arguments = dict(command_lines()).get(parent, [])
    return parent if {"local.runner", "local.dynamodb"} & set(arguments) else None


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        answer = subprocess.run(["ps", "-o", "ppid=", "-p", str(pid)], capture_output=True, text=True, check=False)
        return int(answer.stdout.strip()) if answer.stdout.strip().isdigit() else None


def stop_stale_dynalites(path: Path, timeout: float = 10.0) -> list[int]:
    """Stop every dynalite still running on ``path`` (SIGTERM, then SIGKILL); the ids of those stopped.

    Raises DataDirectoryInUse when a live runner owns it (two `make run` on one directory)."""
    stopped = []
    for pid in dynalites_on(path):
        runner = owning_runner(pid)
        if runner is not None:
            raise DataDirectoryInUse(f"another local runner (pid {runner}) is using {path}; stop it first, "
                                     "or give this one its own LOCAL_DYNAMODB_DIR")  # fmt: skip
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + timeout
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
            while _alive(pid) and time.monotonic() < deadline + timeout:
                time.sleep(0.05)
        stopped.append(pid)
    return stopped


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (exited, not yet reaped by its parent) holds no lock any more
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def _die_with_parent() -> None:
    """In the child before exec (Linux): SIGTERM when the runner dies, however it dies (even ``kill -9``)."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: stop_stale_dynalites() cleans up on the next start instead


class PortTaken(RuntimeError):
    """Another server listens on the port dynalite was to use."""


class Dynalite:
    """One dynalite server on 127.0.0.1: in memory, or persistent on ``path``."""

    def __init__(self, path: Path | None = None, port: int | None = None):
        self.path = Path(path) if path else None
        self.port = port or free_port()
        self._port_chosen = port is None  # ours to change if another server takes it before we bind
        self.process: subprocess.Popen[bytes] | None = None
        self._output: IO[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> Dynalite:
        for attempt in range(3):
            try:
                return self._start(timeout)
            except PortTaken:
                if not self._port_chosen or attempt == 2:
                    raise
                self.port = free_port()  # a free port is free only until someone binds it: draw again
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> Dynalite:
        node = node_executable()
        if node is None:
            raise DynaliteUnavailable("Node.js is not installed: the local DynamoDB (dynalite) runs on it")
        if not CLI.is_file():
            raise DynaliteUnavailable("dynalite is not installed: `make node` (npm ci) installs it into node_modules/")
        command = [node, str(CLI), "--host", "127.0.0.1", "--port", str(self.port)]
        # Tables are ACTIVE at once (dynalite imitates AWS's delays by default).
        command += ["--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"]
        if self.path:
            self.path.mkdir(parents=True, exist_ok=True)
            command += ["--path", str(self.path)]
        # A file, not a pipe: a long-running server must never block on output no one reads. Closed in stop().
        self._output = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            # Its own session: Ctrl-C reaches the runner, which stops dynalite after the last request.
            command,
            stdout=self._output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        try:
            return self._wait_until_listening(timeout)
        except BaseException:  # Ctrl-C or SIGTERM while it starts: never leave it running
            self.stop()
            raise

    def _wait_until_listening(self, timeout: float) -> Dynalite:
        assert self.process is not None and self._output is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._output.seek(0)
                output = self._output.read().decode("utf-8", "replace")
                if "EADDRINUSE" in output:
                    raise PortTaken(f"port {self.port} is taken")
                raise RuntimeError(f"dynalite stopped at start (exit {self.process.returncode}): {output.strip()}")
            # Our own process's word, not a connection: another server that took the same free port in the
            # meantime would accept one too, and this one would then die on EADDRINUSE unseen.
            self._output.seek(0)
            if b"listening at" in self._output.read().lower():
                return self
            time.sleep(0.05)
        raise RuntimeError(f"dynalite did not listen on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        """Stop the server and wait for it, so its data directory can be opened again at once."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):  # stuck, or a second Ctrl-C: no more waiting
            process.kill()
            process.wait(timeout=10)
        if self._output is not None:
            self._output.close()
            self._output = None

    def __enter__(self) -> Dynalite:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# -------------------------------------------------------------------------------- the runner's hook
DATA_DIR_VARIABLE = "LOCAL_DYNAMODB_DIR"  # `make run` sets it to .local/dynalite


@contextmanager
def local_dynamodb(template: Template | None = None, data_dir: Path | None = None) -> Iterator[str | None]:
    """A DynamoDB for the functions while the runner runs; yields its endpoint (None: no DynamoDB).

    ``DYNAMODB_ENDPOINT`` set: that one (the template's missing tables are created in it). Otherwise, with a
    data directory (``data_dir`` or ``LOCAL_DYNAMODB_DIR``): dynalite on it, stopped on the way out.
    Otherwise nothing: the runner serves what needs no DynamoDB. Messages go to stderr.
    """
    endpoint = os.environ.get(ENDPOINT_VARIABLE)
    if data_dir is None and os.environ.get(DATA_DIR_VARIABLE):
        data_dir = Path(os.environ[DATA_DIR_VARIABLE])
    server = None
    if not endpoint:
        if data_dir is None:
            yield None
            return
        try:
            stale = stop_stale_dynalites(data_dir)
        except DataDirectoryInUse as problem:
            print(f"error: {problem}", file=sys.stderr, flush=True)
            raise SystemExit(1) from None
        if stale:
            print(
                f"stopped a dynalite an earlier run left on {data_dir} (pid {', '.join(map(str, stale))}); "
                "starting a fresh one on the same data",
                file=sys.stderr,
                flush=True,
            )
        try:
            server = Dynalite(path=data_dir).start()
        except (DynaliteUnavailable, RuntimeError, OSError) as problem:
            print(
                f"warning: no local DynamoDB ({problem}); games and players will answer 503. Set "
                f"{ENDPOINT_VARIABLE} to use another DynamoDB.",
                file=sys.stderr,
                flush=True,
            )
            yield None
            return
        endpoint = server.endpoint
    previous = os.environ.get(ENDPOINT_VARIABLE)
    os.environ[ENDPOINT_VARIABLE] = endpoint
    try:
        where = f"dynalite with its data in {data_dir}" if server else endpoint
        try:
            created = create_tables(table_definitions(template))
        except Exception as problem:
            print(f"warning: DynamoDB at {where} does not answer ({type(problem).__name__}: {problem}); "
                  "games and players will answer 503", file=sys.stderr, flush=True)  # fmt: skip
        else:
            print(
                f"DynamoDB: {where}" + (f"; created {', '.join(created)}" if created else ""),
                file=sys.stderr,
                flush=True,
            )
        yield endpoint
    finally:
        if previous is None:
            os.environ.pop(ENDPOINT_VARIABLE, None)
        else:
            os.environ[ENDPOINT_VARIABLE] = previous
        if server:
            server.stop()


def main() -> int:
    with local_dynamodb(data_dir=Path(os.environ.get(DATA_DIR_VARIABLE) or DATA_DIR)) as endpoint:
        if endpoint is None:
            return 1
        print(f"{ENDPOINT_VARIABLE}={endpoint}  (Ctrl-C stops it)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
