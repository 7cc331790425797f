"""Fixtures of the functions' tests, in every folder (tests/conftest.py registers them): the template's tables on
moto or on a real dynalite server, an injected clock, the games function and its API. A folder's conftest.py
adds its own (or replaces one of these by name)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import uuid

import pytest

# Imported before any test makes a DynamoDB client: moto hooks into every botocore session made after this.
from moto import mock_aws

from local.dynamodb import CLI, Dynalite, create_tables, node_executable, table_definitions
from local.template import ROOT, Template
from tests.clocks import ManualClock


@pytest.fixture(scope="session")
def template_tables() -> list[dict]:
    """The tables of template.yaml as CreateTable arguments (the one schema)."""
    return table_definitions(Template())


@pytest.fixture(scope="session")
def table_variables(template_tables) -> dict[str, str]:
    """Each table's environment variable as the template's functions name it (``GAMES_TABLE``: ``GamesTable``)."""
    names = {table["TableName"] for table in template_tables}
    return {
        variable: value
        for function in Template().functions.values()
        for variable, value in function.environment.items()
        if value in names
    }


def use_tables(monkeypatch, definitions: list[dict], variables: dict[str, str], suffix: str) -> list[dict]:
    """Every table made under its name and ``suffix``, and each function's variable naming it (RATE_LIMIT_TABLE
    too: the buckets in their table, as on Lambda, not in this process)."""
    from common.persistence import store

    tables = [{**definition, "TableName": definition["TableName"] + suffix} for definition in definitions]
    for variable, name in variables.items():
        monkeypatch.setenv(variable, name + suffix)
    store.reset_clients()
    create_tables(tables)
    return tables


@pytest.fixture
def aws_env(monkeypatch):
    for name in ("AWS_PROFILE", "DYNAMODB_ENDPOINT", "SITE_URL", "VAPID_SECRET_ARN", "REVIEW_QUEUE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")


@pytest.fixture
def moto_tables(aws_env, monkeypatch, template_tables, table_variables):
    """Fresh tables on moto (AWS mocked in-process)."""
    from common.persistence import store

    with mock_aws():
        yield use_tables(monkeypatch, template_tables, table_variables, "")
    store.reset_clients()


# ------------------------------------------------------------------------------------------ dynalite
def _install_dynalite() -> None:
    """npm ci once (the Makefile normally has), under a lock so parallel workers do not race."""
    if CLI.is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed, so dynalite cannot be installed")
    lock_path = ROOT / ".local" / "npm-install.lock"
    lock_path.parent.mkdir(exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not CLI.is_file():
            subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True)
    lock_path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def dynalite_server():
    """A real dynalite server over HTTP (in memory) for this test session, stopped at its end."""
    if node_executable() is None:
        pytest.skip("Node.js is not installed: the dynalite tests need it (moto runs the same contract)")
    _install_dynalite()
    with Dynalite() as server:
        yield server


@pytest.fixture
def dynalite_tables(aws_env, monkeypatch, dynalite_server, template_tables, table_variables):
    """Fresh tables (unique names) on the session's dynalite server."""
    from common.persistence import store

    monkeypatch.setenv("DYNAMODB_ENDPOINT", dynalite_server.endpoint)
    yield use_tables(monkeypatch, template_tables, table_variables, "_" + uuid.uuid4().hex[:10])
    store.reset_clients()


@pytest.fixture(params=["moto", "dynalite"])
def backend(request):
    """The same test on moto and on a real dynalite server."""
    request.getfixturevalue("moto_tables" if request.param == "moto" else "dynalite_tables")
    return request.param


@pytest.fixture
def local_push(monkeypatch, tmp_path):
    """Web Push as `make run` sends it: to the local push service, signed with a VAPID key of the test's own."""
    monkeypatch.setenv("PUSH_LOCAL_MODE", "1")
    monkeypatch.setenv("VAPID_KEY_FILE", str(tmp_path / "vapid.json"))


# ------------------------------------------------------------------------------------- the function
@pytest.fixture
def clock():
    return ManualClock()


class Function:
    """A function's handler module whose resolvers (``create_app()``, or its ``app``) use the test's
    ``dependency_overrides``: Powertools' ``Depends`` with the clock (and what else the test replaces)."""

    def __init__(self, module, overrides: dict):
        self.module = module
        self.overrides = overrides

    def create_app(self):
        app = self.module.create_app()
        app.dependency_overrides.update(self.overrides)
        return app

    def __getattr__(self, name):
        return getattr(self.module, name)


def on_clock(clock) -> dict:
    """The overrides that make a function read ``clock`` (its rate limits too: one clock per function)."""
    from common.web import depends

    return {depends.clock: lambda: clock}


@pytest.fixture
def handler(clock):
    """The games function on the test's clock."""
    from games import handler as module

    return Function(module, on_clock(clock))


class CallCounter:
    """The names of the DynamoDB operations made while it listens (``count_calls``)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, model, **_) -> None:
        self.calls.append(model.name)


@pytest.fixture
def count_calls():
    """Every DynamoDB call the test's requests make, by operation (request the store's fixture first)."""
    from common.persistence import store

    counter = CallCounter()
    events = store.client().meta.events
    events.register("before-call.dynamodb", counter)
    yield counter
    events.unregister("before-call.dynamodb", counter)


@pytest.fixture
def api(moto_tables, handler):
    """The games function's API on moto's tables."""
    from tests.games.client import Api

    return Api(handler)


@pytest.fixture
def dynalite_api(dynalite_tables, handler):
    from tests.games.client import Api

    return Api(handler)


@pytest.fixture(params=["moto", "dynalite"])
def api_on_each_store(request, handler):
    """The games function on moto's tables, then on a real dynalite server's (a test's main path on both)."""
    from tests.games.client import Api

    request.getfixturevalue(f"{request.param}_tables")
    return Api(handler)
