"""template.yaml: cfn-lint clean, the settings the design fixes, routes in step with the handlers, the
OpenAPI file in step with the code, and what `make package` builds from it."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from local.openapi import OUTPUT as OPENAPI_FILE
from local.openapi import generate, render
from local.package import packaged_template
from local.template import ROOT, Template

CFN_LINT = Path(sys.executable).parent / "cfn-lint"


@pytest.fixture(scope="module")
def template() -> Template:
    return Template()


def cfn_lint(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CFN_LINT), str(path)], capture_output=True, text=True, cwd=ROOT)


def test_cfn_lint_reports_nothing():
    result = cfn_lint(ROOT / "template.yaml")
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_cfn_lint_would_see_a_problem(tmp_path):
    # The test above can fail: a template with a mistake is reported.
    broken = (ROOT / "template.yaml").read_text().replace("Runtime: python3.13", "Runtime: python2.7", 1)
    path = tmp_path / "template.yaml"
    path.write_text(broken)
    result = cfn_lint(path)
    assert result.returncode != 0 and "python2.7" in result.stdout


def test_every_function_runs_python_313_on_arm64_with_powertools_settings(template):
    function_globals = template.data["Globals"]["Function"]
    assert function_globals["Runtime"] == "python3.13"
    assert function_globals["Architectures"] == ["arm64"]
    assert template.functions, "there are functions"
    for function in template.functions.values():
        assert function.environment["POWERTOOLS_SERVICE_NAME"] == "ubao"
        assert function.environment["POWERTOOLS_LOG_LEVEL"] in ("DEBUG", "INFO", "WARNING")
        assert 128 <= function.memory_mb <= 1769  # one vCPU at most: the handlers are single-threaded
        # An API function stays under API Gateway's 30 s integration timeout; a queue's worker (the review) has
        # no request waiting on it, and up to Lambda's 15 minutes.
        assert 3 <= function.timeout_seconds <= (29 if function.routes else 900)
        assert ROOT / "shared_rules" in function.layer_dirs


def test_the_site_is_private_and_served_with_the_api_on_one_origin(template):
    resources = template.resources
    access = resources["SiteBucket"]["Properties"]["PublicAccessBlockConfiguration"]
    assert all(access.values())
    assert resources["SiteOriginAccessControl"]["Type"] == "AWS::CloudFront::OriginAccessControl"
    config = resources["SiteDistribution"]["Properties"]["DistributionConfig"]
    api_behaviours = [item for item in config["CacheBehaviors"] if item["PathPattern"] == "/v1/*"]
    assert len(api_behaviours) == 1 and api_behaviours[0]["TargetOriginId"] == "api"
    assert set(template.data["Outputs"]) >= {"SiteUrl", "ApiUrl"}


# ----------------------------------------------------------------------------------- no route drift
def _handler_app(function):
    for path in function.import_paths:
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return importlib.import_module(function.module).app


def test_every_template_route_reaches_a_handler_route_and_back(template):
    from api_fallback.handler import FallbackApi

    for function in template.functions.values():
        if not function.routes:
            continue  # invoked by a stream or a schedule, not by the API
        app = _handler_app(function)
        in_template = {(route.method, route.path) for route in function.routes if "+}" not in route.path}
        in_handler = set(app.declared_routes)
        assert in_template == in_handler, f"{function.name}: template {in_template} != handler {in_handler}"
        for route in function.routes:
            if "+}" in route.path:  # a catch-all must be served by the fallback, which has no routes of its own
                assert isinstance(app, FallbackApi), f"{route.key} goes to {function.name}, not the fallback"


def test_the_fallback_catches_every_v1_path(template):
    catch_all = [route for route in template.routes if route.path == "/v1/{proxy+}" and route.method == "ANY"]
    assert len(catch_all) == 1


# ------------------------------------------------------------------------------------------ OpenAPI
def test_the_committed_openapi_file_is_what_the_code_generates():
    assert OPENAPI_FILE.read_text(encoding="utf-8") == render(generate()), "stale: run `make openapi`"


def test_openapi_describes_every_route_of_the_template(template):
    document = generate(template)
    described = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    declared = {(route.method, route.path) for route in template.routes if "+}" not in route.path}
    assert described == declared
    for item in document["paths"].values():
        for operation in item.values():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    assert "ErrorResponse" in json.dumps(response), (status, response)


def test_every_operation_documents_its_success_body_and_the_edge_refusals():
    """A client generator or checker can read every answer: a 2xx with a schema for each content type sent,
    and a body's 400, 413 and 415 wherever a body is read (``common.web.api`` answers them for every route)."""
    for path, item in generate()["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            successes = {status: spec for status, spec in responses.items() if status.startswith("2")}
            assert successes, (method, path)
            for status, spec in successes.items():
                assert spec.get("content"), (method, path, status)
                assert all("schema" in media for media in spec["content"].values()), (method, path, status)
            if "requestBody" in operation:
                assert {"400", "413", "415", "422"} <= set(responses), (method, path)


# ------------------------------------------------------------------------------------------ packaging
def test_the_packaged_template_points_at_the_build_and_is_clean(template, tmp_path):
    document = packaged_template(template)
    assert "CodeUri" not in document["Globals"]["Function"]  # one code package per function
    for name in template.functions:
        assert document["Resources"][name]["Properties"]["CodeUri"] == f"functions/{name}/"
        (tmp_path / "functions" / name).mkdir(parents=True)
    assert document["Resources"]["RulesLayer"]["Properties"]["ContentUri"] == "layer/"
    assert "Metadata" not in document["Resources"]["RulesLayer"]
    path = tmp_path / "template.json"
    path.write_text(json.dumps(document))
    (tmp_path / "layer").mkdir()
    result = cfn_lint(path)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@pytest.mark.skipif(shutil.which("make") is None or shutil.which("tar") is None, reason="needs make and tar")
def test_the_layer_makefile_puts_the_package_where_lambda_looks(tmp_path):
    # PIP=true skips the dependency download (the network); the copy is what is checked here.
    subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT / "shared_rules"), "build-RulesLayer",
         f"ARTIFACTS_DIR={tmp_path}", "PIP=true"],
        check=True, capture_output=True,
    )  # fmt: skip
    package = tmp_path / "python" / "shared_rules"
    assert (package / "__init__.py").is_file() and (package / "draughts" / "engine.py").is_file()
    assert not (package / "Makefile").exists() and not (package / "requirements.txt").exists()
    assert not list(package.rglob("__pycache__"))
    code = "import shared_rules, sys; print(shared_rules.__file__)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONPATH": str(tmp_path / "python")}, cwd=tmp_path).stdout  # fmt: skip
    assert found.startswith(str(package))
