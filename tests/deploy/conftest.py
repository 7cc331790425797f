"""Fixtures of the deployment tests: the host-platform package (built once per session), dynalite."""

from __future__ import annotations

import os
import threading

import pytest

from local.dynamodb import CLI, Dynalite, node_executable, table_definitions
from local.package import build
from local.runner import create_server


@pytest.fixture(scope="session")
def packaged_build(tmp_path_factory):
    """`make package PLATFORM=host` into a temporary directory: what the tests below serve, and nothing else."""
    return build(tmp_path_factory.mktemp("package") / "host", host=True)


@pytest.fixture(scope="session")
def dynalite():
    if node_executable() is None or not CLI.is_file():
        pytest.skip("Node.js and dynalite (make node) are needed for the local DynamoDB")
    with Dynalite() as server:
        yield server


@pytest.fixture(scope="session")
def aws_environment(dynalite):
    """What the functions read: a fake account's credentials and the local DynamoDB, with the template's tables."""
    saved = dict(os.environ)
    os.environ.update(
        AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1",
        AWS_REGION="us-east-1", DYNAMODB_ENDPOINT=dynalite.endpoint, POWERTOOLS_LOG_LEVEL="WARNING",
    )  # fmt: skip
    os.environ.pop("SITE_URL", None)
    from local.dynamodb import create_tables

    create_tables(table_definitions())
    yield dynalite.endpoint
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope="session")
def packaged_server(packaged_build, aws_environment, tmp_path_factory):
    """The local runner serving the packaged build (make run PACKAGED=1), on a free port, in this process;
    each function runs in its own ``python -I -S`` with only its package, the layer and boto3 importable."""
    site = tmp_path_factory.mktemp("site")
    server = create_server(port=0, quiet=True, site_dir=site, packaged=packaged_build)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    for function in server.api.functions.values():
        function.stop()
